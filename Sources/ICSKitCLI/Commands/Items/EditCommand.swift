import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `icskit edit HANDLE …`: change an item in the store, or (`--instance DATE`) one instance of a series.
struct EditCommand: ParsableCommand, ChecksWhatIsGiven {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change an event or todo in the store, or one instance of a series.",
        discussion: """
            The item is named by its UID, a unique UID prefix (the id: that agenda and todo show) or words of its \
            summary. Times read as in `add` (YYYY-MM-DD, "YYYY-MM-DD HH:MM", today, tomorrow, a weekday, in --tz). \
            A new --start moves the end with it unless --end or --duration is given. --instance DATE changes only \
            that instance of a series (written as an override, as a calendar app's "this event only" does); with \
            --and-following it changes that instance and every later one: the series ends before it and the rest \
            becomes a new series that carries the change (overrides keep what they changed). SEQUENCE and \
            LAST-MODIFIED move on either way.

            Examples:
              icskit edit "Dentist" --start "friday 10:00"
              icskit edit 1e78a2 --due 2026-12-01 --priority 1 --category School
              icskit edit standup --instance 2027-01-04 --and-following \\
                --start "2027-01-04 09:30"
              icskit edit standup --instance 2026-11-25 --start "2026-11-25 10:00" \\
                --summary "Standup (late)"
              icskit edit "Swimming" --repeat weekly --until 2027-03-31
              icskit edit "Swimming" --repeat none --url https://example.com/pool
            """)

    @Argument(help: "The item: its UID, a unique UID prefix, or words of its summary.")
    var handle: String

    @Option(help: "Only in this store calendar.", completion: CalendarCompletion.kind)
    var calendar: String?

    @Option(help: "Only this instance of a series: its date (YYYY-MM-DD), or date and time when a day has several.")
    var instance: String?

    @Flag(
        name: .customLong("and-following"),
        help: "With --instance: change that instance and every later one (the series is split there: a new series).")
    var andFollowing = false

    @Option(help: "A new summary.")
    var summary: String?

    @Option(help: "A new start.")
    var start: String?

    @Option(help: "A new end (events).")
    var end: String?

    @Option(help: "A new length (events): 90m, 1h, 1h30m, 2d.")
    var duration: String?

    @Option(help: "A new due time (todos).")
    var due: String?

    @Option(help: "The categories, replacing the old ones (repeat for several; \"\" clears them).")
    var category: [String] = []

    @Option(help: "1 (highest) … 9 (lowest); 0 clears it.")
    var priority: Int?

    @Option(help: "A new location (\"\" clears it).")
    var location: String?

    @Option(help: "A new description (\"\" clears it).")
    var description: String?

    @Option(help: "A new link (\"\" clears it).")
    var url: String?

    @OptionGroup var repetition: RepeatOptions

    @Option(
        parsing: .unconditional,
        help: "The reminder, replacing the old ones: -15m, -1h, -1d; \"none\" removes every alarm.")
    var alarm: String?

    @Option(help: "TENTATIVE, CONFIRMED, CANCELLED (events); NEEDS-ACTION, IN-PROCESS, COMPLETED, CANCELLED (todos).")
    var status: String?

    @OptionGroup var zoneOption: InputZoneOption
    @Option(
        help: ArgumentHelp(
            "For an item you organize with attendees: write the updated REQUEST to this file (- standard output).",
            valueName: "file"))
    var notify: String?

    @OptionGroup var me: MeOption
    @OptionGroup var store: StoreOption

    func validate() throws {
        if let priority, !(0...9).contains(priority) { throw ValidationError("--priority takes 0–9") }
        if end != nil, duration != nil { throw ValidationError("use --end or --duration, not both") }
        if andFollowing, instance == nil { throw ValidationError("--and-following needs --instance DATE") }
        if instance != nil, !andFollowing, repetition.repeat != nil {
            throw ValidationError("--repeat changes a whole series (or --and-following), not one --instance")
        }
    }

    func checkGiven() throws {
        let changes: [Any?] = [
            summary, start, end, duration, due, priority, location, description, url, alarm, status, repetition.repeat,
            repetition.repeatAfterDone,
        ]
        if changes.allSatisfy({ $0 == nil }), category.isEmpty {
            throw ValidationError("say what to change (--summary, --start, --due, --category …)")
        }
    }

    func run() throws {
        let zone = try zoneOption.zone()
        let store = try store.open()
        try CalendarFiles.requireCalendar(calendar, in: store)
        let match = try Handles.resolve(handle, in: store, calendar: calendar, kind: nil, what: "item")
        let loaded = try store.loadItems(calendar: match.calendar, uids: [match.uid])
        var series = RecurringSeries(loaded.components.filter { $0.core?.uid == match.uid })
        guard !series.components.isEmpty else {
            throw CommandFailure("no item with UID \(match.uid) in \(match.calendar)")
        }
        // Decided before anything changes: --notify for an item the user does not organize is refused.
        let organizer = Invitation.organizer(
            of: series.master ?? series.components[0], me: me.identity(store: self.store).addresses)
        if notify != nil, organizer == nil {
            throw CommandFailure("--notify: you do not organize \(match.uid) with attendees (--me, icskit config me)")
        }
        var target = 0
        var scope = ""
        if let instance {
            let occurrence = try SeriesInstance.find(instance, of: match.uid, in: loaded, zone: zone)
            if andFollowing {
                if organizer != nil {
                    throw CommandFailure(
                        "--and-following: you organize \(match.uid) with attendees; change the whole series or one "
                            + "--instance")
                }
                if let line = try splitFollowing(series, at: occurrence, store: store, match: match, loaded: loaded) {
                    return Output.line(line)
                }
                guard series.isFirst(occurrence) else {
                    throw CommandFailure("--and-following: \(match.uid) cannot be split (its series has no DTSTART)")
                }
                scope = " (the whole series: \(instance) is its first instance)"
            } else {
                guard let index = series.instanceIndex(for: occurrence) else {
                    throw CommandFailure("not an instance of a series")
                }
                (target, scope) = (index, " (the instance of \(instance))")
            }
        }
        var components = series.components
        try apply(to: &components[target], zone: zone)
        try store.replaceSeries(uid: match.uid, calendar: match.calendar, with: components, zones: loaded)
        let what = components[target].core?.summary ?? "(no summary)"
        let line = "edited: \(what)\(scope)  (\(match.uid))"
        if notify == "-" { Output.standardError(line) } else { Output.line(line) }
        // An item the user organizes with attendees: the change is what the attendees are sent next (kept as the
        // REQUEST their replies answer), written to --notify now or said to be ready.
        guard let organizer else { return }
        let request = try store.organize(uid: match.uid, calendar: match.calendar, organizer: organizer)
        if let notify {
            try IMIPMessage.write(request.text, to: notify)
        } else {
            Output.standardError("icskit: you organize it with attendees: --notify FILE writes the updated REQUEST")
        }
    }

    /// `--and-following` from `occurrence`: the series ends before it and a new series (a new UID) starts there with
    /// the change; what to say, or nil when the series cannot be split there (the occurrence is its first).
    private func splitFollowing(
        _ series: RecurringSeries, at occurrence: Occurrence, store: CalendarStore, match: HandleMatch,
        loaded: ICalendar
    ) throws -> String? {
        var series = series
        guard var later = try series.split(at: occurrence, newUID: UUID().uuidString.lowercased() + "@icskit")
        else { return nil }
        var components = later.components
        let cut = components[0].core?.start
        try apply(to: &components[0], zone: try zoneOption.zone())
        later = RecurringSeries(components)
        if let cut { later.moveInstances(from: cut) }
        let uid = components[0].core?.uid ?? ""
        try store.replaceSeries(
            [(match.uid, series.components), (uid, later.components)], calendar: match.calendar, zones: loaded)
        return "edited: \(components[0].core?.summary ?? "(no summary)") from \(instance ?? "") on, a new series "
            + "(\(uid)); before it, \(match.uid) ends"
    }

    /// The shared properties' changes, with SEQUENCE and LAST-MODIFIED moved on.
    private func change(
        _ core: inout ItemCore, of component: CalendarComponent, start newStart: CalendarDate?, zone: ZoneClock
    ) throws {
        if let summary { core.summary = summary }
        if let location { core.location = location.isEmpty ? nil : location }
        if let description { core.description = description.isEmpty ? nil : description }
        if let url { core.url = url.isEmpty ? nil : url }
        if let priority { core.priority = priority == 0 ? nil : priority }
        if !category.isEmpty { core.categories = category.filter { !$0.isEmpty }.map { Category($0) } }
        if let status { core.status = Status(rawValue: status) }
        if let newStart { core.start = newStart }
        if repetition.removesRule {
            core.recurrenceRules = []
        } else if let anchor = core.start ?? component.todoDue, let rule = try repetition.rule(for: anchor, zone: zone)
        {
            core.recurrenceRules = [rule]
        } else if repetition.repeat != nil {
            throw ValidationError("--repeat needs an item with a start (or a todo with a due time)")
        }
        core.recordEdit()
    }

    /// A todo repeating from when it is done (`--repeat-after-done`), or (any other --repeat) on the rule's dates
    /// again.
    private func applyRepeatFromCompletion(to component: inout CalendarComponent) throws {
        if case .todo(var todo) = component, repetition.repeat != nil || repetition.repeatAfterDone != nil {
            todo.otherProperties.removeAll { $0.name == TodoSeries.repeatFromProperty }
            if let rule = repetition.afterDoneRule {
                guard todo.core.start ?? todo.due != nil else {
                    throw ValidationError("--repeat-after-done needs a todo with a due time (or a start)")
                }
                todo.core.recurrenceRules = [rule]
                todo.otherProperties.append(Property(TodoSeries.repeatFromProperty, value: "COMPLETION"))
            }
            component = .todo(todo)
        } else if repetition.repeatAfterDone != nil {
            throw ValidationError("--repeat-after-done is for todos")
        }
    }

    /// The options' changes, with SEQUENCE and LAST-MODIFIED moved on.
    private func apply(to component: inout CalendarComponent, zone: ZoneClock) throws {
        // Typed in the viewer's zone, kept in the item's own (a Chicago series edited from Berlin stays in Chicago).
        let newStart = try start.map {
            TypedInput.keepingZone(try AddCommand.when($0, zone), of: component.core?.start)
        }
        try applyRepeatFromCompletion(to: &component)
        if let newStart, case .event(var event) = component {
            event.setStart(newStart, keepingDuration: end == nil && duration == nil)
            component = .event(event)
        }
        guard var core = component.core else { throw CommandFailure("only events, todos and journals can be edited") }
        try change(&core, of: component, start: newStart, zone: zone)
        component.core = core
        switch component {
        case .event(var event):
            if let end {
                event.end = TypedInput.keepingZone(try AddCommand.when(end, zone), of: event.end ?? event.start)
                event.duration = nil
            } else if let duration {
                guard case .success(let length) = AddCommand.duration(duration) else {
                    throw ValidationError("--duration takes 90m, 1h, 1h30m or 2d, not \(duration)")
                }
                event.duration = length
                event.end = nil
            }
            if let reminders = try alarms(for: .event(event)) { event.alarms = reminders }
            component = .event(event)
        case .todo(var todo):
            if let due { todo.due = TypedInput.keepingZone(try AddCommand.when(due, zone), of: todo.due ?? todo.start) }
            if let reminders = try alarms(for: .todo(todo)) { todo.alarms = reminders }
            component = .todo(todo)
        case .journal, .timeZone, .other: break
        }
    }

    /// `--alarm`: the one reminder it gives, none for `none`, or nil (the old ones stay) when not given.
    private func alarms(for component: CalendarComponent) throws -> [Alarm]? {
        guard let alarm else { return nil }
        if alarm.lowercased() == "none" { return [] }
        guard case .success(let offset) = AddCommand.duration(alarm) else {
            throw ValidationError("--alarm takes a duration such as -15m, not \(alarm)")
        }
        return [component.reminder(displaying: component.core?.summary ?? "Reminder", before: offset)]
    }
}

