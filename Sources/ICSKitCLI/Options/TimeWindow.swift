import ArgumentParser
import CalendarModel
import Foundation

/// `--tz`: the zone times are shown in.
struct ZoneOption: ParsableArguments {
    @Option(help: "The zone to show times in (IANA, e.g. Europe/Berlin). Default: config tz, else the system's.")
    var tz: String?

    init() {}

    init(tz: String?) { self.tz = tz }

    func zone() throws -> ZoneClock {
        guard let name = try tz ?? UserConfig.current()["tz"]?.value else { return ZoneClock.system() }
        guard let zone = ZoneClock(identifier: name) else { throw ValidationError("unknown time zone \(name)") }
        return zone
    }
}

/// `--tz` of the commands that take times (`add`, `edit`): the zone the given times are read in, which the item
/// keeps as its TZID.
struct InputZoneOption: ParsableArguments {
    @Option(
        help: """
            The zone the times you give are in (IANA, e.g. Europe/Berlin); the item keeps it as its TZID. \
            Default: the system's.
            """)
    var tz: String?

    func zone() throws -> ZoneClock { try ZoneOption(tz: tz).zone() }
}

/// `--now TIME`: the moment a command takes for now (tests, and "what will remind say at 08:00").
struct NowOption: ParsableArguments {
    @Option(help: ArgumentHelp("Take this UTC time as now (2026-11-25T12:00:00Z).", valueName: "TIME"))
    var now: String?

    func validate() throws {
        if let now, ISO8601DateFormatter().date(from: now) == nil {
            throw ValidationError("--now takes a UTC time like 2026-11-25T12:00:00Z, not \(now)")
        }
    }

    var date: Date { now.flatMap { ISO8601DateFormatter().date(from: $0) } ?? Date() }
}

/// `--zones tzdata|file`: where a TZID that is an IANA name takes its rules when the file also has a VTIMEZONE
/// for it. Every command that places times has it; it sets `ZoneSource.preferred` as the command is parsed.
struct ZonesOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Rules for IANA-named zones the file also defines: tzdata (default, as python icalendar and Google do) "
                + "or file (its VTIMEZONE). A block that disagrees with tzdata is reported either way.",
            valueName: "SOURCE"))
    var zones: ZoneSource = .tzdata

    func validate() throws { ZoneSource.preferred = zones }
}

extension ZoneSource: ExpressibleByArgument {}

/// The window options `agenda` and `export` share: `--from`, `--to`, `--today`, `--week`, `--month`, `--tz`.
struct WindowOptions: ParsableArguments {
    @Option(
        help: """
            First day or time, in --tz: YYYY-MM-DD, DD.MM.YYYY, Dec 1, today, tomorrow, a weekday, this/next/last \
            WEEKDAY, in N days, now, each with an optional time (09:30, 9am, noon). Default: today.
            """)
    var from: String?

    @Option(
        help: """
            End, exclusive: a day or time, or a length after --from (+7d, +2w, +2h; without --from, +2h is from \
            now). Default: +7d.
            """)
    var to: String?

    @Flag(help: "Just today.")
    var today = false

    @Option(help: "An ISO week: this, next, last, or YYYY-Www (2026-W48).")
    var week: String?

    @Option(
        name: .customLong("first-weekday"),
        help: "The day this, next and last week start on (default: config first-weekday, else monday).")
    var firstWeekday: String?

    /// ISO weekday (1 Monday … 7 Sunday) this, next and last week start on.
    func weekStart() throws -> Int {
        guard let name = try firstWeekday ?? UserConfig.current()["first-weekday"]?.value else { return 1 }
        guard let day = Weekday.named(name) else {
            throw ValidationError("--first-weekday takes monday … sunday, not \(name)")
        }
        return [Weekday.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday].firstIndex(of: day)! + 1
    }

    @Option(help: "A month: this, next, last, a month's name (this year's), or YYYY-MM (2026-12).")
    var month: String?

    /// Whether any of the window options was given.
    var isGiven: Bool { today || week != nil || month != nil || from != nil || to != nil }

    @OptionGroup var zoneOption: ZoneOption

    func zone() throws -> ZoneClock { try zoneOption.zone() }

