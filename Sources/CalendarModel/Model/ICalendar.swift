/// A VCALENDAR: its own properties and its components in file order (RFC 5545 §3.4, RFC 7986).
public struct ICalendar: Sendable, Hashable, ComponentModel, Codable {
    /// PRODID.
    public var productID: String? { didSet { provenance.isModified = true } }
    /// VERSION (2.0 for RFC 5545).
    public var version: String? { didSet { provenance.isModified = true } }
    /// CALSCALE.
    public var scale: String? { didSet { provenance.isModified = true } }
    /// METHOD (PUBLISH, REQUEST …); without it every VEVENT needs a DTSTART.
    public var method: String? { didSet { provenance.isModified = true } }
    /// NAME (RFC 7986).
    public var name: String? { didSet { provenance.isModified = true } }
    /// X-WR-CALNAME, the name Google and Apple write.
    public var wrCalendarName: String? { didSet { provenance.isModified = true } }
    /// COLOR (RFC 7986).
    public var color: String? { didSet { provenance.isModified = true } }
    /// X-WR-TIMEZONE, Google's default zone for floating times.
    public var wrTimeZone: TimeZoneID? { didSet { provenance.isModified = true } }
    /// Every component in file order: items, time zones and others.
    public var components: [CalendarComponent] = []
    /// Calendar properties ICSKit does not type, in file order.
    public var otherProperties: [Property] = [] { didSet { provenance.isModified = true } }
    /// True when the input had components with no VCALENDAR around them; they are written back the same way.
    package var isImplicit = false
    var provenance = Provenance()

    // What JSON holds: the fields, not how the file had them (a decoded item is written canonically).
    private enum CodingKeys: String, CodingKey {
        case productID, version, scale, method, name, wrCalendarName, color, wrTimeZone, components, otherProperties
    }

    /// An empty calendar.
    public init() {}

