import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `icskit remind`: the alarms that go off soon, once or watching.
struct RemindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remind", abstract: "List (or act on) the alarms due in the next minutes.",
        discussion: """
            An alarm is due when its trigger falls in [now, now + --within): relative triggers (before or after an \
            instance's start or end; a todo without a start counts from its due time), absolute ones, and the \
            REPEAT times of each. Triggers up to 35 days before an instance and 7 days after it are found. \
            Cancelled events and completed todos have no alarms.

            --exec runs a command for each alarm through /bin/sh with `--` and the alarm's text as its arguments' end \
            (ICSKIT_ALARM_SUMMARY, _START, _TIME, _UID and _CALENDAR are set too); --watch keeps running and \
            fires each alarm at its time (reading the store every 30 seconds), as a user service would.

            Examples:
              icskit remind --within 15m
              icskit remind --within 1d --json
              icskit remind --watch --exec notify-send
            """)

    @Argument(help: "Calendar files; none: the store.")
    var files: [String] = []

    @Option(help: "Only in this store calendar (repeat for several).", completion: CalendarCompletion.kind)
    var calendar: [String] = []

    @Option(help: ArgumentHelp("How far ahead to look: 15m, 2h, 1d.", valueName: "LENGTH"))
    var within = "15m"

    @Option(help: ArgumentHelp("Run this for each alarm, -- and the alarm's text after it.", valueName: "COMMAND"))
    var exec: String?

    @Flag(help: "Keep running and fire each alarm at its time (stop with Ctrl-C).")
    var watch = false

    @OptionGroup var now: NowOption

    @Option(name: .customLong("stop-after"), help: .hidden)
    var stopAfter: Double?

    @Flag(help: "Print one JSON array.")
    var json = false

    @OptionGroup var zoneOption: ZoneOption

    @OptionGroup var store: StoreOption

    func validate() throws {
        guard case .success(let length) = TypedInput.duration(within), length.totalSeconds > 0 else {
            throw ValidationError("--within takes a length such as 15m, 2h or 1d, not \(within)")
        }
        if watch, json { throw ValidationError("--watch prints lines as alarms fire; --json lists once") }
    }

    func run() throws {
        let zone = try zoneOption.zone()
        let length = TimeInterval((try? TypedInput.duration(within).get().totalSeconds) ?? 900)
        let start = now.date
        guard watch else {
            let due = try alarms(from: start, to: start.addingTimeInterval(length), zone: zone)
            if json { return try printJSON(due, zone: zone) }
            if due.isEmpty {
                Output.print("no alarms between \(minutes(start, zone)) and \(minutes(start + length, zone))")
            }
            for alarm in due { try fire(alarm, zone: zone) }
            return
        }
        try watchAlarms(zone: zone, clockStart: start)
    }

    /// Fires alarms at their times until stopped: every 30 seconds the store is read for the alarms of the minute
    /// ahead that were not looked at yet.
    private func watchAlarms(zone: ZoneClock, clockStart: Date) throws {
        let offset = clockStart.timeIntervalSince(Date())  // --now moves the clock, which then runs on
        let stop = stopAfter.map { Date().addingTimeInterval($0) }
        var fired: Set<DueAlarm.Key> = []
        var checkedUntil = clockStart
        while stop.map({ Date() < $0 }) ?? true {
            let horizon = Date().addingTimeInterval(offset + 60)
            for alarm in try alarms(from: checkedUntil, to: horizon, zone: zone) where !fired.contains(alarm.key) {
                let wait = alarm.fires.timeIntervalSince(Date().addingTimeInterval(offset))
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                try fire(alarm, zone: zone)
                try Output.flushStandardOutput()
                fired.insert(alarm.key)
            }
            checkedUntil = horizon
            let pause = min(30, stop.map { $0.timeIntervalSinceNow } ?? 30)
            if pause > 0 { Thread.sleep(forTimeInterval: pause) }
        }
    }

    /// The alarms whose times fall in [from, to), earliest first.
    func alarms(from: Date, to: Date, zone: ZoneClock) throws -> [DueAlarm] {
        let reach = from.addingTimeInterval(-7 * 86_400)..<to.addingTimeInterval(35 * 86_400)
        var options = ExpansionOptions()
        options.components = [.event, .todo]
        options.viewerZoneName = zone.identifier
        var due: [DueAlarm] = []
        func collect(_ occurrences: [Occurrence], calendar: String, time: CalendarTime) {
            for occurrence in occurrences {
                due += DueAlarm.alarms(of: occurrence, calendar: calendar, time: time).filter {
                    $0.fires >= from && $0.fires < to
                }
            }
        }
        // The instance index's instances of items with alarms, else every calendar expanded.
        var query = InstanceQuery(from: reach.lowerBound, to: reach.upperBound, options: options)
        (query.calendars, query.alarmsFiring) = (Set(calendar).sorted(), from..<to)
        if files.isEmpty, let (found, _) = try CalendarFiles.indexedInstances(store: store, query) {
            for entry in found.calendars {
                collect(
                    entry.occurrences, calendar: entry.name,
                    time: CalendarTime(calendar: entry.frame, viewerZone: zone.identifier))
            }
        } else {
            let input = try CalendarFiles.readOrStore(files, store: store, calendars: calendar, window: reach)
            for source in input.sources {
                for calendar in source.calendars {
                    let expansion = calendar.occurrences(
                        from: reach.lowerBound, to: reach.upperBound, options: options, file: source.path)
                    collect(
                        expansion.occurrences, calendar: source.name,
                        time: CalendarTime(calendar: calendar, viewerZone: zone.identifier))
                }
            }
        }
        // An absolute trigger is one time for the whole series: once.
        var seen: Set<DueAlarm.Key> = []
        return due.sorted { ($0.fires, $0.summary) < ($1.fires, $1.summary) }.filter { seen.insert($0.key).inserted }
    }

    private func minutes(_ date: Date, _ zone: ZoneClock) -> String {
        zone.wallClock(at: date).minuteText
    }

    /// Prints the alarm, and runs --exec for it.
    private func fire(_ alarm: DueAlarm, zone: ZoneClock) throws {
        let text = alarm.text(zone: zone)
        Output.line("\(minutes(alarm.fires, zone))  \(text)  (\(alarm.calendar))")
        guard let exec else { return }
        try Output.flushStandardOutput()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // After `--`: a title such as `--output=/x` is never an option of the command (issue 46).
        process.arguments = ["-c", exec + " -- \"$@\"", "icskit", text]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "ICSKIT_ALARM_SUMMARY": alarm.summary, "ICSKIT_ALARM_START": minutes(alarm.start, zone),
            "ICSKIT_ALARM_TIME": minutes(alarm.fires, zone), "ICSKIT_ALARM_UID": alarm.uid,
            "ICSKIT_ALARM_CALENDAR": alarm.calendar,
        ]) { _, new in new }
        do { try process.run() } catch { throw CommandFailure("--exec: cannot run /bin/sh: " + ErrorText.line(error)) }
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Output.standardError("icskit: --exec for \"\(alarm.summary)\" exited \(process.terminationStatus)")
        }
    }

    private func printJSON(_ due: [DueAlarm], zone: ZoneClock) throws {
        var writer = JSONWriter(pretty: true)
        writer.beginArray()
        for alarm in due {
            writer.beginObject()
            writer.key("at"); writer.string(zone.iso8601(alarm.fires))
            writer.key("summary"); writer.string(alarm.summary)
            writer.key("start"); writer.string(zone.iso8601(alarm.start))
            writer.key("uid"); writer.string(alarm.uid)
            writer.key("calendar"); writer.string(alarm.calendar)
            writer.key("action"); writer.string(alarm.action)
            writer.key("description"); writer.string(alarm.description)
            writer.endObject()
        }
        writer.endArray()
        try Output.writeStandardOutput(writer.takeBytes() + [0x0A])
    }
}

