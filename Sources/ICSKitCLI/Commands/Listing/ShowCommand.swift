import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `icskit show HANDLE`: one item of the store in full.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show one item of the store in full.",
        discussion: """
            Times are shown in --tz, and in the item's own zone too when that is another. A recurring series shows \
            its rule in words, its next instances and its changed instances; alarms are shown as the times they go \
            off (for a series, at its next instance).

            Examples:
              icskit show dentist
              icskit show id:1e78a2 --tz Europe/Berlin
              icskit show "Team Meeting" --json
              icskit show 1e78a2 --raw
            """)

    @Argument(help: "The item: its UID, a unique UID prefix, or words of its summary.")
    var handle: String

    @Option(help: "Only in this store calendar.", completion: CalendarCompletion.kind)
    var calendar: String?

    @Flag(help: "Print one JSON object.")
    var json = false

    @Flag(help: "Print the item's lines as the store keeps them (the series and its changed instances).")
    var raw = false

    @Option(help: "How many next instances of a series to show.")
    var next = 5

    @OptionGroup var now: NowOption

    @OptionGroup var zoneOption: ZoneOption

    @OptionGroup var store: StoreOption
    @OptionGroup var me: MeOption

    func validate() throws {
        if json && raw { throw ValidationError("--json and --raw: give one") }
        if next < 0 { throw ValidationError("--next must be 0 or more") }
    }

    func run() throws {
        let opened = try store.open(.readOnly)
        try CalendarFiles.requireCalendar(calendar, in: opened)
        let match = try Handles.resolve(handle, in: opened, calendar: calendar, kind: nil, what: "item")
        if raw {
            let contents = try opened.itemContents(calendar: match.calendar, uid: match.uid).joined()
            // On a terminal, control characters are shown escaped as everywhere else; into a pipe or file, the text
            // goes as it is kept.
            let shown =
                isatty(STDOUT_FILENO) == 1
                ? TerminalText.safe(contents.replacingOccurrences(of: "\r\n", with: "\n")) : contents
            try Output.writeStandardOutput(Array(shown.utf8))
            return
        }
        let loaded = try opened.loadItems(calendar: match.calendar, uids: [match.uid])
        let source = try opened.calendarSource(named: match.calendar)
        let colors = try PageColors.categoryColors(of: opened)
        var details = ItemDetails(
            calendar: loaded, zone: try zoneOption.zone(),
            now: now.date, nextCount: next,
            categoryColors: colors)
        details.me = me.identity(store: store)
        guard let item = details.master else { throw CommandFailure("item \(match.uid) has no component to show") }
        let place = (name: match.calendar, source: source.map { URLUserInfo.redacting($0) })
        if json {
            var writer = JSONWriter(pretty: true)
            details.writeJSON(item, calendar: place, to: &writer)
            try Output.writeStandardOutput(writer.takeBytes() + [0x0A])
        } else {
            for line in details.lines(item, calendar: place) { Output.line(line) }
        }
    }
}

/// What `show` tells of an item: its fields in words and times, worked out once for text and JSON.
struct ItemDetails {
    let calendar: ICalendar
    let zone: ZoneClock
    let time: CalendarTime
    let now: Date
    let nextCount: Int
    let categoryColors: [String: String]
    /// The series' master (or the single item; the first component when only overrides are stored).
    let master: CalendarComponent?
    let overrides: [CalendarComponent]
    /// The next instances from `now`.
    let upcoming: [Occurrence]
    /// Who I am: my answer to an invitation is shown.
    var me: Identity?

    init(calendar: ICalendar, zone: ZoneClock, now: Date, nextCount: Int, categoryColors: [String: String]) {
        self.calendar = calendar
        self.zone = zone
        self.now = now
        self.nextCount = nextCount
        self.categoryColors = categoryColors
        time = CalendarTime(calendar: calendar, viewerZone: zone.identifier)
        let items = calendar.components.filter(\.isItem)
        master = items.first { $0.core?.recurrenceID == nil } ?? items.first
        overrides = items.filter { $0.core?.recurrenceID != nil }.sorted {
            ($0.core?.recurrenceID?.date.icsValue ?? "") < ($1.core?.recurrenceID?.date.icsValue ?? "")
        }
        var upcoming: [Occurrence] = []
        if let core = master?.core, core.isRecurring, nextCount > 0 {
            var options = ExpansionOptions()
            options.components = Set(ItemKind.allCases)
            options.viewerZoneName = zone.identifier
            // A year at a time, up to ten, until enough instances are found.
            var from = now
            for _ in 0..<10 where upcoming.count < nextCount {
                let to = from.addingTimeInterval(366 * 86_400)
                upcoming += calendar.occurrences(from: from, to: to, options: options).occurrences
                    .filter { $0.startDate >= now }
                from = to
            }
        }
        self.upcoming = Array(upcoming.prefix(nextCount))
    }

