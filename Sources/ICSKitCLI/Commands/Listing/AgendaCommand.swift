import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `icskit agenda`: the instances in a window, in the viewer's zone.
struct AgendaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agenda",
        abstract: "List the events that fall in a window: recurring series expanded, overrides applied.",
        discussion: """
            The window starts inclusive and ends exclusive, in --tz (default: the system's zone). All-day events \
            stay on their own date in every zone; floating times are read in --tz. --component adds recurring todos \
            (placed at DTSTART, else at DUE, as recurring-ical-events does; shown with [ ] or [x]) and journals.

            Examples:
              icskit agenda work.ics --week this
              icskit agenda work.ics family.ics --from 2026-12-01 --to +14d \\
                --tz Europe/Berlin
              icskit agenda google.ics --today --json
              icskit agenda tasks.ics --component event,todo --week next
            """
    )

    @Argument(help: "Calendar files (.ics, jCal, xCal or CSV); - reads standard input. None: the store.")
    var files: [String] = []

    @Option(help: "With the store: only this calendar (repeat for several).", completion: CalendarCompletion.kind)
    var calendar: [String] = []

    @OptionGroup var store: StoreOption

    @OptionGroup var window: WindowOptions

    @Flag(help: "Print one JSON array of instances.")
    var json = false

    @Option(
        name: .customLong("component"),
        help: ArgumentHelp("Which items to list: event, todo, journal, comma-separated.", valueName: "KINDS"))
    var components: ComponentKinds = ComponentKinds(kinds: [.event])

    @Flag(name: .customLong("no-x-wr-timezone"), help: "Do not apply Google's X-WR-TIMEZONE.")
    var noXWRTimezone = false

    @Option(help: "The most instances one recurring series may produce before it is stopped.")
    var maxInstances = 100_000

    @Option(
        name: .customLong("max-total"),
        help: ArgumentHelp(
            "The most instances the whole agenda lists (all calendars together) before expansion stops with a warning.",
            valueName: "N"))
    var maxTotal = 500_000

    @Flag(name: .customLong("no-ids"), help: "Text from the store: leave out each line's handle (id:…).")
    var noIDs = false

    @Flag(help: "Under each item: its place, alarm times, people, link and the start of its description.")
    var details = false

    @Option(
        help: ArgumentHelp(
            "Colour items by calendar (or category, or their own COLOR): auto (on a terminal, unless NO_COLOR is set), "
                + "always or never (default: config color, else auto).", valueName: "WHEN"))
    var color: ColorChoice?

    @Flag(name: .shortAndLong, help: "No warnings on standard error.")
    var quiet = false

    @OptionGroup var zoneRules: ZonesOption
    @OptionGroup var me: MeOption

    func validate() throws {
        if maxInstances < 1 { throw ValidationError("--max-instances must be at least 1") }
        if maxTotal < 1 { throw ValidationError("--max-total must be at least 1") }
    }

    func run() throws {
        let zone = try window.zone()
        let (start, end) = try window.window(in: zone)
        var options = ExpansionOptions()
        options.components = components.kinds
        options.viewerZoneName = zone.identifier
        options.applyWRTimeZone = !noXWRTimezone
        options.limitPerSeries = maxInstances
        let (segments, diagnostics, shown, storeIsEmpty, indexedHandles, opened) =
            try indexedRows(from: zone.date(of: start), to: zone.date(of: end), options)
            ?? expandedRows(from: zone.date(of: start), to: zone.date(of: end), options)
        let rows = ListedRows(segments)
        CalendarFiles.report(diagnostics, quiet: quiet, fromStore: files.isEmpty)
        let format = InstanceFormat(zone: zone)
        if json {
            try rows.printJSON(zone: zone.identifier)
        } else {
            var style = AgendaStyle(details: details)
            style.me = me.identity(store: store, opened: opened)
            if try ColorChoice.resolved(color).isOn(isTerminal: isatty(STDOUT_FILENO) == 1) {
                style.colors = try PageColors.ofStore(
                    files.isEmpty ? opened ?? store.open(.readOnly) : nil, shown: shown)
            }
            let handles =
                try indexedHandles.map(ListedHandles.bySegment)
                ?? .byUID(store.handles(files: files, hidden: noIDs, for: rows.uids))
            format.printDays(rows, from: start, to: end, handles: handles, style: style)
            if rows.isEmpty, storeIsEmpty {
                Output.print(CalendarFiles.emptyStoreHint(try store.resolvedPath()))
            }
        }
    }
}

