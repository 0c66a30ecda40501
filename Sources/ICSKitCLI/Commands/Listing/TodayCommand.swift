import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `icskit today`: one screen of the day — now and next, today's events, the todos due today and those overdue.
struct TodayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today", abstract: "Show today on one screen: now and next, events, todos due and overdue.",
        discussion: """
            What is on now and what comes next, today's events in order, the todos due today and the ones \
            overdue (of a repeating todo, its open occurrence); times in --tz. --json prints the same as JSON.

            Examples:
              icskit today
              icskit today --tz Europe/Berlin --json
            """)

    @Argument(help: "Calendar files (.ics, jCal, xCal or CSV); - reads standard input. None: the store.")
    var files: [String] = []

    @Option(
        name: .customLong("calendar"), help: "With the store: only this calendar (repeat for several).",
        completion: CalendarCompletion.kind)
    var calendarNames: [String] = []

    @Flag(help: "Print JSON.")
    var json = false

    @OptionGroup var now: NowOption
    @OptionGroup var zoneOption: ZoneOption
    @OptionGroup var store: StoreOption

    func run() throws {
        let zone = try zoneOption.zone()
        let now = self.now.date
        let today = zone.wallClock(at: now).startOfDay
        // A week is read: what comes next may be on a later day.
        let content = try WeekContent(
            files: files, store: store, calendars: calendarNames, from: today, days: 8, zone: zone)
        let (dayStart, dayEnd) = (zone.date(of: today), zone.date(of: today.adding(days: 1)))
        let events = content.occurrences.filter { item in
            item.occurrence.isAllDay
                ? LocalDateTime(item.occurrence.start) <= today && LocalDateTime(item.occurrence.end) > today
                : item.occurrence.endDate > dayStart && item.occurrence.startDate < dayEnd
        }
        let current = events.filter {
            !$0.occurrence.isAllDay && $0.occurrence.startDate <= now && $0.occurrence.endDate > now
        }
        let later = content.occurrences.first { !$0.occurrence.isAllDay && $0.occurrence.startDate > now }
        let list = TodoList(calendars: content.calendars, zone: zone, now: now)
        let due = list.tree(filter: .today).flatMap(Self.flattened)
        let overdue = list.tree(filter: .overdue).flatMap(Self.flattened).filter { entry in
            !due.contains { $0.uid == entry.uid }
        }
        CalendarFiles.report(content.diagnostics, quiet: false, fromStore: files.isEmpty)
        let day = Day(date: today, events: events, current: current, next: later, due: due, overdue: overdue)
        if json { return Output.print(Self.json(day, zone: zone).serialized(pretty: true)) }
        Self.printText(day, zone: zone)
    }

    typealias Listed = (occurrence: Occurrence, calendar: String)

    /// What `today` shows: the day, its events, those on now and the next, the todos due today and overdue.
    struct Day {
        var date: LocalDateTime
        var events: [Listed]
        var current: [Listed]
        var next: Listed?
        var due: [TodoEntry]
        var overdue: [TodoEntry]
    }

    /// `--json`.
    static func json(_ day: Day, zone: ZoneClock) -> JSONValue {
        let format = InstanceFormat(zone: zone)
        func event(_ item: Listed) -> JSONValue {
            .object([
                ("uid", item.occurrence.uid.map(JSONValue.string) ?? .null),
                ("summary", item.occurrence.summary.map(JSONValue.string) ?? .null),
                ("start", .string(format.time(item.occurrence.start, at: item.occurrence.startDate))),
                ("end", .string(format.time(item.occurrence.end, at: item.occurrence.endDate))),
                ("calendar", .string(item.calendar)),
            ])
        }
        func todo(_ entry: TodoEntry) -> JSONValue {
            .object([
                ("uid", entry.uid.map(JSONValue.string) ?? .null),
                ("summary", entry.todo.summary.map(JSONValue.string) ?? .null),
                ("due", both(entry.dueValue, entry.due).map { .string(format.time($0, at: $1)) } ?? .null),
                ("calendar", .string(entry.calendar)),
            ])
        }
        return .object([
            ("date", .string(day.date.isoDate)), ("now", .array(day.current.map(event))),
            ("next", day.next.map(event) ?? .null), ("events", .array(day.events.map(event))),
            ("due", .array(day.due.map(todo))), ("overdue", .array(day.overdue.map(todo))),
        ])
    }

    /// The day as text: now, next, the events, the todos due and overdue.
    static func printText(_ day: Day, zone: ZoneClock) {
        let today = day.date
        // An event that began on an earlier day, or ends on a later one, says so (`…–12:00`, `13:00–…`).
        func when(_ occurrence: Occurrence) -> String {
            if occurrence.isAllDay { return "all day" }
            let (start, end) = (zone.wallClock(at: occurrence.startDate), zone.wallClock(at: occurrence.endDate))
            let from = start.startOfDay == today ? PageColors.clock(start) : "…"
            let until = end > today.adding(days: 1) ? "…" : PageColors.clock(end)
            return from + "–" + until
        }
        func line(_ item: Listed) -> String {
            TerminalText.safe(
                "\(when(item.occurrence))  \(item.occurrence.summary ?? "(no summary)")  (\(item.calendar))",
                keepingLineBreaks: false)
        }
        Output.print("\(PageColors.weekdays[today.isoWeekday - 1]) \(today.isoDate)  (\(zone.identifier))")
        Output.print("now:  " + (day.current.isEmpty ? "nothing" : day.current.map(line).joined(separator: "; ")))
        Output.print(
            "next: "
                + (day.next.map { item in
                    let start = zone.wallClock(at: item.occurrence.startDate).startOfDay
                    return (start == today ? "" : "\(PageColors.weekdays[start.isoWeekday - 1]) ") + line(item)
                } ?? "nothing"))
        Output.print("")
        Output.print("events today:" + (day.events.isEmpty ? " none" : ""))
        for item in day.events { Output.print("  " + line(item)) }
        Output.print("todos due today:" + (day.due.isEmpty ? " none" : ""))
        for entry in day.due { Output.print("  " + todoLine(entry, zone: zone)) }
        Output.print("overdue:" + (day.overdue.isEmpty ? " none" : ""))
        for entry in day.overdue { Output.print("  " + todoLine(entry, zone: zone)) }
    }

    static func flattened(_ entry: TodoEntry) -> [TodoEntry] { [entry] + entry.children.flatMap(flattened) }

    static func todoLine(_ entry: TodoEntry, zone: ZoneClock) -> String {
        var text = (entry.isDone ? "[x] " : "[ ] ") + (entry.todo.summary ?? "(no summary)")
        if let value = entry.dueValue, let due = entry.due {
            text += "  due " + (value.isDate ? LocalDateTime(value).isoDate : zone.wallClock(at: due).minuteText)
        }
        return TerminalText.safe(text + "  (\(entry.calendar))", keepingLineBreaks: false)
    }
}
