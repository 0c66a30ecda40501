import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// Items named by a handle: a UID, a unique UID prefix, or words of a summary (`CalendarStore.resolve`).
enum Handles {
    /// `preferring` settles a tie: of several matches, the one the first of its tests holds for when it is only one
    /// (`done Haircut` means the open todo, not its completed copy).
    static func resolve(
        _ handle: String, in store: CalendarStore, calendar: String?, kind: ItemKind?, what: String,
        preferring: [(HandleMatch) throws -> Bool] = []
    ) throws -> HandleMatch {
        // A handle copied as `agenda` and `todo` show it: `id:1e78a2`.
        var handle = handle.trimmingCharacters(in: .whitespaces)
        if handle.hasPrefix("id:"), handle.count > 3 { handle = String(handle.dropFirst(3)) }
        switch try store.resolve(handle: handle, calendar: calendar, kind: kind) {
        case .found(let match): return match
        case .none:
            throw CommandFailure(
                "no \(what) matches \"\(handle)\"\(calendar.map { " in \"\($0)\"" } ?? "") (give a UID, a unique UID "
                    + "prefix, or words of its summary)")
        case .ambiguous(let matches):
            for test in preferring {
                let preferred = try matches.filter(test)
                if preferred.count == 1 { return preferred[0] }
            }
            let short = try store.shortHandles(for: Set(matches.prefix(20).map(\.uid)))
            let lines = matches.prefix(20).map { match in
                TerminalText.safe(
                    "  \(short[match.uid] ?? match.uid)  \(match.summary ?? "(no summary)")  (\(match.calendar)"
                        + (match.when.map { ", " + Self.day($0) } ?? "") + ")", keepingLineBreaks: false)
            }
            throw CommandFailure(
                "\"\(handle)\" matches \(matches.count.counted(what)); give one of these handles:\n"
                    + lines.joined(separator: "\n") + (matches.count > 20 ? "\n  …" : ""))
        }
    }

    /// `2026-11-24` of a UTC instant.
    static func day(_ seconds: Int64) -> String {
        String(LocalDateTime(wallSeconds: seconds).iso8601.prefix(10))
    }
}

