/// A VTODO: something to do, with a due date, completion and subtasks (RFC 5545 §3.6.2).
@dynamicMemberLookup
public struct Todo: Sendable, Hashable, CalendarItem, CalendarItemModel, CalendarItemFields {
    public var core = ItemCore() { didSet { provenance.isModified = true } }
    public var due: CalendarDate? { didSet { provenance.isModified = true } }
    public var duration: Duration? { didSet { provenance.isModified = true } }
    public var completed: CalendarDate? { didSet { provenance.isModified = true } }
    /// PERCENT-COMPLETE, 0–100.
    public var percentComplete: Int? { didSet { provenance.isModified = true } }
    public var alarms: [Alarm] = [] { didSet { provenance.isModified = true } }
    public var otherProperties: [Property] = [] { didSet { provenance.isModified = true } }
    public var otherComponents: [Component] = [] { didSet { provenance.isModified = true } }
    var provenance = Provenance()

    public init() {}

    /// Done: STATUS:COMPLETED or a COMPLETED time.
    public var isCompleted: Bool { core.status == .completed || completed != nil }

    static var componentName: String { "VTODO" }
    static let fields = liftedFields()

    static let ownTable = FieldTable<Todo>([
        .single("DUE", \.due, .dateTime),
        .single("DURATION", \.duration, .duration),
        .single("COMPLETED", \.completed, .dateTime),
        .single("PERCENT-COMPLETE", \.percentComplete, .integer),
    ])

    mutating func decodeChildren(_ components: [Component], _ context: inout DecodeContext) {
        (alarms, otherComponents) = Alarm.split(components, &context)
    }

    func encodeChildren() -> [Component] { alarms.map { $0.encoded() } + otherComponents }
}

/// A VJOURNAL: a dated note (RFC 5545 §3.6.3).
@dynamicMemberLookup
public struct Journal: Sendable, Hashable, CalendarItem, CalendarItemModel, CalendarItemFields {
    public var core = ItemCore() { didSet { provenance.isModified = true } }
    public var otherProperties: [Property] = [] { didSet { provenance.isModified = true } }
    public var otherComponents: [Component] = [] { didSet { provenance.isModified = true } }
    var provenance = Provenance()

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