extension AgendaCommand {
    typealias Rows = (
        segments: [ListedRows.Segment], diagnostics: [Diagnostic], shown: [String],
        storeIsEmpty: Bool, handles: [[String?]]?, opened: CalendarStore?
    )

    /// The store's instances from the months it keeps (nil: files given, or the store cannot keep them); when they
    /// are more than --max-total, the calendars are expanded instead, which stops there with its warning.
    func indexedRows(from: Date, to: Date, _ options: ExpansionOptions) throws -> Rows? {
        var query = InstanceQuery(from: from, to: to, options: options)
        (query.calendars, query.handles, query.frames) = (Set(calendar).sorted(), !noIDs && !json, false)
        guard files.isEmpty, let (found, opened) = try CalendarFiles.indexedInstances(store: store, query),
            found.calendars.reduce(0, { $0 + $1.occurrences.count }) <= maxTotal
        else { return nil }
        let segments = found.calendars.map { (name: $0.name, occurrences: $0.occurrences) }
        // Whether the store is empty matters only when there is nothing to show (counting its items costs).
        let isEmpty =
            try segments.allSatisfy { $0.occurrences.isEmpty } && opened.calendars().allSatisfy { $0.itemCount == 0 }
        return (
            segments, found.diagnostics, found.calendars.map(\.name), isEmpty, noIDs || json ? nil : found.handles,
            opened
        )
    }

    /// Every calendar read (files, or the store's items that can reach the window) and expanded.
    func expandedRows(from: Date, to: Date, _ options: ExpansionOptions) throws -> Rows {
        let input = try CalendarFiles.readOrStore(files, store: store, calendars: calendar, window: from..<to)
        var options = options
        options.budget = InstanceBudget(limit: maxTotal)
        var diagnostics = input.diagnostics.filter { $0.severity == .error }
        var segments: [ListedRows.Segment] = []
        for source in input.sources {
            for calendar in source.calendars {
                let expansion = calendar.occurrences(from: from, to: to, options: options, file: source.path)
                diagnostics += expansion.diagnostics
                segments.append((source.name, expansion.occurrences))
            }
        }
        return (segments, diagnostics, input.sources.map(\.name), input.storeIsEmpty, nil, nil)
    }
}

/// How instances are written: ISO 8601 in the viewer's zone, floating times without offset, dates bare.
struct InstanceFormat {
    let zone: ZoneClock