    /// Decodes the fields; the times of its items may name the zones its own VTIMEZONEs define, and any other
    /// zone name must be one a zone database knows (a misspelt one throws).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defined = try container.decodeIfPresent([DefinedZone].self, forKey: .components) ?? []
        let names = TimeZoneID.definedWhileDecoding.union(defined.compactMap(\.tzid))
        self = try TimeZoneID.$definedWhileDecoding.withValue(names) {
            var calendar = ICalendar()
            calendar.productID = try container.decodeIfPresent(String.self, forKey: .productID)
            calendar.version = try container.decodeIfPresent(String.self, forKey: .version)
            calendar.scale = try container.decodeIfPresent(String.self, forKey: .scale)
            calendar.method = try container.decodeIfPresent(String.self, forKey: .method)
            calendar.name = try container.decodeIfPresent(String.self, forKey: .name)
            calendar.wrCalendarName = try container.decodeIfPresent(String.self, forKey: .wrCalendarName)
            calendar.color = try container.decodeIfPresent(String.self, forKey: .color)
            calendar.wrTimeZone = try container.decodeIfPresent(TimeZoneID.self, forKey: .wrTimeZone)
            calendar.components = try container.decodeIfPresent([CalendarComponent].self, forKey: .components) ?? []
            calendar.otherProperties = try container.decodeIfPresent([Property].self, forKey: .otherProperties) ?? []
            calendar.provenance = Provenance()
            return calendar
        }
    }

    /// A component of the JSON read only for the TZID of a VTIMEZONE.
    private struct DefinedZone: Decodable {
        private enum CodingKeys: String, CodingKey { case timeZone }
        let tzid: String?
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            tzid = try container.decodeIfPresent(TimeZoneDefinition.self, forKey: .timeZone)?.tzid
        }
    }

    /// NAME, else X-WR-CALNAME.
    public var displayName: String? { name ?? wrCalendarName }

    /// The VEVENTs, in file order.
    public var events: [Event] { components.compactMap { if case .event(let e) = $0 { e } else { nil } } }
    /// The VTODOs, in file order.
    public var todos: [Todo] { components.compactMap { if case .todo(let t) = $0 { t } else { nil } } }
    /// The VJOURNALs, in file order.
    public var journals: [Journal] { components.compactMap { if case .journal(let j) = $0 { j } else { nil } } }
    /// The VTIMEZONEs, in file order.
    public var timeZones: [TimeZoneDefinition] {
        components.compactMap { if case .timeZone(let z) = $0 { z } else { nil } }
    }
    /// The calendar with its VTIMEZONEs and none of its items: what a `CalendarTime` needs to place the items'
    /// times when what it would say of the zones' use in them (disagreements with tzdata at the times used) is not
    /// wanted, and costs a pass over every item per zone.
    package var withZonesOnly: ICalendar {
        var zones = self
        zones.components = components.filter { if case .timeZone = $0 { true } else { false } }
        return zones
    }

    static var componentName: String { "VCALENDAR" }
    static let table = FieldTable<ICalendar>([
        .single("PRODID", { $0.productID }, { $0.productID = $1 }, .text),
        .single("VERSION", { $0.version }, { $0.version = $1 }, .text),
        .single("CALSCALE", { $0.scale }, { $0.scale = $1 }, .text),
        .single("METHOD", { $0.method }, { $0.method = $1 }, .text),
        .single("NAME", { $0.name }, { $0.name = $1 }, .text),
        .single("X-WR-CALNAME", { $0.wrCalendarName }, { $0.wrCalendarName = $1 }, .text),
        .single("COLOR", { $0.color }, { $0.color = $1 }, .text),
        .single("X-WR-TIMEZONE", { $0.wrTimeZone }, { $0.wrTimeZone = $1 }, .zoneName),
    ])
    static var fields: [FieldCodec<ICalendar>] { table.fields }

    mutating func decodeProperties(_ properties: [Property], claims: inout [FieldClaim], _ context: inout DecodeContext)
    {
        Self.table.decode(properties, into: &self, claims: &claims, &context)
    }

    mutating func decodeChildren(_ children: [Component], _ context: inout DecodeContext) {
        components = children.map { CalendarComponent(decoding: $0, &context) }
    }

    func encodeChildren() -> [Component] { components.map(\.encoded) }

    /// The items' categories take the colours the calendar's properties carry (`CategoryColor`).
    mutating func didDecode() { fillCategoryColors() }

    func checkRequired(line: Int, _ context: inout DecodeContext) {
        if !isImplicit, productID == nil {
            context.log.warning(line, "VCALENDAR has no PRODID", code: "missing-prodid")
        }
        if !isImplicit, version == nil {
            context.log.warning(line, "VCALENDAR has no VERSION", code: "missing-version")
        }
        if let version, version.trimmingCharacters(in: .whitespaces) != "2.0" {
            context.log.warning(
                line,
                "VCALENDAR has VERSION \(version), not 2.0 (RFC 5545); strict readers refuse it, "
                    + "`--repair` writes 2.0", code: "version-not-2")
        }
        var checks = CalendarChecks(
            method: method, expectedItems: components.count,
            line: isImplicit || context.hasComponentsElsewhere ? nil : line)
        // What each item says for the checks is gathered in parts on every core (as a streamed read gathers it run
        // by run); the parts are added in order.
        let components = components
        let ranges = ParallelParts.ranges(components.count, from: 4096)
        for part in ParallelParts.run(ranges.count, { CalendarChecks.Part(components[ranges[$0]]) }) {
            checks.add(part)
        }
        checks.report(&context.log)
    }

    /// How many components of each kind the calendar holds, nested ones (VALARM, STANDARD …) included.
    package var componentCounts: [String: Int] {
        var counts: [String: Int] = [:]
        func count(_ component: Component) { component.forEach { counts[$0.name, default: 0] += 1 } }
        for component in components {
            switch component {
            case .event(let event):
                counts["VEVENT", default: 0] += 1
                counts["VALARM", default: 0] += event.alarms.count
                event.otherComponents.forEach(count)
                for alarm in event.alarms { alarm.otherComponents.forEach(count) }
            case .todo(let todo):
                counts["VTODO", default: 0] += 1
                counts["VALARM", default: 0] += todo.alarms.count
                todo.otherComponents.forEach(count)
                for alarm in todo.alarms { alarm.otherComponents.forEach(count) }
            case .journal(let journal):
                counts["VJOURNAL", default: 0] += 1
                journal.otherComponents.forEach(count)
            case .timeZone(let zone): count(zone.component)
            case .other(let other): count(other)
            }
        }
        return counts.filter { $0.value > 0 }
    }

    /// The calendar's own properties as they would be written (as read when unchanged), without VERSION, PRODID
    /// and METHOD (which belong to one file or message): what a store keeps of a calendar besides its components.
    package var headerProperties: [Property] {
        ownPart.properties.filter { !["VERSION", "PRODID", "METHOD"].contains($0.name) }
    }

    /// Written as read when its own properties did not change; each component decides for itself. A calendar made
    /// in code without VERSION or PRODID is written with `2.0` and ICSKit's, and with a tzdata VTIMEZONE for each
    /// IANA TZID its items use and it does not define (RFC 5545 §3.2.19); the colours its items' categories
    /// have and its properties do not say yet are added (`CategoryColor`).
    func encoded() -> Component {
        var component: Component
        let colored = propertiesWithItemCategoryColors
        if let source = provenance.source, !provenance.isModified, colored == nil {
            component = source
        } else {
            // Only the calendar's own properties are written here: read back its source without the children.
            var own = self
            if let colored { own.otherProperties = colored }
            own.components = []
            own.provenance.source?.components = []
            // A calendar made in code says what RFC 5545 §3.6 requires of every VCALENDAR.
            if provenance.source == nil, !isImplicit {
                own.version = own.version ?? "2.0"
                own.productID = own.productID ?? ICS.productID
            }
            component = own.encodedCanonically()
        }
        component.components = encodeChildren()
        if provenance.source == nil, !isImplicit {
            component.components = Self.completingZones(component.components)
        }
        return component
    }
}

