import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `icskit week`: a week as a time grid on the terminal (`TerminalWeek`).
struct WeekCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "week", abstract: "Show a week as a time grid: days as columns, hours as rows, todos below.",
        discussion: """
            All-day items are in a band above the hours, overlapping events side by side, and the todos due each \
            day below the grid in the part of the day they are due in (morning 06–12, afternoon 12–18, evening \
            18–24, and any time of the day), [x] when done: each occurrence of a repeating todo in its own place. \
            Times are in --tz. The grid is as wide as the terminal (--width, 60 at least); titles are cut to fit, \
            wide characters counting as two columns. Colours (calendar, category, an item's own) on a terminal \
            unless NO_COLOR is set; --json prints the week's days, events and todos instead.

            Examples:
              icskit week
              icskit week --week next --hours 7-20
              icskit week work.ics --from 2026-12-07 --width 100 --tz Europe/Berlin
            """)

    @Argument(help: "Calendar files (.ics, jCal, xCal or CSV); - reads standard input. None: the store.")
    var files: [String] = []

    @Option(
        name: .customLong("calendar"), help: "With the store: only this calendar (repeat for several).",
        completion: CalendarCompletion.kind)
    var calendarNames: [String] = []

    @Option(help: "An ISO week: this, next, last, or YYYY-Www (2026-W48). Default: this week.")
    var week: String?

    @Option(help: "The week's first day instead (the seven days from it), as agenda reads days.")
    var from: String?

    @Option(help: "The hours shown, as FIRST-LAST (7-20). Default: the span the week's events take.")
    var hours: String?

    @Option(help: "The width in columns (at least 60). Default: the terminal's.")
    var width: Int?

    @Option(help: "Colour items: auto (on a terminal, unless NO_COLOR is set), always or never.")
    var color: ColorChoice?

    @Option(
        name: .customLong("first-weekday"),
        help: "The day a week starts on (default: config first-weekday, else monday).")
    var firstWeekday: String?

    @Flag(help: "Print the week as JSON.")
    var json = false

    @OptionGroup var zoneOption: ZoneOption
    @OptionGroup var store: StoreOption

    func validate() throws {
        if week != nil, from != nil { throw ValidationError("--week and --from contradict: choose one") }
        if let width, width < 60 { throw ValidationError("--width takes 60 or more") }
        if let hours, Self.hourRange(hours) == nil {
            throw ValidationError("--hours takes FIRST-LAST between 0 and 24 (7-20), not \(hours)")
        }
    }

    /// `7-20` as 7..<20.
    static func hourRange(_ text: String) -> Range<Int>? {
        let parts = text.split(separator: "-").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let first = parts[0], let last = parts[1], 0 <= first, first < last, last <= 24 else {
            return nil
        }
        return first..<last
    }

    func run() throws {
        let zone = try zoneOption.zone()
        let window = try WindowOptions.parse(
            (from.map { ["--from", $0] } ?? ["--week", week ?? "this"])
                + (firstWeekday.map { ["--first-weekday", $0] } ?? []))
        let monday = try window.window(in: zone).start.startOfDay
        let week = try WeekContent(
            files: files, store: store, calendars: calendarNames, from: monday, days: 7, zone: zone)
        if json { return Output.print(week.json(zone: zone).serialized(pretty: true)) }
        let iso = monday.isoWeek
        let grid = TerminalWeek(
            title: "\(iso.year)-W\(String(format: "%02d", iso.week))  \(monday.isoDate) – "
                + "\(monday.adding(days: 6).isoDate)  (\(zone.identifier))",
            layout: week.layout, calendars: week.occurrences.map(\.calendar), todos: week.todos,
            width: width ?? max(TerminalWidth.terminalColumns() ?? 100, 60),
            hours: hours.flatMap(Self.hourRange) ?? TerminalWeek.hours(of: week.layout),
            colors: try ColorChoice.resolved(color).isOn(isTerminal: isatty(STDOUT_FILENO) == 1) ? week.colors : nil)
        for line in grid.lines() { Output.line([.code(line)]) }
        CalendarFiles.report(week.diagnostics, quiet: false, fromStore: files.isEmpty)
    }
}

