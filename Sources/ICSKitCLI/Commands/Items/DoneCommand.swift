import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `icskit done HANDLE`: tick a todo off — of a repeating one, the occurrence `todo` shows (`TodoSeries`).
struct DoneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done", abstract: "Mark a todo in the store completed (of a repeating one, one occurrence).",
        discussion: """
            The todo is named by its UID, a unique UID prefix (the handle `todo` shows), or words of its summary.

            Of a repeating todo, `done` completes the occurrence `icskit todo` shows (its earliest open one), as \
            Thunderbird, Evolution and Nextcloud Tasks write it: an override of that occurrence with \
            STATUS:COMPLETED; the series stays open and its next occurrence is due. --instance DATE completes \
            another occurrence, --series the whole series. A todo made with --repeat-after-done moves instead: \
            its next start and due are that far past today, and a completed copy of this one is kept.

            A todo whose subtasks are still open is not completed (exit 1, naming them) unless --with-subtasks \
            completes them too. `icskit undone` takes a completion back; `icskit undo` the whole command.

            Examples:
              icskit done 1e78a2
              icskit done "Water plants"
              icskit done "Water plants" --instance 2026-12-09
              icskit done "Math homework" --calendar School --with-subtasks
            """)

    @Argument(help: "The todo: its UID, a unique UID prefix, or words of its summary.")
    var handle: String

    @Option(help: "Of a repeating todo: the occurrence due (or starting) on this day, or at this time, in --tz.")
    var instance: String?

    @Flag(help: "Of a repeating todo: complete the whole series, every occurrence.")
    var series = false

    @Flag(help: "Complete its open subtasks too (RELATED-TO), in the same change.")
    var withSubtasks = false

    @Option(help: "Only in this store calendar.", completion: CalendarCompletion.kind)
    var calendar: String?

    @OptionGroup var zoneOption: InputZoneOption
    @OptionGroup var store: StoreOption

    func validate() throws {
        if instance != nil, series { throw ValidationError("use --instance or --series, not both") }
    }

    func run() throws {
        let zone = try zoneOption.zone()
        let store = try store.open()
        try CalendarFiles.requireCalendar(calendar, in: store)
        let todo = try Handles.resolve(
            handle, in: store, calendar: calendar, kind: .todo, what: "todo",
            preferring: [{ try TodoChange.state(of: $0, in: store).open }])
        var change = try TodoChange(todo, store: store, zone: zone)
        let chosen = try change.occurrence(instance: instance, series: series, verb: "done")
        let whole = chosen == nil
        var subtasks: [Subtask] = []
        if whole {
            subtasks = try store.subtasks(of: todo.uid).filter { !$0.isDone }
            if !subtasks.isEmpty, !withSubtasks {
                let handles = try store.shortHandles(for: Set(subtasks.map(\.uid)))
                let names = subtasks.map { "\"\($0.summary ?? "(no summary)")\" (id:\(handles[$0.uid] ?? $0.uid))" }
                throw CommandFailure(
                    "\"\(todo.summary ?? todo.uid)\" has \(subtasks.count.counted("open subtask")): "
                        + names.joined(separator: ", ") + "; complete them first, or give --with-subtasks")
            }
        }
        let said: String
        if let chosen {
            if chosen.isDone {
                throw CommandFailure("that occurrence of \"\(todo.summary ?? todo.uid)\" is done already")
            }
            let copy = change.series.complete(chosen, zone: change.viewer)
            said = change.describe(chosen, moved: copy != nil)
        } else {
            change.series.completeSeries()
            said = change.series.isRecurring ? " (the whole series)" : ""
        }
        var changes = [change.stored]
        for subtask in subtasks {
            var child = try TodoChange(
                HandleMatch(uid: subtask.uid, calendar: subtask.calendar, kind: .todo), store: store, zone: zone)
            child.series.completeSeries()
            changes.append(child.stored)
        }
        try store.replaceSeries(inCalendars: changes)
        Output.line("done: \(todo.summary ?? "(no summary)")\(said)  (\(todo.uid))")
        for subtask in subtasks {
            Output.line("done: \(subtask.summary ?? "(no summary)") (a subtask)  (\(subtask.uid))")
        }
    }
}

