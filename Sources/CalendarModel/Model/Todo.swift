/// A VTODO: something to do, with a due date, completion and subtasks (RFC 5545 §3.6.2).
@dynamicMemberLookup
public struct Todo: Sendable, Hashable, CalendarItem, CalendarItemModel, CalendarItemFields, Codable {
    /// The properties todos share with events and journals.
    public var core = ItemCore() { didSet { provenance.isModified = true } }
    /// DUE.
    public var due: CalendarDate? { didSet { provenance.isModified = true } }
    /// DURATION (from DTSTART), when the todo has no DUE.
    public var duration: CalendarDuration? { didSet { provenance.isModified = true } }
    /// COMPLETED: when it was done (UTC).
    public var completed: CalendarDate? { didSet { provenance.isModified = true } }
    /// PERCENT-COMPLETE, 0–100.
    public var percentComplete: Int? { didSet { provenance.isModified = true } }
    /// VALARM components.
    public var alarms: [Alarm] = [] { didSet { provenance.isModified = true } }
    /// Properties ICSKit does not type (X-, IANA, unreadable values), in file order.
    public var otherProperties: [Property] = [] { didSet { provenance.isModified = true } }
    /// Nested components other than VALARM.
    public var otherComponents: [Component] = [] { didSet { provenance.isModified = true } }
    var provenance = Provenance()

    // What JSON holds: the fields, not how the file had them (a decoded item is written canonically).
    private enum CodingKeys: String, CodingKey {
        case core, due, duration, completed, percentComplete, alarms, otherProperties, otherComponents
    }

    /// A todo with no properties set.
    public init() {}

    /// Done: STATUS:COMPLETED or a COMPLETED time.
    public var isCompleted: Bool { core.status == .completed || completed != nil }

    static var componentName: String { "VTODO" }
    static let fields = liftedFields()

    static let ownTable = FieldTable<Todo>([
        .single("DUE", { $0.due }, { $0.due = $1 }, .dateTime),
        .single("DURATION", { $0.duration }, { $0.duration = $1 }, .duration),
        .single("COMPLETED", { $0.completed }, { $0.completed = $1 }, .dateTime),
        .single(
            "PERCENT-COMPLETE", { $0.percentComplete }, { $0.percentComplete = $1 }, .integer,
            recover: ValueCodec.clampedInteger),
    ])

    mutating func decodeChildren(_ components: [Component], _ context: inout DecodeContext) {
        (alarms, otherComponents) = Alarm.split(components, &context)
    }

    func encodeChildren() -> [Component] { alarms.map { $0.encoded() } + otherComponents }
}

/// A VJOURNAL: a dated note (RFC 5545 §3.6.3).
@dynamicMemberLookup
public struct Journal: Sendable, Hashable, CalendarItem, CalendarItemModel, CalendarItemFields, Codable {
    /// The properties journals share with events and todos.
    public var core = ItemCore() { didSet { provenance.isModified = true } }
    /// Properties ICSKit does not type, in file order.
    public var otherProperties: [Property] = [] { didSet { provenance.isModified = true } }
    /// Nested components.
    public var otherComponents: [Component] = [] { didSet { provenance.isModified = true } }
    var provenance = Provenance()

    // What JSON holds: the fields, not how the file had them (a decoded item is written canonically).
    private enum CodingKeys: String, CodingKey { case core, otherProperties, otherComponents }

    /// A journal entry with no properties set.
    public init() {}

    static var componentName: String { "VJOURNAL" }
    static let fields = liftedFields()

    static let ownTable = FieldTable<Journal>([])

    mutating func decodeChildren(_ components: [Component], _ context: inout DecodeContext) {
        otherComponents = components
        for component in components { PropertyDesign.validateTree(component, &context.log) }
    }

    func encodeChildren() -> [Component] { otherComponents }
}
