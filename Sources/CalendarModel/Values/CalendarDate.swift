/// A DATE or DATE-TIME value that keeps its form: an all-day date, a floating local time, a UTC instant, or a
/// wall-clock time in a named zone (TZID).
///
/// ```
/// date        = date-fullyear date-month date-mday      ; RFC 5545 §3.3.4
/// date-time   = date "T" time                           ; §3.3.5
/// time        = time-hour time-minute time-second [time-utc]
/// time-utc    = "Z"
/// ```
public struct CalendarDate: Sendable, Hashable, CustomStringConvertible, Codable {
    /// Which of the four forms RFC 5545 §3.3.4/§3.3.5 allows this value is in.
    public enum Form: Sendable, Hashable, Codable {
        /// A day, with no time (VALUE=DATE).
        case date
        /// A wall-clock time in whatever zone the reader is in (no Z, no TZID).
        case floating
        /// An instant in UTC (`Z`).
        case utc
        /// A wall-clock time in the named zone (TZID), a name checked where it was made (``TimeZoneID``).
        case zoned(tzid: TimeZoneID)
    }

    /// The date and time as written, with no zone (midnight for a DATE); `form` says how to read it.
    public var wall: LocalDateTime
    /// How `wall` is read: a date, floating, UTC or in a zone.
    public var form: Form

    /// The year (`wall.year`).
    public var year: Int {
        get { wall.year }
        set { wall.year = newValue }
    }
    /// 1–12 (`wall.month`).
    public var month: Int {
        get { wall.month }
        set { wall.month = newValue }
    }
    /// 1–31 (`wall.day`).
    public var day: Int {
        get { wall.day }
        set { wall.day = newValue }
    }
    /// 0–23 (`wall.hour`); 0 for a DATE.
    public var hour: Int {
        get { wall.hour }
        set { wall.hour = newValue }
    }
    /// 0–59 (`wall.minute`); 0 for a DATE.
    public var minute: Int {
        get { wall.minute }
        set { wall.minute = newValue }
    }
    /// 0–60 (`wall.second`); 0 for a DATE.
    public var second: Int {
        get { wall.second }
        set { wall.second = newValue }
    }

    /// An all-day date. Throws for a day the calendar does not have (2026-02-30), which would otherwise roll over
    /// into the next month unseen.
    public init(year: Int, month: Int, day: Int) throws {
        try self.init(year: year, month: month, day: day, hour: 0, minute: 0, second: 0, form: .date)
    }

    /// A value from its fields; a DATE form drops the time. Throws for fields that name no date or time of day
    /// (2026-02-30, 24:00, minute 61), as a file's value that says so is refused.
    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, form: Form) throws {
        self.init(unchecked: year, month: month, day: day, hour: hour, minute: minute, second: second, form: form)
        if let problem = impossibility {
            throw ValueError(
                "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2)) \(Self.pad(hour, 2)):"
                    + "\(Self.pad(minute, 2)):\(Self.pad(second, 2)) \(problem)")
        }
    }

    /// An all-day date from fields already known to be one (read from a value, or from a `Date`).
    package init(unchecked year: Int, month: Int, day: Int) {
        self.init(unchecked: year, month: month, day: day, hour: 0, minute: 0, second: 0, form: .date)
    }

    /// A value from fields already known to name a date and time.
    package init(unchecked year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, form: Form) {
        wall =
            form == .date
            ? LocalDateTime(year: year, month: month, day: day)
            : LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        self.form = form
    }

    /// A value from its wall-clock time and form (for a DATE, the wall's time is dropped).
    public init(wall: LocalDateTime, form: Form) {
        self.wall = form == .date ? wall.startOfDay : wall
        self.form = form
    }

    /// Whether this is an all-day DATE.
    public var isDate: Bool { form == .date }

    /// The TZID of a zoned time, as written (`zone` gives the zone it stands for).
    public var tzid: String? {
        if case .zoned(let tzid) = form { return tzid.name }
        return nil
    }

    /// The value as written in iCalendar: `20240101`, `20240101T090000` or `20240101T090000Z`.
    public var icsValue: String {
        var text = Self.pad(year, 4) + Self.pad(month, 2) + Self.pad(day, 2)
        if form == .date { return text }
        text += "T" + Self.pad(hour, 2) + Self.pad(minute, 2) + Self.pad(second, 2)
        return form == .utc ? text + "Z" : text
    }

    /// The iCalendar value, with the TZID in brackets when zoned.
    public var description: String { tzid.map { "\(icsValue) (\($0))" } ?? icsValue }

    /// Reads a value as written, in `zone` when it is a time without `Z`; a failure with a reason when it is not a
    /// valid value.
    public static func parse(_ text: String, zone: TimeZoneID? = nil) -> Result<CalendarDate, ValueError> {
        parse(text, tzid: zone?.name)
    }

    /// Reads a value as a file writes it, with its TZID parameter as written (which the reader checks or reports).
    package static func parse(_ text: String, tzid: String?) -> Result<CalendarDate, ValueError> {
        guard ValueSyntax.isDateOrDateTime(text), let time = LibicalValues.time(text) else {
            return .failure(ValueError("\"\(text)\" is not a DATE or DATE-TIME"))
        }
        let date: CalendarDate
        if time.isDate, let tzid {
            // A date written with a TZID (Apple iCal 1.x, Mozilla): midnight in that zone, as python icalendar
            // reads it.
            date = CalendarDate(
                unchecked: time.year, month: time.month, day: time.day, hour: 0, minute: 0, second: 0,
                form: .zoned(tzid: TimeZoneID(unchecked: tzid)))
        } else if time.isDate {
            date = CalendarDate(unchecked: time.year, month: time.month, day: time.day)
        } else {
            let form: Form = time.isUTC ? .utc : tzid.map { .zoned(tzid: TimeZoneID(unchecked: $0)) } ?? .floating
            date = CalendarDate(
                unchecked: time.year, month: time.month, day: time.day, hour: time.hour,
                minute: time.minute, second: time.second, form: form)
        }
        if let problem = date.impossibility { return .failure(ValueError("\"\(text)\" \(problem)")) }
        return .success(date)
    }

    /// Why the fields cannot name a real date or time (20240230, T250000), or nil.
    var impossibility: String? {
        if !(1...12).contains(month) { return "has month \(month)" }
        if !(1...ValueSyntax.daysIn(month: month, year: year)).contains(day) {
            return "is not a date: \(Self.pad(year, 4))-\(Self.pad(month, 2)) has no day \(day)"
        }
        if !(0...23).contains(hour) || !(0...59).contains(minute) || !(0...60).contains(second) {
            return "is not a time of day"
        }
        return nil
    }

    /// A number with leading zeros to `width` digits: `pad(7, 2)` is `07`.
    package static func pad(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
