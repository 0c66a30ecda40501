/// A wall-clock date and time with no zone, with the calendar arithmetic recurrence needs. Seconds since the
/// epoch here count the wall clock as if it were UTC; a zone turns that into a real instant.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// The year (Gregorian).
    public var year: Int
    /// 1–12.
    public var month: Int
    /// 1–31.
    public var day: Int
    /// 0–23.
    public var hour: Int
    /// 0–59.
    public var minute: Int
    /// 0–60 (60: a leap second as written).
    public var second: Int

    /// A wall-clock time from its fields (not checked).
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
    }

    /// The wall clock a date value shows (midnight for a DATE).
    package init(_ date: CalendarDate) { self = date.wall }

    /// From wall-clock seconds since 1970-01-01T00:00:00.
    package init(wallSeconds: Int64) {
        let days = Int(wallSeconds.floorDivided(by: 86_400))
        let secondOfDay = Int(wallSeconds - Int64(days) * 86_400)
        let (year, month, day) = Self.civil(fromDays: days)
        self.init(
            year: year, month: month, day: day, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60,
            second: secondOfDay % 60)
    }

    /// Wall-clock seconds since 1970-01-01T00:00:00 (leap second 60 counted as 59).
    package var wallSeconds: Int64 {
        Int64(Self.days(fromCivil: year, month, day)) * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59))
    }

    /// Days since 1970-01-01 of the date part.
    package var dayNumber: Int { Self.days(fromCivil: year, month, day) }

    /// The wall clock this many seconds later (no zone: every day has 86,400 seconds).
    package func adding(seconds: Int64) -> LocalDateTime { LocalDateTime(wallSeconds: wallSeconds + seconds) }

    /// The same time this many days later.
    package func adding(days: Int) -> LocalDateTime { adding(seconds: Int64(days) * 86_400) }

    /// The same wall clock as a value of the given form (a DATE keeps only the date).
    package func calendarDate(_ form: CalendarDate.Form) -> CalendarDate {
        CalendarDate(unchecked: year, month: month, day: day, hour: hour, minute: minute, second: second, form: form)
    }

    /// Earlier on the wall clock.
    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool { lhs.wallSeconds < rhs.wallSeconds }

    /// As an iCalendar floating time: `20260310T090000`.
    public var description: String { calendarDate(.floating).icsValue }

    /// Days since 1970-01-01 of a proleptic Gregorian date (the well-known era-based civil-from-days method).
    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp + (mp < 10 ? 3 : -9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