/// A VTIMEZONE, kept as read; the time layer interprets it.
public struct TimeZoneDefinition: Sendable, Hashable, Codable {
    /// The VTIMEZONE as read.
    public var component: Component
    /// A time zone definition from its component.
    public init(_ component: Component) { self.component = component }

    /// Its TZID, unescaped.
    public var tzid: String? { component.property("TZID").map { TextEscaping.unescape($0.value) } }

    /// Checks its values (`PropertyDesign.validateTree`) and its structure (`check`), reporting each problem with
    /// its line. A CalDAV download carries the same zone in every resource: a zone that read clean is remembered
    /// by its content (`Component` equality: names, parameters and values, not lines or spelling) and not checked
    /// again. One with a problem is checked each time, so that each copy is reported at its own lines.
    static func validate(_ component: Component, _ log: inout DiagnosticLog) {
        func checked() -> Bool {
            let before = log.entries.count
            PropertyDesign.validateTree(component, &log)
            check(component, &log)
            return log.entries.count == before
        }
        // Zones are a few dozen lines; a giant one is not kept alive for the memo's sake.
        var lines = 0
        component.forEach { lines += $0.properties.count + 2 }
        guard lines <= 2_000 else {
            _ = checked()
            return
        }
        _ = readClean.value(for: component, keep: { $0 }, checked)
    }

    /// The VTIMEZONEs that read without a diagnostic so far.
    static let readClean = Remembered<Component, Bool>(limit: 256)

