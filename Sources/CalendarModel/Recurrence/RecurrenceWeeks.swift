import Foundation

/// Weeks as RFC 5545 counts them (WKST, BYWEEKNO): the engine's calendar arithmetic.
extension RecurrenceEngine {
    /// The first day of the WKST-week that holds `day`.
    func weekStartDay(_ day: Int) -> Int { day - ((Self.weekday(day) - weekStart + 7) % 7) }

    /// The first day of week 1 of a year: the week (from WKST) holding at least four days of that year.
    func weekYearStart(_ year: Int) -> Int { Self.weekYearStart(year, weekStart: weekStart) }

    static func weekYearStart(_ year: Int, weekStart: Int) -> Int {
        let jan1 = LocalDateTime.days(fromCivil: year, 1, 1)
        let start = jan1 - ((weekday(jan1) - weekStart + 7) % 7)
        return jan1 - start >= 4 ? start + 7 : start
    }

    func weekYearRange(_ year: Int) -> Range<Int> { weekYearStart(year)..<weekYearStart(year + 1) }

    static func yearRange(_ year: Int) -> Range<Int> {
        LocalDateTime.days(fromCivil: year, 1, 1)..<LocalDateTime.days(fromCivil: year + 1, 1, 1)
    }
}