    // MARK: Times

    /// A value as the viewer reads it: a date alone; a floating time as written; else the time in the viewer's
    /// zone, and in its own zone too when that is another.
    func text(_ value: CalendarDate) -> String {
        if value.isDate { return LocalDateTime(value).isoDate }
        if time.isFloating(value) { return LocalDateTime(value).minuteText + " (floating)" }
        let instant = time.date(of: value)
        var text = zone.wallClock(at: instant).minuteText
        if let tzid = value.tzid, tzid != zone.identifier {
            text += " (\(LocalDateTime(value).minuteText) \(tzid))"
        }
        return text
    }

    /// An instance's start as the viewer reads it.
    func text(_ occurrence: Occurrence) -> String {
        if occurrence.isAllDay { return LocalDateTime(occurrence.start).isoDate }
        if occurrence.isFloating { return LocalDateTime(occurrence.start).minuteText }
        return zone.wallClock(at: occurrence.startDate).minuteText
    }

    /// Start and end (or due) of an item.
    func span(_ item: CalendarComponent) -> (start: String?, end: String?, due: String?) {
        guard let core = item.core else { return (nil, nil, nil) }
        let start = core.start.map(text)
        switch item {
        case .event(let event):
            if let end = event.end { return (start, text(end), nil) }
            if let duration = event.duration, let begin = core.start {
                if begin.isDate {
                    let last = LocalDateTime(begin).adding(days: max(duration.totalSeconds / 86_400, 1))
                    return (start, last.isoDate, nil)
                }
                let end = time.date(of: begin).addingTimeInterval(TimeInterval(duration.totalSeconds))
                return (start, time.isFloating(begin) ? nil : zone.wallClock(at: end).minuteText, nil)
            }
            return (start, nil, nil)
        case .todo(let todo): return (start, nil, todo.due.map(text))
        default: return (start, nil, nil)
        }
    }

    /// When each alarm goes off: for a series, at its next instance (else its first).
    func alarms(_ item: CalendarComponent) -> [(when: String, trigger: String, action: String)] {
        let alarms: [Alarm]
        switch item {
        case .event(let event): alarms = event.alarms
        case .todo(let todo): alarms = todo.alarms
        default: alarms = []
        }
        guard let core = item.core else { return [] }
        let anchorStart: Date? = upcoming.first?.startDate ?? core.start.map { time.date(of: $0) }
        var anchorEnd: Date? = upcoming.first?.endDate
        if anchorEnd == nil, case .event(let event) = item, let end = event.end { anchorEnd = time.date(of: end) }
        if anchorEnd == nil, case .todo(let todo) = item, let due = todo.due { anchorEnd = time.date(of: due) }
        let start = anchorStart ?? anchorEnd, end = anchorEnd ?? anchorStart
        return alarms.map { alarm in
            let action = alarm.action?.rawValue.lowercased() ?? "display"
            switch alarm.trigger {
            case .relative(let offset, let relatedToEnd):
                let anchor = item.isTodoWithoutStart ? "the due time" : relatedToEnd ? "the end" : "the start"
                let words = Self.offsetWords(offset, from: anchor)
                let fires = both(start, end).flatMap {
                    alarm.relativeFiring(start: $0, end: $1, fromEnd: item.isTodoWithoutStart)
                }
                return (fires.map { zone.wallClock(at: $0).minuteText } ?? "?", words, action)
            case .absolute(let value):
                return (text(value), "at a fixed time", action)
            case nil:
                return ("?", "no trigger", action)
            }
        }
    }

    /// `15 minutes before the start`, `1 hour after the end`, `at the start`.
    static func offsetWords(_ offset: CalendarDuration, from anchor: String) -> String {
        var rest = abs(offset.totalSeconds)
        guard rest > 0 else { return "at " + anchor }
        var parts: [String] = []
        for (size, unit) in [(604_800, "week"), (86_400, "day"), (3_600, "hour"), (60, "minute"), (1, "second")]
        where rest >= size {
            let value = rest / size
            rest %= size
            parts.append(value == 1 ? "1 \(unit)" : "\(value) \(unit)s")
        }
        return parts.joined(separator: " ") + (offset.totalSeconds < 0 ? " before " : " after ") + anchor
    }
}

extension CalendarComponent {
    /// A todo with no start: its alarms are related to its due time.
    var isTodoWithoutStart: Bool {
        if case .todo(let todo) = self { return todo.core.start == nil }
        return false
    }
}
