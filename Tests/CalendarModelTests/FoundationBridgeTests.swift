import CalendarModel
import Foundation
import XCTest

/// CalendarModel's values to and from Foundation's, and zones that are checked (issue 48: a misspelt zone became
/// UTC, values compared by wall clock across zones, instants had no `DateInterval`).
final class FoundationBridgeTests: XCTestCase {
    let berlin = try! CalendarZone("Europe/Berlin")

    /// 2026-03-29T01:30:00Z: the first half hour of summer time in Berlin (03:30 CEST).
    let springForward = Date(timeIntervalSince1970: 1_774_747_800)

    func testAZoneIsCheckedByName() throws {
        XCTAssertThrowsError(try CalendarZone("Europe/Berln"), "a misspelt zone is an error, not UTC")
        XCTAssertThrowsError(try CalendarZone(""))
        XCTAssertEqual(try CalendarZone("W. Europe Standard Time").identifier, "Europe/Berlin", "Windows ID")
        XCTAssertEqual(try CalendarZone("Eastern Standard Time").identifier, "America/New_York")
        XCTAssertEqual(
            try CalendarZone("/freeassociation.sourceforge.net/Tzfile/Europe/Berlin").identifier, "Europe/Berlin")
        XCTAssertEqual(CalendarZone(TimeZone(identifier: "Asia/Tokyo")!)?.identifier, "Asia/Tokyo")
        XCTAssertNil(CalendarZone(TimeZone(secondsFromGMT: 3600 + 1800)!), "an offset is no named zone")
        XCTAssertEqual(berlin.timeZone.identifier, "Europe/Berlin")
        XCTAssertEqual(ExpansionOptions().viewerZone, CalendarZone.current, "the viewer is this machine's zone")
    }

    func testAZoneIsCodableAsItsName() throws {
        let json = try JSONEncoder().encode([berlin])
        XCTAssertEqual(String(decoding: json, as: UTF8.self), #"["Europe\/Berlin"]"#)
        XCTAssertEqual(try JSONDecoder().decode([CalendarZone].self, from: json), [berlin])
        XCTAssertThrowsError(try JSONDecoder().decode([CalendarZone].self, from: Data(#"["Mars/Olympus"]"#.utf8)))
    }

    func testDatesGoBothWays() throws {
        let inBerlin = CalendarDate(springForward, in: berlin)
        XCTAssertEqual(inBerlin.icsValue, "20260329T033000")
        XCTAssertEqual(inBerlin.tzid, "Europe/Berlin")
        XCTAssertEqual(inBerlin.date(), springForward, "a zoned time is one instant, whoever looks")
        XCTAssertEqual(try CalendarDate(springForward, in: TimeZone(identifier: "Europe/Berlin")!), inBerlin)
        // A Foundation zone with no IANA name is no zone iCalendar can name: an error, not UTC (issue 62).
        let offset = TimeZone(secondsFromGMT: 3600)!
        XCTAssertThrowsError(try CalendarDate(springForward, in: offset))
        XCTAssertNil(
            try CalendarDate(year: 2026, month: 7, day: 1, hour: 9, minute: 0, second: 0, form: .floating).date(
                in: offset))
        XCTAssertEqual(inBerlin.date(in: offset), springForward, "a zoned time needs no viewer")
        let utc = CalendarDate(springForward, in: .utc)
        XCTAssertEqual(utc.icsValue, "20260329T013000Z")
        XCTAssertEqual(utc.date(), springForward)
        XCTAssertEqual(
            CalendarDate.day(of: springForward, in: try CalendarZone("Pacific/Honolulu")).icsValue, "20260328")

        // Dates and floating times are placed in the viewer's zone.
        let floating = try CalendarDate(year: 2026, month: 7, day: 1, hour: 9, minute: 0, second: 0, form: .floating)
        XCTAssertEqual(floating.date(in: berlin), Date(timeIntervalSince1970: 1_782_889_200))  // 07:00Z
        XCTAssertEqual(floating.date(in: TimeZone(identifier: "UTC")!), Date(timeIntervalSince1970: 1_782_896_400))
        // A time in the gap moves past it (RFC 5545 §3.3.5): 02:30 on the day summer time starts is 03:30.
        let gap = try CalendarDate(
            year: 2026, month: 3, day: 29, hour: 2, minute: 30, second: 0,
            form: .zoned(tzid: try TimeZoneID("Europe/Berlin")))
        XCTAssertEqual(gap.date(), springForward)
        // A TZID no zone database knows has no instant of its own.
        let custom = try CalendarDate(
            year: 2026, month: 1, day: 1, hour: 9, minute: 0, second: 0,
            form: .zoned(tzid: TimeZoneID(unchecked: "My Zone")))
        XCTAssertNil(custom.date())
        XCTAssertNil(custom.zone)
        XCTAssertEqual(inBerlin.zone, berlin)
    }

    /// 09:00Z and 09:00 in Berlin (08:00Z) were neither `<` nor `==`: values order by instant now, and the written
    /// wall clock is its own comparison.
    func testValuesOrderByInstantAcrossZones() throws {
        let nineUTC = try CalendarDate.parse("20260105T090000Z", tzid: nil).get()
        let nineBerlin = try CalendarDate.parse("20260105T090000", tzid: "Europe/Berlin").get()
        let halfPastEightUTC = try CalendarDate.parse("20260105T083000Z", tzid: nil).get()
        XCTAssertTrue(nineBerlin < halfPastEightUTC)
        XCTAssertTrue(halfPastEightUTC < nineUTC)
        XCTAssertFalse(nineUTC < nineBerlin)
        XCTAssertEqual([nineUTC, halfPastEightUTC, nineBerlin].sorted(), [nineBerlin, halfPastEightUTC, nineUTC])
        XCTAssertFalse(nineUTC.isWallClockBefore(nineBerlin))
        XCTAssertFalse(nineBerlin.isWallClockBefore(nineUTC))
        XCTAssertTrue(halfPastEightUTC.isWallClockBefore(nineBerlin))
    }

    func testInstancesAreDateIntervals() throws {
        let text = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:i@t\r\nDTSTAMP:20260101T000000Z\r\n\
            DTSTART;TZID=Europe/Berlin:20260105T090000\r\nDURATION:PT90M\r\nRRULE:FREQ=DAILY;COUNT=2\r\n\
            SUMMARY:Standup\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """
        let calendar = try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first)
        let week = DateInterval(start: Date(timeIntervalSince1970: 1_767_571_200), duration: 7 * 86_400)
        let intervals = calendar.occurrences(from: week.start, to: week.end).occurrences.map(\.interval)
        XCTAssertEqual(
            intervals,
            [
                DateInterval(start: Date(timeIntervalSince1970: 1_767_600_000), duration: 5400),
                DateInterval(start: Date(timeIntervalSince1970: 1_767_686_400), duration: 5400),
            ])
        XCTAssertTrue(intervals.allSatisfy(week.contains(_:)))
    }
}

extension DateInterval {
    fileprivate func contains(_ other: DateInterval) -> Bool { intersection(with: other) == other }
}