    func validate() throws {
        let chosen = [
            today ? "--today" : nil, week.map { _ in "--week" }, month.map { _ in "--month" },
            from.map { _ in "--from" },
        ].compactMap { $0 }
        if chosen.count > 1 { throw ValidationError("\(chosen.joined(separator: " and ")) contradict: choose one") }
        if to != nil, today || week != nil || month != nil {
            throw ValidationError("--to goes with --from, not --today, --week or --month")
        }
    }

    /// The window [start, end) as wall-clock times in the zone.
    func window(in zone: ZoneClock, now: Date = Date()) throws -> (start: LocalDateTime, end: LocalDateTime) {
        let todayStart = zone.wallClock(at: now).startOfDay
        if today { return (todayStart, todayStart.adding(days: 1)) }
        if let week {
            let monday: LocalDateTime
            switch week.lowercased() {
            case "this", "next", "last":
                // The first day of this week (Monday unless --first-weekday or the config says another).
                let back = (todayStart.isoWeekday - (try weekStart()) + 7) % 7
                let shift = ["this": 0, "next": 7, "last": -7][week.lowercased()]!
                monday = todayStart.adding(days: shift - back)
            default:
                let parts = week.uppercased().split(separator: "-W")
                guard parts.count == 2, let year = Int(parts[0]), let number = Int(parts[1]), (1...53).contains(number)
                else { throw ValidationError("--week takes this, next, last or YYYY-Www, not \(week)") }
                monday = LocalDateTime.mondayOf(isoWeek: number, year: year)
            }
            return (monday, monday.adding(days: 7))
        }
        if let month {
            let first: LocalDateTime
            switch month.lowercased() {
            case "this": first = LocalDateTime(year: todayStart.year, month: todayStart.month, day: 1)
            case "next":
                first = LocalDateTime(
                    year: todayStart.year + (todayStart.month == 12 ? 1 : 0), month: todayStart.month % 12 + 1, day: 1)
            case "last":
                first = LocalDateTime(
                    year: todayStart.year - (todayStart.month == 1 ? 1 : 0), month: (todayStart.month + 10) % 12 + 1,
                    day: 1)
            case let name where Self.monthNumber(name) != nil:
                first = LocalDateTime(year: todayStart.year, month: Self.monthNumber(name)!, day: 1)
            default:
                let parts = month.split(separator: "-")
                guard parts.count == 2, parts[0].count == 4, let year = Int(parts[0]), let number = Int(parts[1]),
                    (1...12).contains(number)
                else {
                    throw ValidationError("--month takes this, next, last, a month's name or YYYY-MM, not \(month)")
                }
                first = LocalDateTime(year: year, month: number, day: 1)
            }
            let next = LocalDateTime(
                year: first.year + (first.month == 12 ? 1 : 0), month: first.month % 12 + 1, day: 1)
            return (first, next)
        }
        let wallNow = zone.wallClock(at: now)
        let start =
            try from.map { try Self.parse($0, option: "--from", today: todayStart, now: wallNow) } ?? todayStart
        guard let to else { return (start, start.adding(days: 7)) }
        // `+1d`, `+2w`, `+2h`: after --from when there is one (days and weeks on the wall clock); without --from,
        // days and weeks count from today and hours and minutes from now, as `+2h` does everywhere.
        if to.hasPrefix("+"), case .success(let length) = TypedInput.duration(to), !length.isNegative {
            let days = length.weeks * 7 + length.days
            let seconds = Int64(length.hours * 3600 + length.minutes * 60 + length.seconds)
            if from != nil || seconds == 0 { return (start, start.adding(days: days).adding(seconds: seconds)) }
        }
        let end = try Self.parse(to, option: "--to", today: todayStart, now: wallNow)
        guard end > start else { throw ValidationError("--to must come after --from") }
        return (start, end)
    }

    /// A day or a time in the grammar every command reads (`TypedInput.moment`: `2026-11-23`, `23.11.2026`,
    /// `tomorrow 09:30`, `next monday`, `in 3 days`, `+2h` …), as a wall-clock time.
    static func parse(_ text: String, option: String, today: LocalDateTime, now: LocalDateTime? = nil) throws
        -> LocalDateTime
    {
        switch TypedInput.moment(text, now: now ?? today, today: today) {
        case .success(let moment): return moment.wall
        case .failure(let problem): throw ValidationError("\(option): \(problem.description)")
        }
    }

    /// `november`, `nov` (three letters or more of an English month name) as 1…12.
    static func monthNumber(_ word: String) -> Int? { LocalDateTime.monthIndex(word) }
}
