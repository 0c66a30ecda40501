import CalendarModel
import Foundation
import XCTest

/// `ICalendar.alarmTimes`: days and weeks on the clock (RFC 5545 §3.3.6), hours exact, repeats, absolute triggers
/// once per item, RFC 9074's ACKNOWLEDGED and snoozes (issue 62).
final class AlarmTimesTests: XCTestCase {
    func calendar(_ body: String) throws -> ICalendar {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + body + "END:VCALENDAR\r\n"
        return try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first)
    }

    func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    func fires(_ times: [AlarmTime]) -> [String] { times.map { ISO8601DateFormatter().string(from: $0.fires) } }

    let year = (
        from: ISO8601DateFormatter().date(from: "2026-01-01T00:00:00Z")!,
        to: ISO8601DateFormatter().date(from: "2027-01-01T00:00:00Z")!
    )

    func testADayBeforeIsADayOnTheClockAndAnHourIsAnHour() throws {
        let calendar = try calendar(
            """
            BEGIN:VEVENT\r
            UID:a\r
            DTSTAMP:20260101T000000Z\r
            DTSTART;TZID=Europe/Berlin:20260329T090000\r
            DTEND;TZID=Europe/Berlin:20260329T100000\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            DESCRIPTION:day\r
            TRIGGER:-P1D\r
            END:VALARM\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            DESCRIPTION:hours\r
            TRIGGER:-PT24H\r
            END:VALARM\r
            END:VEVENT\r

            """)
        let times = calendar.alarmTimes(from: year.from, to: year.to, zone: .utc)
        XCTAssertEqual(fires(times), ["2026-03-28T07:00:00Z", "2026-03-28T08:00:00Z"])
        XCTAssertEqual(times.map(\.alarm.description), ["hours", "day"], "24 exact hours, then the day on the clock")
        XCTAssertEqual(times.map(\.uid), ["a", "a"])
    }

    func testRepeatsAbsoluteTriggersAcknowledgedAndSnoozed() throws {
        let calendar = try calendar(
            """
            BEGIN:VEVENT\r
            UID:series\r
            DTSTAMP:20260101T000000Z\r
            DTSTART:20261102T090000Z\r
            DTEND:20261102T100000Z\r
            RRULE:FREQ=DAILY;COUNT=3\r
            BEGIN:VALARM\r
            UID:first-alarm\r
            ACTION:DISPLAY\r
            DESCRIPTION:soon\r
            TRIGGER:-PT10M\r
            REPEAT:2\r
            DURATION:PT5M\r
            ACKNOWLEDGED:20261103T085000Z\r
            END:VALARM\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            DESCRIPTION:once\r
            TRIGGER;VALUE=DATE-TIME:20261101T120000Z\r
            END:VALARM\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            DESCRIPTION:snoozed\r
            RELATED-TO;RELTYPE=SNOOZE:first-alarm\r
            TRIGGER;VALUE=DATE-TIME:20261103T090500Z\r
            END:VALARM\r
            END:VEVENT\r

            """)
        let times = calendar.alarmTimes(from: year.from, to: year.to, zone: .utc)
        XCTAssertEqual(
            fires(times),
            [
                "2026-11-01T12:00:00Z",  // the absolute trigger, once for the series
                // Everything up to 3 November 08:50 is acknowledged; the repeats after it still ring
                "2026-11-03T08:55:00Z", "2026-11-03T09:00:00Z", "2026-11-03T09:05:00Z",  // the snooze
                "2026-11-04T08:50:00Z", "2026-11-04T08:55:00Z", "2026-11-04T09:00:00Z",
            ])
        XCTAssertEqual(times.filter { $0.alarm.description == "soon" }.map(\.repetition), [1, 2, 0, 1, 2])
        let all = calendar.alarmTimes(from: year.from, to: year.to, zone: .utc, includingAcknowledged: true)
        XCTAssertEqual(all.count, times.count + 4, "2 November's three and 3 November 08:50")
        // A window takes the alarms that go off in it, whichever instance they belong to.
        let morning = calendar.alarmTimes(
            from: instant("2026-11-03T08:52:00Z"), to: instant("2026-11-03T09:01:00Z"), zone: .utc)
        XCTAssertEqual(fires(morning), ["2026-11-03T08:55:00Z", "2026-11-03T09:00:00Z"])
        XCTAssertEqual(morning.first?.recurrenceID?.icsValue, "20261103T090000Z")
        // One instance's own.
        var options = ExpansionOptions()
        options.viewerZone = .utc
        let first = try XCTUnwrap(
            calendar.occurrences(from: year.from, to: year.to, options: options).occurrences.first)
        XCTAssertEqual(
            calendar.alarmTimes(of: first, zone: .utc).map(\.alarm.description), ["once", "snoozed"],
            "its own three were acknowledged")
    }

    func testAllDayAlarmsFallOnTheGivenZonesClock() throws {
        let calendar = try calendar(
            """
            BEGIN:VEVENT\r
            UID:birthday\r
            DTSTAMP:20260101T000000Z\r
            DTSTART;VALUE=DATE:20261026\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            DESCRIPTION:the evening before\r
            TRIGGER:-PT6H\r
            END:VALARM\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            DESCRIPTION:a day before\r
            TRIGGER:-P1D\r
            END:VALARM\r
            END:VEVENT\r

            """)
        let berlin = try CalendarZone("Europe/Berlin")
        // Midnight of the 26th in Berlin is 23:00Z on the 25th; the day before, before the clocks went back, 22:00Z.
        XCTAssertEqual(
            fires(calendar.alarmTimes(from: year.from, to: year.to, zone: berlin)),
            ["2026-10-24T22:00:00Z", "2026-10-25T17:00:00Z"])
    }
}