/// `icskit rm UID`: delete an item (a series with its overrides) from the store.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete an item from the store; merges keep it deleted.",
        discussion: """
            A whole recurring series is removed only after a question on a terminal, or with --yes.

            Examples:
              icskit rm 7f3c-…@example.com
              icskit rm "Dentist" --calendar Home
              icskit rm standup --instance 2026-11-27
              icskit rm standup --instance 2027-01-04 --and-following
              icskit rm standup --yes
            """)

    @Argument(help: "The item: its UID, a unique UID prefix, or words of its summary.")
    var handle: String

    @Option(help: "Only in this store calendar.", completion: CalendarCompletion.kind)
    var calendar: String?

    @Option(help: "Only this instance of a series (an EXDATE): its date, or date and time when a day has several.")
    var instance: String?

    @Flag(
        name: .customLong("and-following"),
        help: "With --instance: remove that instance and every later one (the series ends before it).")
    var andFollowing = false

    @Flag(help: "Remove a whole recurring series without asking.")
    var yes = false

    @Option(
        help: ArgumentHelp(
            "For an item you organize with attendees: write the CANCEL to send them to this file (- standard output).",
            valueName: "file"))
    var notify: String?

    @OptionGroup var zoneOption: ZoneOption
    @OptionGroup var me: MeOption
    @OptionGroup var store: StoreOption

    func validate() throws {
        if andFollowing, instance == nil { throw ValidationError("--and-following needs --instance DATE") }
    }

    func run() throws {
        let opened = try store.open()
        try CalendarFiles.requireCalendar(calendar, in: opened)
        let item = try Handles.resolve(handle, in: opened, calendar: calendar, kind: nil, what: "item")
        let loaded = try opened.loadItems(calendar: item.calendar, uids: [item.uid])
        var instanceDate: CalendarDate?
        if let instance {
            let occurrence = try SeriesInstance.find(instance, of: item.uid, in: loaded, zone: try zoneOption.zone())
            guard let recurrenceID = occurrence.recurrenceID else {
                throw CommandFailure("not an instance of a series")
            }
            if andFollowing {
                return try removeFollowing(occurrence, named: instance, of: item, loaded: loaded, from: opened)
            }
            instanceDate = recurrenceID
        }
        // A whole series is many instances: asked for on a terminal, --yes elsewhere.
        let components = loaded.components
        if instanceDate == nil, components.contains(where: { $0.core?.isRecurring == true }) {
            let overrides = components.filter { $0.core?.recurrenceID != nil }.count
            try Confirmation.ask(
                "Remove the whole recurring series \"\(item.summary ?? item.uid)\" (\(item.calendar))"
                    + (overrides > 0 ? " with its \(overrides.counted("changed instance"))" : "")
                    + "? (--instance DATE removes one instance)", yes: yes)
        }
        // The attendees of an item the user organizes are told: the CANCEL, made before the item goes.
        let cancel = try opened.cancellation(
            uid: item.uid, calendar: item.calendar, addresses: me.identity(store: store).addresses,
            instance: instanceDate)
        if notify != nil, cancel == nil {
            throw CommandFailure("--notify: you do not organize \(item.uid) with attendees (--me, icskit config me)")
        }
        if let notify, let cancel { try IMIPMessage.write(cancel.text, to: notify) }
        let line: String
        if let instance, let instanceDate {
            try removeInstance(instanceDate, of: item, loaded: loaded, from: opened)
            line = "removed: the instance of \(instance) of \(item.summary ?? "(no summary)")  (\(item.uid))"
        } else {
            let removed = try opened.delete(uid: item.uid, calendar: calendar)
            guard removed > 0 else { throw CommandFailure("no item with UID \(item.uid) in the store") }
            line = "removed: \(item.summary ?? "(no summary)")  (\(item.uid), \(removed.counted("component")))"
        }
        if notify == "-" { Output.standardError(line) } else { Output.line(line) }
        if let cancel, notify == nil {
            Output.standardError(
                "icskit: you organize it with \(cancel.recipients.count.counted("attendee")): --notify FILE writes the "
                    + "CANCEL to send them")
        }
    }

    /// An instance and every later one out of the series (the series ends before it): from the first instance,
    /// that is the whole series, asked for as `rm` of a series is. Refused for an item the user organizes with
    /// attendees, whose ending is theirs to be told.
    private func removeFollowing(
        _ occurrence: Occurrence, named instance: String, of item: HandleMatch, loaded: ICalendar,
        from store: CalendarStore
    ) throws {
        if try store.cancellation(
            uid: item.uid, calendar: item.calendar, addresses: me.identity(store: self.store).addresses, instance: nil)
            != nil
        {
            throw CommandFailure(
                "--and-following: you organize \(item.uid) with attendees; remove the whole series or one --instance")
        }
        var series = RecurringSeries(loaded.components.filter { $0.core?.uid == item.uid })
        guard try series.end(before: occurrence) else {
            guard series.isFirst(occurrence) else {
                throw CommandFailure("--and-following: \(item.uid) cannot be ended there (its series has no DTSTART)")
            }
            // The first instance: the whole series goes.
            try Confirmation.ask(
                "\(instance) is the first instance: remove the whole recurring series \"\(item.summary ?? item.uid)\"?",
                yes: yes)
            _ = try store.delete(uid: item.uid, calendar: item.calendar)
            return Output.line("removed: \(item.summary ?? "(no summary)")  (\(item.uid))")
        }
        try store.replaceSeries(uid: item.uid, calendar: item.calendar, with: series.components, zones: loaded)
        Output.line(
            "removed: the instances from \(instance) on of \(item.summary ?? "(no summary)")  (\(item.uid))")
    }

    /// One instance out of its series: an EXDATE on the master, and its override (if it had one) deleted.
    private func removeInstance(
        _ recurrenceID: CalendarDate, of item: HandleMatch, loaded: ICalendar, from store: CalendarStore
    ) throws {
        var series = RecurringSeries(loaded.components.filter { $0.core?.uid == item.uid })
        guard series.exclude(recurrenceID) else {
            throw CommandFailure("\(item.uid) has no master to exclude the instance from")
        }
        try store.replaceSeries(uid: item.uid, calendar: item.calendar, with: series.components, zones: loaded)
    }
}

