import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `icskit todo`: todos by due date, subtasks under their parents, overdue ones flagged.
struct TodoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todo",
        abstract: "List todos by due date, with subtasks nested under their parent (RELATED-TO).",
        discussion: """
            Filters: open (default: not completed, and not waiting for a later start), scheduled (a start later \
            than now), today, upcoming, overdue (these three by due date, whatever the start), completed, all. A \
            repeating todo is one line: its earliest open occurrence (after the latest one done), marked OVERDUE \
            when late; the occurrences ticked off are listed with --filter completed. A parent shows how many of \
            its subtasks are done (2/5). Time slots: morning 06–12, afternoon 12–18, evening 18–24 in --tz. \
            --stats prints completion rates per day and per week.

            Examples:
              icskit todo tasks.ics
              icskit todo tasks.ics --filter overdue --category Home
              icskit todo tasks.ics --slot morning --json
              icskit todo tasks.ics --stats
            """
    )

    @Argument(help: "Calendar files (.ics, jCal, xCal or CSV); - reads standard input. None: the store.")
    var files: [String] = []

    @Option(
        name: .customLong("calendar"), help: "With the store: only this calendar (repeat for several).",
        completion: CalendarCompletion.kind)
    var calendarNames: [String] = []

    @OptionGroup var store: StoreOption

    @Option(help: "open, scheduled, today, upcoming, completed, overdue or all.")
    var filter: TodoFilter = .open

    @Option(help: "Only todos with this category.")
    var category: String?

    @Option(help: "Only todos due in this part of the day: morning, afternoon or evening.")
    var slot: DaySlot?

    @Flag(help: "Completion rates per day and per ISO week instead of the list.")
    var stats = false

    @OptionGroup var zoneOption: ZoneOption
    @OptionGroup var now: NowOption

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(name: .customLong("no-ids"), help: "Text from the store: leave out each line's handle (id:…).")
    var noIDs = false

    @Flag(name: .shortAndLong, help: "No warnings on standard error.")
    var quiet = false

    @OptionGroup var zoneRules: ZonesOption

    func run() throws {
        let zone = try zoneOption.zone()
        let input = try CalendarFiles.readOrStore(files, store: store, calendars: calendarNames, window: nil)
        CalendarFiles.report(input.diagnostics.filter { $0.severity == .error }, quiet: quiet)
        let list = TodoList(
            calendars: input.sources.flatMap { source in source.calendars.map { ($0, source.name) } },
            zone: zone, now: now.date)
        if !quiet {
            for cycle in list.relationCycles {
                Output.standardError(
                    "icskit: RELATED-TO goes round in a circle (" + (cycle + [cycle[0]]).joined(separator: " → ")
                        + "); these todos are listed at the top, not under each other")
            }
        }
        if stats {
            let logged = TimeLog.secondsPerDay(input.sources.flatMap(\.calendars), zone: zone)
            printStats(list.completion(category: category), logged: logged)
        } else if json {
            Output.print(
                JSONValue.array(list.tree(filter: filter, category: category, slot: slot).map { entryJSON($0, zone) })
                    .serialized(pretty: true))
        } else {
            let tree = list.tree(filter: filter, category: category, slot: slot)
            if tree.isEmpty { Output.print("no \(filter == .all ? "" : filter.rawValue + " ")todos") }
            if tree.isEmpty, input.storeIsEmpty {
                Output.print(CalendarFiles.emptyStoreHint(try store.resolvedPath()))
            }
            func uids(_ entries: [TodoEntry]) -> [String] {
                entries.flatMap { [$0.uid].compactMap { $0 } + uids($0.children) }
            }
            let handles = try store.handles(files: files, hidden: noIDs, for: Set(uids(tree)))
            for entry in tree { printEntry(entry, depth: 0, zone: zone, handles: handles) }
        }
    }

    private func dueText(_ entry: TodoEntry, _ zone: ZoneClock) -> String? {
        guard let value = entry.dueValue, let due = entry.due else { return nil }
        if value.isDate { return LocalDateTime(value).isoDate }
        if value.form == .floating || entry.dueIsFloating {
            return LocalDateTime(value).minuteText
        }
        return zone.wallClock(at: due).minuteText
    }

    /// Todos read from the store end with their handle (`id:1e78a2`), which `done` and `log` take.
    private func printEntry(_ entry: TodoEntry, depth: Int, zone: ZoneClock, handles: [String: String]) {
        let todo = entry.todo
        var line = String(repeating: "    ", count: depth) + (entry.isDone ? "[x] " : "[ ] ")
        if let priority = todo.priority, priority > 0 { line += "P\(priority) " }
        line += todo.summary ?? "(no summary)"
        if let progress = entry.progress { line += "  \(progress.done)/\(progress.total)" }
        if entry.isScheduled, let value = entry.startValue, let start = entry.start {
            line += "  starts " + (value.isDate ? LocalDateTime(value).isoDate : zone.wallClock(at: start).minuteText)
        }
        if let due = dueText(entry, zone) { line += "  due \(due)" }
        if entry.isOverdue { line += "  OVERDUE" }
        if entry.isRecurring { line += entry.isPastOccurrence ? "  (an occurrence)" : "  repeats" }
        if let percent = todo.percentComplete, !entry.isDone, percent > 0 { line += "  \(percent)%" }
        if !todo.categories.isEmpty { line += "  [" + todo.categories.map(\.name).joined(separator: ", ") + "]" }
        line += "  (\(entry.calendar))"
        if let handle = entry.uid.flatMap({ handles[$0] }) { line += "  id:" + handle }
        Output.line(line)
        for child in entry.children { printEntry(child, depth: depth + 1, zone: zone, handles: handles) }
    }

    private func entryJSON(_ entry: TodoEntry, _ zone: ZoneClock) -> JSONValue {
        let todo = entry.todo
        let format = InstanceFormat(zone: zone)
        return .object([
            ("uid", entry.uid.map(JSONValue.string) ?? .null),
            ("summary", todo.summary.map(JSONValue.string) ?? .null),
            ("recurrence_id", entry.recurrenceID.map { .string($0.icsValue) } ?? .null),
            ("start", both(entry.startValue, entry.start).map { .string(format.time($0, at: $1)) } ?? .null),
            ("scheduled", .bool(entry.isScheduled)),
            (
                "due",
                both(entry.dueValue, entry.due).map {
                    .string(format.time($0, at: $1, floating: entry.dueIsFloating))
                } ?? .null
            ),
            ("status", todo.status.map { .string($0.rawValue) } ?? .null),
            ("completed", .bool(entry.isDone)),
            ("overdue", .bool(entry.isOverdue)),
            ("repeats", .bool(entry.isRecurring)),
            (
                "subtasks",
                entry.progress.map { .object([("done", .int($0.done)), ("total", .int($0.total))]) } ?? .null
            ),
            ("priority", todo.priority.map { .int($0) } ?? .null),
            ("percent_complete", todo.percentComplete.map { .int($0) } ?? .null),
            ("categories", .array(todo.categories.map { .string($0.name) })),
            ("calendar", .string(entry.calendar)),
            ("children", .array(entry.children.map { entryJSON($0, zone) })),
        ])
    }

    private func printStats(_ stats: (days: [CompletionStats], weeks: [CompletionStats]), logged: [String: Int]) {
        func row(_ item: CompletionStats) -> JSONValue {
            .object([
                ("period", .string(item.period)), ("due", .int(item.due)), ("completed", .int(item.completed)),
                ("rate", .number(String(format: "%.2f", item.rate))),
            ])
        }
        let loggedRows = logged.sorted { $0.key < $1.key }
        if json {
            Output.print(
                JSONValue.object([
                    ("days", .array(stats.days.map(row))), ("weeks", .array(stats.weeks.map(row))),
                    ("logged_minutes", .object(loggedRows.map { ($0.key, .int($0.value / 60)) })),
                ])
                .serialized(pretty: true))
            return
        }
        if !loggedRows.isEmpty {
            Output.print("time logged per day:")
            for (day, seconds) in loggedRows { Output.print("  \(day)  \(seconds / 3600)h \(seconds / 60 % 60)m") }
        }
        for (title, items) in [("per day", stats.days), ("per week", stats.weeks)] {
            Output.print("completion \(title):")
            if items.isEmpty { Output.print("  (no todos with a due date)") }
            for item in items {
                Output.print(
                    "  \(item.period)  \(item.completed)/\(item.due) done  \(Int((item.rate * 100).rounded()))%")
            }
        }
    }
}

extension TodoFilter: ExpressibleByArgument {}
extension DaySlot: ExpressibleByArgument {}
