/// A VALARM: a reminder inside an event or todo (RFC 5545 §3.6.6).
public struct Alarm: Sendable, Hashable, ComponentModel, Codable {
    /// ACTION: AUDIO, DISPLAY or EMAIL.
    public var action: AlarmAction? { didSet { provenance.isModified = true } }
    /// TRIGGER: when, relative to the start or end of its item, or at a time.
    public var trigger: Trigger? { didSet { provenance.isModified = true } }
    /// DURATION between repeats; goes with `repeatCount`.
    public var duration: CalendarDuration? { didSet { provenance.isModified = true } }
    /// REPEAT.
    public var repeatCount: Int? { didSet { provenance.isModified = true } }
    /// DESCRIPTION: the text a DISPLAY alarm shows or an EMAIL alarm sends.
    public var description: String? { didSet { provenance.isModified = true } }
    /// SUMMARY: an EMAIL alarm's subject.
    public var summary: String? { didSet { provenance.isModified = true } }
    /// ATTENDEE: an EMAIL alarm's recipients.
    public var attendees: [CalendarUser] = [] { didSet { provenance.isModified = true } }
    /// Properties ICSKit does not type, in file order.
    public var otherProperties: [Property] = [] { didSet { provenance.isModified = true } }
    /// Nested components.
    public var otherComponents: [Component] = [] { didSet { provenance.isModified = true } }
    var provenance = Provenance()

    // What JSON holds: the fields, not how the file had them (a decoded item is written canonically).
    private enum CodingKeys: String, CodingKey {
        case action, trigger, duration, repeatCount, description, summary, attendees, otherProperties, otherComponents
    }

    /// An alarm with no properties set.
    public init() {}

    /// A display alarm at an offset before the start: `Alarm(displaying: "Soon", before: CalendarDuration(minutes: 15))`.
    /// An offset already written as negative (`CalendarDuration(minutes: -15)`) means the same.
    public init(displaying text: String, before offset: CalendarDuration) {
        action = .display
        description = text
        var before = offset
        if offset.totalSeconds > 0 { before.isNegative.toggle() }
        trigger = .relative(before, relatedToEnd: false)
    }

    static var componentName: String { "VALARM" }
    static let table = FieldTable<Alarm>([
        .single("ACTION", { $0.action }, { $0.action = $1 }, .token),
        .single("TRIGGER", { $0.trigger }, { $0.trigger = $1 }, .trigger),
        .single("DURATION", { $0.duration }, { $0.duration = $1 }, .duration),
        .single("REPEAT", { $0.repeatCount }, { $0.repeatCount = $1 }, .integer, recover: ValueCodec.clampedInteger),
        .single("DESCRIPTION", { $0.description }, { $0.description = $1 }, .text),
        .single("SUMMARY", { $0.summary }, { $0.summary = $1 }, .text),
        .list("ATTENDEE", { $0.attendees }, { $0.attendees += $1 }, .user),
    ])
    static var fields: [FieldCodec<Alarm>] { table.fields }

    mutating func decodeProperties(_ properties: [Property], claims: inout [FieldClaim], _ context: inout DecodeContext)
    {
        Self.table.decode(properties, into: &self, claims: &claims, &context)
    }

    mutating func decodeChildren(_ components: [Component], _ context: inout DecodeContext) {
        otherComponents = components
    }

    func encodeChildren() -> [Component] { otherComponents }

    func checkRequired(line: Int, _ context: inout DecodeContext) {
        if action == nil { context.log.error(line, "VALARM has no ACTION", code: "alarm-without-action") }
        if trigger == nil { context.log.error(line, "VALARM has no TRIGGER", code: "alarm-without-trigger") }
    }

    /// Splits nested components into alarms and the rest.
    static func split(_ components: [Component], _ context: inout DecodeContext) -> ([Alarm], [Component]) {
        var alarms: [Alarm] = []
        var others: [Component] = []
        for component in components {
            if component.name == componentName {
                alarms.append(Alarm(decoding: component, &context))
            } else {
                PropertyDesign.validateTree(component, &context.log)
                others.append(component)
            }
        }
        return (alarms, others)
    }
}