/// `icskit undone HANDLE`: take a completion back.
struct UndoneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undone", abstract: "Mark a completed todo open again (of a repeating one, one occurrence).",
        discussion: """
            Of a repeating todo, the occurrence completed last is open again (its override says NEEDS-ACTION); \
            --instance DATE names another, --series opens the whole series and every occurrence. A todo made \
            with --repeat-after-done moves back to where it was before its last `done`.

            Examples:
              icskit undone "Water plants"
              icskit undone "Water plants" --instance 2026-12-09
            """)

    @Argument(help: "The todo: its UID, a unique UID prefix, or words of its summary.")
    var handle: String

    @Option(help: "Of a repeating todo: the occurrence due (or starting) on this day, or at this time, in --tz.")
    var instance: String?

    @Flag(help: "Of a repeating todo: open the whole series and every occurrence again.")
    var series = false

    @Option(help: "Only in this store calendar.", completion: CalendarCompletion.kind)
    var calendar: String?

    @OptionGroup var zoneOption: InputZoneOption
    @OptionGroup var store: StoreOption

    func validate() throws {
        if instance != nil, series { throw ValidationError("use --instance or --series, not both") }
    }

    func run() throws {
        let zone = try zoneOption.zone()
        let store = try store.open()
        try CalendarFiles.requireCalendar(calendar, in: store)
        // A series before its completed copies; else a todo that is done.
        let todo = try Handles.resolve(
            handle, in: store, calendar: calendar, kind: .todo, what: "todo",
            preferring: [
                { try TodoChange.state(of: $0, in: store).repeats }, { try !TodoChange.state(of: $0, in: store).open },
            ])
        var change = try TodoChange(todo, store: store, zone: zone)
        var said = ""
        if series || !change.series.isRecurring {
            change.series.reopenSeries()
            if change.series.isRecurring { said = " (the whole series)" }
        } else if change.series.repeatsFromCompletion, instance == nil {
            guard let current = change.series.current(zone: change.viewer) else {
                throw CommandFailure("\"\(todo.summary ?? todo.uid)\" has nothing to take back")
            }
            change.series.reopen(current)
            said = " (moved back to before its last done)"
        } else {
            let chosen =
                try instance == nil
                ? change.series.lastCompleted(zone: change.viewer)
                : change.occurrence(instance: instance, series: false, verb: "undone")
            guard let chosen, chosen.isDone else {
                throw CommandFailure(
                    "no occurrence of \"\(todo.summary ?? todo.uid)\" is done\(instance.map { " on \($0)" } ?? "")")
            }
            change.series.reopen(chosen)
            said = change.describe(chosen, moved: false)
        }
        try store.replaceSeries(inCalendars: [change.stored])
        Output.line("open again: \(todo.summary ?? "(no summary)")\(said)  (\(todo.uid))")
    }
}

/// A todo of the store loaded as a `TodoSeries`, changed, and put back (with any copy it made under a UID of its own).
struct TodoChange {
    let match: HandleMatch
    let loaded: ICalendar
    var series: TodoSeries
    let zone: ZoneClock
    var viewer: CalendarZone { CalendarZone(known: zone.identifier) }

    /// Whether a matched todo repeats, and whether it (as a whole) is still open.
    static func state(of match: HandleMatch, in store: CalendarStore) throws -> (repeats: Bool, open: Bool) {
        guard case .todo(let todo)? = try store.item(uid: match.uid)?.component else { return (false, false) }
        return (todo.core.isRecurring, !todo.isCompleted && todo.core.status != .cancelled)
    }

    init(_ match: HandleMatch, store: CalendarStore, zone: ZoneClock) throws {
        self.match = match
        self.zone = zone
        // The completed copies a series that repeats from completion left name it their sibling.
        let copies = try store.related(to: match.uid, type: "SIBLING")
        loaded = try store.loadItems(calendar: match.calendar, uids: Set([match.uid] + copies))
        guard let series = TodoSeries(loaded, uid: match.uid) else {
            throw CommandFailure("no todo with UID \(match.uid) in the store")
        }
        self.series = series
    }

    /// The occurrence a command acts on: the one `--instance` names, else (of a repeating todo) the one `todo`
    /// shows; nil for the whole todo (`--series`, or a todo that does not repeat).
    func occurrence(instance: String?, series whole: Bool, verb: String) throws -> TodoOccurrence? {
        guard series.isRecurring, !whole else {
            if instance != nil {
                throw CommandFailure("\(match.uid) does not repeat: --instance is for a repeating todo")
            }
            return nil
        }
        guard let instance else {
            guard let current = series.current(zone: viewer) else {
                throw CommandFailure(
                    "every occurrence of \"\(match.summary ?? match.uid)\" is done (icskit undone takes one back)")
            }
            return current
        }
        let today = zone.wallClock(at: Date()).startOfDay
        let wall = try WindowOptions.parse(instance, option: "--instance", today: today)
        let value =
            instance.contains(":") ? CalendarDate(zone.date(of: wall), in: viewer) : wall.startOfDay.calendarDate(.date)
        guard let found = series.occurrence(at: value, zone: viewer) else {
            throw CommandFailure(
                "\"\(match.summary ?? match.uid)\" has no occurrence on \(instance) (in \(zone.identifier))")
        }
        return found
    }

    /// ` (occurrence due 2026-12-02)`, or for a series that moves, where it moved to.
    func describe(_ occurrence: TodoOccurrence, moved: Bool) -> String {
        func day(_ value: CalendarDate?, _ date: Date?) -> String? {
            guard let value, let date else { return nil }
            return value.isDate ? LocalDateTime(value).isoDate : zone.wallClock(at: date).minuteText
        }
        if moved, let next = series.current(zone: viewer),
            let when = day(next.due ?? next.start, next.dueDate ?? next.startDate)
        {
            return " (it repeats from today: next due \(when))"
        }
        let when = day(occurrence.due, occurrence.dueDate) ?? day(occurrence.start, occurrence.startDate) ?? "?"
        return " (the occurrence due \(when))"
    }

    /// What to put back: the series, and a completed copy under its own UID when one was made.
    var stored: (calendar: String, zones: ICalendar, series: [(uid: String, components: [CalendarComponent])]) {
        var byUID: [(uid: String, components: [CalendarComponent])] = []
        for component in series.components {
            let uid = component.core?.uid ?? match.uid
            if let index = byUID.firstIndex(where: { $0.uid == uid }) {
                byUID[index].components.append(component)
            } else {
                byUID.append((uid, [component]))
            }
        }
        for gone in series.removedUIDs where !byUID.contains(where: { $0.uid == gone }) { byUID.append((gone, [])) }
        return (match.calendar, loaded, byUID)
    }
}
