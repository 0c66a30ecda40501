import CalendarModel
import Foundation
import XCTest

/// Days, weeks and months by a zone's clock: the weeks the clocks change are 169 and 167 hours long, where the
/// `7 * 86_400` the docs used to count lost a Sunday-night event and took a Monday-morning one twice.
final class CalendarWindowsTests: XCTestCase {
    let berlin = try! CalendarZone("Europe/Berlin")

    /// An instant by Berlin's clock.
    func berlin(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Date {
        var parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)
        parts.timeZone = berlin.timeZone
        return Calendar(identifier: .gregorian).date(from: parts)!
    }

    func testTheWeekTheClocksGoBackHoldsItsSundayNight() {
        let week = berlin.week(containing: berlin(2026, 10, 21))
        XCTAssertEqual(week.start, berlin(2026, 10, 19))
        XCTAssertEqual(week.end, berlin(2026, 10, 26))
        XCTAssertEqual(week.duration, 169 * 3600)
        let sundayNight = berlin(2026, 10, 25, 23, 30)
        XCTAssertTrue(week.contains(sundayNight))
        XCTAssertFalse(DateInterval(start: week.start, duration: 7 * 86_400).contains(sundayNight), "the old way")
    }

    func testTheWeekTheClocksGoForwardEndsAtMondayMidnight() {
        let week = berlin.week(containing: berlin(2026, 3, 25))
        XCTAssertEqual(week.duration, 167 * 3600)
        let mondayMorning = berlin(2026, 3, 30, 0, 30)
        XCTAssertFalse(week.contains(mondayMorning))
        XCTAssertTrue(berlin.week(containing: mondayMorning).contains(mondayMorning))
        XCTAssertTrue(DateInterval(start: week.start, duration: 7 * 86_400).end > mondayMorning, "the old way")
    }

    func testWeeksStartWhereTheLocaleOrTheCallerSays() {
        let thursday = berlin(2026, 11, 26, 12)
        XCTAssertEqual(berlin.week(containing: thursday).start, berlin(2026, 11, 23), "ISO: Monday")
        XCTAssertEqual(
            berlin.week(containing: thursday, locale: Locale(identifier: "en_US")).start, berlin(2026, 11, 22))
        XCTAssertEqual(
            berlin.week(containing: thursday, locale: Locale(identifier: "de_DE")).start, berlin(2026, 11, 23))
        XCTAssertEqual(berlin.week(containing: thursday, firstWeekday: .saturday).start, berlin(2026, 11, 21))
        // A Sunday belongs to the week that starts that day when weeks start on Sunday.
        let sunday = berlin(2026, 11, 22, 8)
        XCTAssertEqual(berlin.week(containing: sunday, firstWeekday: .sunday).start, berlin(2026, 11, 22))
        XCTAssertEqual(berlin.week(containing: sunday).start, berlin(2026, 11, 16))
    }

    func testDaysAndMonthsByTheClock() {
        XCTAssertEqual(berlin.day(containing: berlin(2026, 3, 29, 12)).duration, 23 * 3600)
        XCTAssertEqual(berlin.day(containing: berlin(2026, 10, 25, 12)).duration, 25 * 3600)
        XCTAssertEqual(berlin.day(containing: berlin(2026, 11, 28, 23, 59)).start, berlin(2026, 11, 28))
        let february = berlin.month(containing: berlin(2026, 2, 14))
        XCTAssertEqual(february.start, berlin(2026, 2, 1))
        XCTAssertEqual(february.end, berlin(2026, 3, 1))
        let march = berlin.month(containing: berlin(2026, 3, 31, 23))
        XCTAssertEqual(march.duration, (31 * 24 - 1) * 3600, "the hour the clocks skip")
        XCTAssertEqual(
            CalendarZone.utc.week(containing: berlin(2026, 11, 23, 0, 30)).start.timeIntervalSince1970,
            berlin(2026, 11, 16, 1).timeIntervalSince1970, "in UTC it is still Sunday 23:30: the week before")
    }
}