/// `icskit check-store`: SQLite's integrity check and what the store holds.
struct CheckStoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-store", abstract: "Check the store file's integrity and list its calendars.")

    @OptionGroup var store: StoreOption

    func run() throws {
        let opened = try store.open(.readOnly)
        let problems = try opened.integrityCheck()
        Output.print("store: \(opened.path)")
        Output.print("integrity: \(problems.joined(separator: "; "))")
        for calendar in try opened.calendars() {
            Output.print(
                "  \(calendar.name): \(calendar.itemCount.counted("item"))\(calendar.color.map { "  \($0)" } ?? "")")
        }
        // What listings leave unsaid: the findings about each calendar's time zones, as import reported them.
        for (calendar, name) in try opened.loadCalendars(named: nil, window: nil) {
            for finding in CalendarTime(calendar: calendar, viewerZone: "UTC").everyZoneFinding()
            where finding.isAboutZones {
                Output.print("  \(name): \(finding.severity.rawValue): \(finding.message)")
            }
        }
        if problems != ["ok"] { throw ExitCode(1) }
    }
}

/// `icskit categories [--set-color NAME #RRGGBB]`: the store's categories and their colours.
struct CategoriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "categories", abstract: "List the store's categories with their colours, or set a colour.",
        discussion: "Examples:\n  icskit categories\n  icskit categories --set-color Work \"#3366FF\"")

    @Option(name: .customLong("set-color"), parsing: .upToNextOption, help: "NAME #RRGGBB")
    var setColor: [String] = []

    @OptionGroup var store: StoreOption

    func validate() throws {
        if !setColor.isEmpty, setColor.count != 2 || !CategoryColor.isHex(setColor[1]) {
            throw ValidationError("--set-color takes a category name and #RRGGBB")
        }
    }

    func run() throws {
        let store = try store.open(setColor.isEmpty ? .readOnly : .readWrite)
        if setColor.count == 2 { try store.setColor(setColor[1], ofCategory: setColor[0]) }
        for (category, items) in try store.categories() {
            Output.line("\(category.name)  \(category.color ?? "-")  \(items) item\(items == 1 ? "" : "s")")
        }
    }
}

/// `icskit log UID --duration 25m`: time spent on a todo, as a VJOURNAL related to it.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Record time spent on a todo (a VJOURNAL linked to it by RELATED-TO).",
        discussion: "Example:\n  icskit log 1f0e…@icskit --duration 25m --interrupted")

    @Argument(help: "The todo: its UID, a unique UID prefix, or words of its summary.")
    var handle: String

    @Option(help: "How long: 25m, 1h, 1h30m.")
    var duration: String

    @Flag(help: "The work was cut short.")
    var interrupted = false

    @OptionGroup var store: StoreOption

    func run() throws {
        let store = try store.open()
        let match = try Handles.resolve(handle, in: store, calendar: nil, kind: .todo, what: "todo")
        guard let (calendar, component) = try store.item(uid: match.uid), case .todo(let todo) = component else {
            throw CommandFailure("no todo with UID \(match.uid) in the store")
        }
        guard case .success(let length) = AddCommand.duration(duration), !length.isNegative else {
            throw ValidationError("--duration takes 25m, 1h or 1h30m, not \(duration)")
        }
        let entry = TimeLog.entry(for: todo, duration: length, interrupted: interrupted)
        try store.add(.journal(entry), to: calendar)
        Output.line("logged \(length.totalSeconds / 60) minutes on \(todo.summary ?? match.uid)")
    }
}