    func time(_ value: CalendarDate, at instant: Date, floating: Bool = false) -> String {
        var bytes: [UInt8] = []
        append(value, at: instant, floating: floating, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `floating`: the value's zone is unknown (a TZID nothing explains), so it is floating like a value without one.
    func append(_ value: CalendarDate, at instant: Date, floating: Bool = false, to bytes: inout [UInt8]) {
        if value.isDate || value.form == .floating || floating {
            LocalDateTime(value).appendISO8601(to: &bytes, withTime: !value.isDate)
        } else {
            zone.appendISO8601(instant, to: &bytes)
        }
    }

    /// One instance as a JSON object, written straight out (agendas can hold hundreds of thousands).
    func write(_ occurrence: Occurrence, calendar: String, to json: inout JSONWriter) {
        json.beginObject()
        json.key("uid"); json.string(occurrence.uid)
        json.key("recurrence_id")
        let floating = occurrence.isFloating
        if let (id, date) = both(occurrence.recurrenceID, occurrence.recurrenceDate) {
            json.string { append(id, at: date, floating: floating && id.form == occurrence.start.form, to: &$0) }
        } else {
            json.null()
        }
        json.key("summary"); json.string(occurrence.summary)
        json.key("start")
        json.string { append(occurrence.start, at: occurrence.startDate, floating: floating, to: &$0) }
        json.key("end")
        json.string { append(occurrence.end, at: occurrence.endDate, floating: floating, to: &$0) }
        json.key("all_day"); json.bool(occurrence.isAllDay)
        json.key("calendar"); json.string(calendar)
        json.key("component"); json.string(occurrence.kind.componentName)
        json.key("location"); json.string(occurrence.location)
        json.key("status"); json.string(occurrence.status?.rawValue)
        json.key("categories")
        json.beginArray()
        for category in occurrence.categories { json.string(category.name) }
        json.endArray()
        json.endObject()
    }

    /// Text: a heading per day, then `09:00–10:00  Summary  (calendar)` or `all day`; a timed event over several
    /// days shows `09:00 →` (until when) on its first day, `↔ all day` on the days between and `→ 17:00` on its last. Each instance is put on the
    /// days it touches in one pass (an agenda over decades holds hundreds of thousands of instances).
    /// Items read from the store end with their handle (`id:1e78a2`), which `done`, `rm` and `log` take.
    func printDays(
        _ rows: ListedRows, from: LocalDateTime, to: LocalDateTime, handles: ListedHandles = .byUID([:]),
        style: AgendaStyle = AgendaStyle()
    ) {
        let firstDay = from.startOfDay
        let dayCount = max(0, to.adding(seconds: -1).dayNumber - firstDay.dayNumber + 1)
        var days = [[Int]](repeating: [], count: dayCount)
        // Each instance's wall-clock start and end, once (read where the instance is: copying one costs more).
        let segments = rows.segments
        let walls = rows.order.map { segment, index in segments[segment].occurrences[index].walls(in: zone) }
        for (index, (start, end)) in walls.enumerated() {
            // A span touches the days from its start's to the one before its end; an instant only its own.
            let last = end > start ? end.adding(seconds: -1).dayNumber : start.dayNumber
            let lower = max(start.dayNumber, firstDay.dayNumber), upper = min(last, firstDay.dayNumber + dayCount - 1)
            guard lower <= upper else { continue }
            for day in lower...upper { days[day - firstDay.dayNumber].append(index) }
        }
        let printed = days.contains { !$0.isEmpty }
        var lines = Output.Lines()
        Self.appendDays(
            days, rows, walls: walls, from: firstDay, handles: handles, style: style, zone: zone, to: &lines)
        lines.flush()
        if !printed { Output.print("nothing between \(from.iso8601) and \(to.iso8601)") }
    }

    /// The days of `days` (positions in `rows.order` per day from `from`), each with its heading, an empty line
    /// between them.
    private static func appendDays(
        _ days: [[Int]], _ rows: ListedRows, walls: [(start: LocalDateTime, end: LocalDateTime)],
        from firstDay: LocalDateTime, handles: ListedHandles, style: AgendaStyle, zone: ZoneClock,
        to lines: inout Output.Lines
    ) {
        var printed = false
        let (segments, order) = (rows.segments, rows.order)
        for offset in days.indices where !days[offset].isEmpty {
            let day = firstDay.adding(days: offset)
            if printed { lines.end() }
            lines.raw(dayNames[day.isoWeekday] + " " + day.isoDate)
            lines.end()
            printed = true
            for position in days[offset] {
                let (segment, index) = order[position]
                segments[segment].occurrences[index].appendAgendaLine(
                    calendar: segments[segment].name, wall: walls[position], on: day,
                    handle: handles.handle(segment, index, of: segments[segment].occurrences[index]), style: style,
                    zone: zone, to: &lines)
            }
        }
    }

    static let dayNames = ["", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// An instance's times on one of its days: `09:00–10:00`, `all day`, `09:00` for a point in time (a todo with
    /// only DUE); a timed span over several days `09:00 →` where it starts (true: its end is said after the title),
    /// `↔ all day` on the days it goes on through, `→ 17:00` where it ends.
    fileprivate static func appendSpan(
        start: LocalDateTime, end: LocalDateTime, allDay: Bool, on day: LocalDateTime, to lines: inout Output.Lines
    ) -> Bool {
        let next = day.adding(days: 1)
        if allDay {
            lines.raw("all day    ")
        } else if end == start {
            lines.clock(start)
            lines.raw("      ")
        } else if start >= day, end <= next {
            lines.clock(start)
            lines.raw("–")
            lines.clock(end)
        } else if start >= day {
            lines.clock(start)
            lines.raw(" →    ")
            return true
        } else if end <= next {
            lines.raw("    → ")
            lines.clock(end)
        } else {
            lines.raw("↔ all day  ")
        }
        return false
    }

    /// What khal shows beside a title: ⟳ an instance of a recurring series (⟳ changed: one whose instance was
    /// edited, an override), ⏰ an item with an alarm.
    static func symbols(_ occurrence: Occurrence) -> String {
        var text = ""
        if occurrence.isOverride {
            text += " ⟳ changed"
        } else if occurrence.recurrenceID != nil {
            text += " ⟳"
        }
        return occurrence.hasAlarms ? text + " ⏰" : text
    }

    /// Todos get a check box, journals a label; events nothing.
    fileprivate static func mark(_ occurrence: Occurrence) -> String {
        switch occurrence.kind {
        case .todo: return occurrence.isCompletedTodo ? "[x] " : "[ ] "
        case .journal: return "journal: "
        case .event: return ""
        }
    }
}

extension Occurrence {
    /// The wall-clock start and end in `zone` (dates, floating times and times of an unknown zone as written).
    fileprivate func walls(in zone: ZoneClock) -> (start: LocalDateTime, end: LocalDateTime) {
        func wall(_ value: CalendarDate, _ instant: Date) -> LocalDateTime {
            value.isDate || value.form == .floating || isFloating ? LocalDateTime(value) : zone.wallClock(at: instant)
        }
        return (wall(start, startDate), wall(end, endDate))
    }

    /// This instance's agenda line on one of its days (and its details under it).
    fileprivate func appendAgendaLine(
        calendar: String, wall: (start: LocalDateTime, end: LocalDateTime), on day: LocalDateTime, handle: String?,
        style: AgendaStyle, zone: ZoneClock?, to lines: inout Output.Lines
    ) {
        let (start, end) = wall
        lines.raw("  ")
        let until = InstanceFormat.appendSpan(start: start, end: end, allDay: isAllDay, on: day, to: &lines)
        lines.raw("  ")
        if style.colors != nil {
            for piece in style.swatch(self, calendar: calendar) {
                switch piece {
                case .text(let text): lines.text(text)
                case .code(let code): lines.raw(code)
                }
            }
        }
        lines.raw(InstanceFormat.mark(self))
        lines.text(summary ?? "(no summary)")
        lines.raw(AgendaStyle.marks(self, me: style.me))
        if until {
            lines.raw(" (until " + InstanceFormat.dayNames[end.isoWeekday] + " " + end.isoDate + " ")
            lines.clock(end)
            lines.raw(")")
        }
        lines.raw(InstanceFormat.symbols(self))
        lines.raw("  (")
        lines.text(calendar)
        lines.raw(")")
        if let handle {
            lines.raw("  id:")
            lines.text(handle)
        }
        lines.end()
        guard style.details, let zone else { return }
        for line in AgendaStyle.details(self, zone: zone) {
            lines.raw("               ")
            lines.text(line)
            lines.end()
        }
    }
}

/// `--component event,todo,journal`: the kinds of item to expand.
struct ComponentKinds: ExpressibleByArgument {
    var kinds: Set<ItemKind>

    init(kinds: Set<ItemKind>) { self.kinds = kinds }

    init?(argument: String) {
        var kinds: Set<ItemKind> = []
        for word in argument.split(separator: ",") {
            guard let kind = ItemKind(word: word.trimmingCharacters(in: .whitespaces)) else { return nil }
            kinds.insert(kind)
        }
        guard !kinds.isEmpty else { return nil }
        self.kinds = kinds
    }

    static var allValueStrings: [String] { ItemKind.allCases.map(\.word) }

    /// `event`, `event,todo`: what `--help` shows as the default.
    var defaultValueDescription: String { kinds.sorted().map(\.word).joined(separator: ",") }
}

/// Both values, when both are there.
func both<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