/// One time an alarm goes off, for one instance.
struct DueAlarm {
    var fires: Date
    var start: Date
    var summary: String
    var description: String?
    var action: String
    var uid: String
    var calendar: String
    /// Which alarm of which instance at which time: fired once.
    var key: Key

    struct Key: Hashable {
        var uid: String
        var alarm: Int
        var fires: Date
    }

    /// `Standup at 09:00 (in 10 minutes)`: what the alarm says, and when the instance starts.
    func text(zone: ZoneClock) -> String {
        let lead = Int(start.timeIntervalSince(fires) / 60)
        let when = String(zone.wallClock(at: start).iso8601.dropFirst(11).prefix(5))
        let relation = lead == 0 ? "now" : lead > 0 ? "in " + Self.span(lead) : Self.span(-lead) + " ago"
        let said = description.flatMap { $0.isEmpty || $0 == summary ? nil : ": " + $0 } ?? ""
        return "\(summary)\(said) at \(when) (\(relation))"
    }

    /// `10 minutes`, `2 hours`, `1 day`, `1 h 30 min`.
    static func span(_ minutes: Int) -> String {
        func unit(_ count: Int, _ name: String) -> String { "\(count) \(name)\(count == 1 ? "" : "s")" }
        if minutes < 60 { return unit(minutes, "minute") }
        if minutes % 1440 == 0 { return unit(minutes / 1440, "day") }
        if minutes % 60 == 0 { return unit(minutes / 60, "hour") }
        return "\(minutes / 60) h \(minutes % 60) min"
    }

    /// Every time the alarms of an instance go off (each REPEAT included); none for a cancelled event or a
    /// completed todo.
    static func alarms(of occurrence: Occurrence, calendar: String, time: CalendarTime) -> [DueAlarm] {
        switch occurrence.item {
        case .event(let event): guard event.core.status != .cancelled else { return [] }
        case .todo(let todo): guard !todo.isCompleted else { return [] }
        case .journal: return []
        }
        let summary = occurrence.summary ?? "(no summary)"
        let uid = occurrence.uid ?? ""
        return occurrence.alarmFirings(time: time).map { firing in
            DueAlarm(
                fires: firing.fires, start: occurrence.startDate, summary: summary,
                description: firing.alarm.description, action: firing.alarm.action?.rawValue ?? "DISPLAY", uid: uid,
                calendar: calendar,
                key: Key(
                    uid: uid + (firing.isAbsolute ? "" : "@\(occurrence.startDate.timeIntervalSince1970)"),
                    alarm: firing.index, fires: firing.fires))
        }
    }
}
