import Foundation

/// The day, week and month that hold an instant, as a calendar view shows them in a zone: from midnight to midnight
/// by the zone's clock, so a day is 23 or 25 hours long when the clocks change, and a week 167 or 169 — never
/// `7 * 86_400` seconds, which loses the last half hour of the week the clocks go back and takes the first of the
/// next week the clocks go forward.
///
/// ```swift
/// let berlin = try CalendarZone("Europe/Berlin")
/// let week = berlin.week(containing: Date())                       // Monday 00:00 to Monday 00:00
/// let american = berlin.week(containing: Date(), locale: Locale(identifier: "en_US"))  // from Sunday
/// let expansion = calendar.occurrences(from: week.start, to: week.end, options: options)
/// ```
extension CalendarZone {
    /// The day that holds `date`: from its first instant by this zone's clock to the next day's (a zone whose clocks
    /// skip midnight starts the day at the first hour there is).
    public func day(containing date: Date) -> DateInterval {
        interval(of: .day, containing: date, firstWeekday: .monday)
    }

    /// The week that holds `date`: from `firstWeekday` at the start of its day to the same day a week later. ISO 8601
    /// weeks (the default) start on Monday.
    public func week(containing date: Date, firstWeekday: Weekday = .monday) -> DateInterval {
        interval(of: .weekOfYear, containing: date, firstWeekday: firstWeekday)
    }

    /// The week that holds `date` as `locale` counts weeks: from Sunday in the United States, from Monday in most of
    /// Europe, from Saturday in some of the Middle East.
    public func week(containing date: Date, locale: Locale) -> DateInterval {
        let first: Weekday
        switch locale.firstDayOfWeek {
        case .sunday: first = .sunday
        case .monday: first = .monday
        case .tuesday: first = .tuesday
        case .wednesday: first = .wednesday
        case .thursday: first = .thursday
        case .friday: first = .friday
        case .saturday: first = .saturday
        @unknown default: first = .monday
        }
        return week(containing: date, firstWeekday: first)
    }

    /// The month that holds `date`: from the first of the month to the first of the next, by this zone's clock.
    public func month(containing date: Date) -> DateInterval {
        interval(of: .month, containing: date, firstWeekday: .monday)
    }

    private func interval(of unit: Calendar.Component, containing date: Date, firstWeekday: Weekday) -> DateInterval {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.firstWeekday = (Weekday.allCases.firstIndex(of: firstWeekday) ?? 1) + 1  // Foundation: 1 is Sunday
        calendar.minimumDaysInFirstWeek = 4
        // Foundation finds these for every date a Gregorian calendar holds; the empty interval is never reached.
        return calendar.dateInterval(of: unit, for: date) ?? DateInterval(start: date, duration: 0)
    }
}