    /// RFC 5545 §3.6.5: a TZID, at least one observance, and each observance starting at a local DATE-TIME.
    static func check(_ component: Component, _ log: inout DiagnosticLog) {
        if component.property("TZID") == nil {
            log.error(component.line, "VTIMEZONE has no TZID", code: "vtimezone-without-tzid")
        }
        let observances = component.components.filter { $0.name == "STANDARD" || $0.name == "DAYLIGHT" }
        if observances.isEmpty {
            log.error(
                component.line, "VTIMEZONE has no STANDARD or DAYLIGHT part", code: "vtimezone-without-observance")
        }
        for observance in observances {
            for required in ["DTSTART", "TZOFFSETFROM", "TZOFFSETTO"] where observance.property(required) == nil {
                log.error(observance.line, "\(observance.name) has no \(required)", code: "observance-missing-property")
            }
            guard let start = observance.property("DTSTART") else { continue }
            if start["TZID"] != nil || start.value.hasSuffix("Z") || start["VALUE"]?.uppercased() == "DATE"
                || start.value.count == 8
            {
                log.warning(
                    start.line, "\(observance.name) DTSTART must be a local DATE-TIME (no Z, TZID or DATE)",
                    code: "observance-start-not-local")
            }
        }
    }
}

/// One component of a calendar, typed where ICSKit knows the kind. `indirect`: each payload is boxed, so copying a
/// component (lists of them are filtered, mapped and handed between threads) costs one reference count, not one per
/// field of an event; the 20,000-event import spent a tenth of its time copying components before.
public indirect enum CalendarComponent: Sendable, Hashable {
    /// A VEVENT.
    case event(Event)
    /// A VTODO.
    case todo(Todo)
    /// A VJOURNAL.
    case journal(Journal)
    /// A VTIMEZONE.
    case timeZone(TimeZoneDefinition)
    /// VFREEBUSY, VAVAILABILITY, X- components …: kept and written back as read.
    case other(Component)

    init(decoding component: Component, _ context: inout DecodeContext) {
        switch component.name {
        case Event.componentName: self = .event(Event(decoding: component, &context))
        case Todo.componentName: self = .todo(Todo(decoding: component, &context))
        case Journal.componentName: self = .journal(Journal(decoding: component, &context))
        case "VTIMEZONE":
            if context.checks { TimeZoneDefinition.validate(component, &context.log) }
            self = .timeZone(TimeZoneDefinition(component))
        default:
            if context.checks { PropertyDesign.validateTree(component, &context.log) }
            self = .other(component)
        }
    }

    var encoded: Component {
        switch self {
        case .event(let event): return event.encoded()
        case .todo(let todo): return todo.encoded()
        case .journal(let journal): return journal.encoded()
        case .timeZone(let zone): return zone.component
        case .other(let component): return component
        }
    }

    /// The component as it was read, or as it would be written when it was made in code.
    var asRead: Component { source ?? encoded }

    /// The properties an event, todo or journal shares; nil for other components (setting it changes nothing
    /// there).
    public var core: ItemCore? {
        get {
            switch self {
            case .event(let event): return event.core
            case .todo(let todo): return todo.core
            case .journal(let journal): return journal.core
            case .timeZone, .other: return nil
            }
        }
        set {
            guard let newValue else { return }
            switch self {
            case .event(var event):
                event.core = newValue
                self = .event(event)
            case .todo(var todo):
                todo.core = newValue
                self = .todo(todo)
            case .journal(var journal):
                journal.core = newValue
                self = .journal(journal)
            case .timeZone, .other: break
            }
        }
    }

    /// `body` with each date an event, todo or journal gives, in this order: its start, RECURRENCE-ID, RDATEs,
    /// EXDATEs, then an event's end or a todo's due. Only these are copied out of the item before `body` runs:
    /// matching `.event(let event)` around a call the optimizer cannot see into copies the whole event (a retain
    /// for each of its texts and lists), which a pass over every item of a large calendar pays 20,000 times.
    package func forEachDate(_ body: (CalendarDate) -> Void) {
        func dates(_ core: ItemCore, _ last: CalendarDate?) -> Dates {
            (core.start, core.recurrenceID?.date, core.recurrenceDates, core.exceptionDates, last)
        }
        let found: Dates
        switch self {
        case .event(let event): found = dates(event.core, event.end)
        case .todo(let todo): found = dates(todo.core, todo.due)
        case .journal(let journal): found = dates(journal.core, nil)
        case .timeZone, .other: return
        }
        if let start = found.start { body(start) }
        if let date = found.recurrenceID { body(date) }
        for date in found.recurrenceDates { body(date.start) }
        for date in found.exceptionDates { body(date) }
        if let last = found.last { body(last) }
    }

    private typealias Dates = (
        start: CalendarDate?, recurrenceID: CalendarDate?, recurrenceDates: [RecurrenceDate],
        exceptionDates: [CalendarDate], last: CalendarDate?
    )

    /// The revision of an event, todo or journal (`ItemCore.revision`), read as `forEachDate` reads; nil for
    /// anything else.
    package var revision: Revision? {
        switch self {
        case .event(let event): return event.core.revision
        case .todo(let todo): return todo.core.revision
        case .journal(let journal): return journal.core.revision
        case .timeZone, .other: return nil
        }
    }

    /// The start and the rules of a series (an event, todo or journal with an RRULE), copied out of it as
    /// `forEachDate` copies; nil for anything else.
    package var seriesStart: (start: CalendarDate, rules: [RecurrenceRule])? {
        let start: CalendarDate?
        let rules: [RecurrenceRule]
        switch self {
        case .event(let event): (start, rules) = (event.core.start, event.core.recurrenceRules)
        case .todo(let todo): (start, rules) = (todo.core.start, todo.core.recurrenceRules)
        case .journal(let journal): (start, rules) = (journal.core.start, journal.core.recurrenceRules)
        case .timeZone, .other: return nil
        }
        guard let start, !rules.isEmpty else { return nil }
        return (start, rules)
    }

    /// False for a component the input ended inside of (its END missing, a download cut off): what it holds may be
    /// cut short, so a store must not let it replace a complete version.
    package var isComplete: Bool { !sourceMark.isCutOff }

    /// Where the component was read and whether it was cut off, read in place (as `forEachDate` reads; `source`
    /// returns a copy of the whole component).
    var sourceMark: (line: Int, isCutOff: Bool) {
        switch self {
        case .event(let event): return (event.provenance.source?.line ?? 0, event.provenance.source?.isCutOff ?? false)
        case .todo(let todo): return (todo.provenance.source?.line ?? 0, todo.provenance.source?.isCutOff ?? false)
        case .journal(let journal):
            return (journal.provenance.source?.line ?? 0, journal.provenance.source?.isCutOff ?? false)
        case .timeZone(let zone): return (zone.component.line, zone.component.isCutOff)
        case .other(let component): return (component.line, component.isCutOff)
        }
    }

    /// The component an item or block was read from; nil for an item made in code (which is never cut off and has
    /// no line). Unlike `asRead`, never encodes.
    var source: Component? {
        switch self {
        case .event(let event): return event.provenance.source
        case .todo(let todo): return todo.provenance.source
        case .journal(let journal): return journal.provenance.source
        case .timeZone(let zone): return zone.component
        case .other(let component): return component
        }
    }

    /// Whether this is an event, todo or journal: an item a store keeps, merges and lists.
    package var isItem: Bool {
        switch self {
        case .event, .todo, .journal: return true
        case .timeZone, .other: return false
        }
    }

    /// What item this is; nil for a time zone and other components.
    public var kind: ItemKind? {
        switch self {
        case .event: return .event
        case .todo: return .todo
        case .journal: return .journal
        case .timeZone, .other: return nil
        }
    }

    /// The component's name (`VEVENT`, `VTIMEZONE`, …).
    public var name: String {
        switch self {
        case .event, .todo, .journal: return kind!.componentName
        case .timeZone: return "VTIMEZONE"
        case .other(let component): return component.name
        }
    }
}