/// What `week` and `today` show of some days: the instances with their calendars, the todos due, the colours.
struct WeekContent {
    var occurrences: [(occurrence: Occurrence, calendar: String)] = []
    var todos: [HTMLWeekPage.TodoRow] = []
    var layout: WeekLayout
    var colors: PageColors
    var diagnostics: [Diagnostic] = []
    /// The calendars read, for todo lists.
    var calendars: [(calendar: ICalendar, name: String)] = []

    init(
        files: [String], store: StoreOption, calendars names: [String], from first: LocalDateTime, days: Int,
        zone: ZoneClock
    )
        throws
    {
        let end = first.adding(days: days)
        let range = zone.date(of: first)..<zone.date(of: end)
        let input = try CalendarFiles.readOrStore(files, store: store, calendars: names, window: nil)
        diagnostics = input.diagnostics.filter { $0.severity == .error }
        var options = ExpansionOptions()
        options.components = [.event]
        options.viewerZoneName = zone.identifier
        options.budget = InstanceBudget(limit: 50_000)
        for source in input.sources {
            for calendar in source.calendars {
                let expansion = calendar.occurrences(
                    from: range.lowerBound, to: range.upperBound, options: options, file: source.path)
                diagnostics += expansion.diagnostics
                occurrences += expansion.occurrences.map { ($0, source.name) }
                todos += HTMLWeekPage.TodoRow.rows(of: calendar, name: source.name, from: first, to: end, zone: zone)
                self.calendars.append((calendar, source.name))
            }
        }
        occurrences.sort {
            ($0.occurrence.startDate, $0.occurrence.endDate) < ($1.occurrence.startDate, $1.occurrence.endDate)
        }
        todos.sort {
            ($0.due?.wallSeconds ?? .max, $0.todo.summary ?? "") < ($1.due?.wallSeconds ?? .max, $1.todo.summary ?? "")
        }
        layout = WeekLayout(occurrences: occurrences.map(\.occurrence), weekStart: first, zone: zone)
        colors = try PageColors.ofStore(
            files.isEmpty ? store.open(.readOnly) : nil, shown: input.sources.map(\.name))
    }

    /// `{"week": "2026-W48", "days": [{"date", "events": [...], "todos": [...]}]}`: times in the zone.
    func json(zone: ZoneClock) -> JSONValue {
        let format = InstanceFormat(zone: zone)
        let iso = layout.weekStart.isoWeek
        let days = (0..<7).map { day -> JSONValue in
            let date = layout.weekStart.adding(days: day)
            let events = layout.entries.filter { $0.firstDay <= day && $0.lastDay >= day }.map { entry -> JSONValue in
                let occurrence = entry.occurrence
                return .object([
                    ("uid", occurrence.uid.map(JSONValue.string) ?? .null),
                    ("summary", occurrence.summary.map(JSONValue.string) ?? .null),
                    (
                        "start",
                        .string(
                            format.time(occurrence.start, at: occurrence.startDate, floating: occurrence.isFloating))
                    ),
                    (
                        "end",
                        .string(format.time(occurrence.end, at: occurrence.endDate, floating: occurrence.isFloating))
                    ),
                    ("all_day", .bool(occurrence.isAllDay)),
                    ("calendar", .string(occurrences[entry.index].calendar)),
                    (
                        "lane",
                        layout.blocks.first {
                            $0.entry == layout.entries.firstIndex { $0.index == entry.index } && $0.day == day
                        }
                        .map { .object([("lane", .int($0.lane)), ("lanes", .int($0.lanes))]) } ?? .null
                    ),
                ])
            }
            let todos = self.todos.filter { $0.due?.dayNumber == date.dayNumber }.map { row -> JSONValue in
                .object([
                    ("uid", row.todo.uid.map(JSONValue.string) ?? .null),
                    ("summary", row.todo.summary.map(JSONValue.string) ?? .null),
                    ("due", row.due.map { .string($0.iso8601) } ?? .null), ("done", .bool(row.todo.isCompleted)),
                    ("calendar", .string(row.calendar)),
                ])
            }
            return .object([("date", .string(date.isoDate)), ("events", .array(events)), ("todos", .array(todos))])
        }
        return .object([("week", .string("\(iso.year)-W\(String(format: "%02d", iso.week))")), ("days", .array(days))])
    }
}
