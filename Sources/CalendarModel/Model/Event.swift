/// A VEVENT: something that happens at a time (RFC 5545 §3.6.1).
@dynamicMemberLookup
public struct Event: Sendable, Hashable, CalendarItem, CalendarItemModel, CalendarItemFields, Codable {
    /// The properties events share with todos and journals.
    public var core = ItemCore() { didSet { provenance.isModified = true } }
    /// DTEND; an event has DTEND or DURATION, not both.
    public var end: CalendarDate? { didSet { provenance.isModified = true } }
    /// DURATION, when the event has no DTEND.
    public var duration: CalendarDuration? { didSet { provenance.isModified = true } }
    /// TRANSP.
    public var transparency: Transparency? { didSet { provenance.isModified = true } }
    /// VALARM components.
    public var alarms: [Alarm] = [] { didSet { provenance.isModified = true } }
    /// Properties ICSKit does not type (X-, IANA, unreadable values), in file order.
    public var otherProperties: [Property] = [] { didSet { provenance.isModified = true } }
    /// Nested components other than VALARM.
    public var otherComponents: [Component] = [] { didSet { provenance.isModified = true } }
    var provenance = Provenance()

    // What JSON holds: the fields, not how the file had them (a decoded item is written canonically).
    private enum CodingKeys: String, CodingKey {
        case core, end, duration, transparency, alarms, otherProperties, otherComponents
    }

    /// An event with no properties set.
    public init() {}

    static var componentName: String { "VEVENT" }
    static let fields = liftedFields()

    static let ownTable = FieldTable<Event>([
        .single("DTEND", { $0.end }, { $0.end = $1 }, .dateTime),
        .single("DURATION", { $0.duration }, { $0.duration = $1 }, .duration),
        .single("TRANSP", { $0.transparency }, { $0.transparency = $1 }, .token),
    ])

    mutating func decodeChildren(_ components: [Component], _ context: inout DecodeContext) {
        (alarms, otherComponents) = Alarm.split(components, &context)
    }

    func encodeChildren() -> [Component] { alarms.map { $0.encoded() } + otherComponents }
}