/// One instance of a series, named by its date (and time), as `edit --instance` and `rm --instance` take it.
enum SeriesInstance {
    /// The instance of `uid` that starts on `text`'s day (at its time, when given) in `zone`.
    static func find(_ text: String, of uid: String, in calendar: ICalendar, zone: ZoneClock) throws -> Occurrence {
        let today = zone.wallClock(at: Date()).startOfDay
        let wall = try WindowOptions.parse(text, option: "--instance", today: today)
        let hasTime = text.contains(":")
        let day = wall.startOfDay
        var options = ExpansionOptions()
        options.components = Set(ItemKind.allCases)
        options.viewerZoneName = zone.identifier
        let found = calendar.occurrences(
            from: zone.date(of: day), to: zone.date(of: day.adding(days: 1)), options: options
        ).occurrences.filter { occurrence in
            occurrence.uid == uid && occurrence.recurrenceID != nil
                && (!hasTime || zone.wallClock(at: occurrence.startDate) == wall)
        }
        guard let first = found.first else {
            throw CommandFailure("the series has no instance on \(text) (in \(zone.identifier))")
        }
        guard found.count == 1 else {
            let times = found.map { String(zone.wallClock(at: $0.startDate).iso8601.prefix(16)) }
            throw CommandFailure(
                "the series has \(found.count) instances on \(text): give the time too (\(times.joined(separator: ", ")))"
            )
        }
        return first
    }

}

extension CalendarComponent {
    /// A todo's DUE, which anchors its repetition when it has no DTSTART.
    fileprivate var todoDue: CalendarDate? {
        if case .todo(let todo) = self { return todo.due }
        return nil
    }
}
