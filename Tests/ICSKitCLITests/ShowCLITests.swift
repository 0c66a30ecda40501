import Foundation
import XCTest

/// `icskit show`: one item in full, from real exports (Outlook's meeting, Apple's structured location) and a series
/// with an override, an exception and alarms.
final class ShowCLITests: StoreCLITestCase {
    let now = "2026-11-25T12:00:00Z"

    override func setUpWithError() throws {
        try super.setUpWithError()
        let own = path("own.ics")
        try """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:standup@own\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;TZID=Europe/Berlin:20261130T090000\r
        DURATION:PT15M\r
        RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10\r
        EXDATE;TZID=Europe/Berlin:20261207T090000\r
        SUMMARY:Standup\r
        LOCATION:Room 4\r
        STATUS:CONFIRMED\r
        CATEGORIES:Work\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Standup\r
        TRIGGER:-PT10M\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:standup@own\r
        DTSTAMP:20260101T000000Z\r
        RECURRENCE-ID;TZID=Europe/Berlin:20261202T090000\r
        DTSTART;TZID=Europe/Berlin:20261202T093000\r
        DURATION:PT15M\r
        SUMMARY:Retro instead\r
        END:VEVENT\r
        BEGIN:VTODO\r
        UID:essay@own\r
        DTSTAMP:20260101T000000Z\r
        DUE;VALUE=DATE:20261204\r
        SUMMARY:Essay\r
        PRIORITY:1\r
        PERCENT-COMPLETE:40\r
        DESCRIPTION:Two pages\\nwith sources\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Essay\r
        TRIGGER:-P1D\r
        END:VALARM\r
        END:VTODO\r
        END:VCALENDAR\r

        """.write(toFile: own, atomically: true, encoding: .utf8)
        try icskit(["import", own, "--calendar", "Own", "-q"])
        try icskit(["import", CLI.fixture("corpus-copies/outlook-2010.ics"), "--calendar", "Work", "-q"])
        try icskit(["import", CLI.fixture("hand/apple-structured-location.ics"), "--calendar", "Trips", "-q"])
        try icskit(["categories", "--set-color", "Work", "#3366FF"])
    }

    func show(_ arguments: [String]) throws -> String {
        try icskit(["show"] + arguments + ["--now", now]).stdout
    }

    func testASeriesShowsItsRuleNextInstancesChangesAndAlarmsInTheViewersZone() throws {
        let text = try show(["standup", "--tz", "UTC"])
        let expected = """
            Standup
              when        2026-11-30 08:00 (2026-11-30 09:00 Europe/Berlin) → 2026-11-30 08:15
              repeats     every week on Monday and Wednesday, 10 times
              except      2026-12-07 08:00 (2026-12-07 09:00 Europe/Berlin)
              next        2026-11-30 08:00 · 2026-12-02 08:30 · 2026-12-09 08:00 · 2026-12-14 08:00 · 2026-12-16 08:00
              changed     2026-12-02 08:00 (2026-12-02 09:00 Europe/Berlin): starts 2026-12-02 08:30 \
            (2026-12-02 09:30 Europe/Berlin), "Retro instead"
              status      confirmed
              location    Room 4
              alarm       2026-11-30 07:50  10 minutes before the start (display)
              categories  Work (#3366FF)
              calendar    Own  (from \(path("own.ics")))
              uid         standup@own

            """
        XCTAssertEqual(text, expected)
        // In the item's own zone the times are shown once; later, the next instances move on.
        let berlin = try icskit(["show", "standup", "--tz", "Europe/Berlin", "--now", "2026-12-10T00:00:00Z"]).stdout
        XCTAssertTrue(berlin.contains("  when        2026-11-30 09:00 → 2026-11-30 09:15\n"), berlin)
        XCTAssertTrue(berlin.contains("  next        2026-12-14 09:00 · 2026-12-16 09:00 · 2026-12-21 09:00"), berlin)
        XCTAssertTrue(berlin.contains("  alarm       2026-12-14 08:50  10 minutes before the start"), berlin)
    }

    func testAMeetingShowsPeopleWithRoleAndAnswerAndATodoItsDueTimeAndProgress() throws {
        let meeting = try show(["team meeting", "--tz", "America/New_York"])
        XCTAssertTrue(meeting.contains("  location    Auditorium 16\n"), meeting)
        XCTAssertTrue(meeting.contains("  organizer   Smith, Bob <bobsmith@example.com>\n"), meeting)
        XCTAssertTrue(
            meeting.contains("  attendee    Doe, John <johndoe@example.com>  optional, no answer yet\n"), meeting)
        XCTAssertTrue(
            meeting.contains("  attendee    Doe, Jane <janedoe@example.com>  chair, no answer yet\n"), meeting)
        XCTAssertTrue(meeting.contains("  when        2013-06-10 12:00 "), meeting)
        XCTAssertTrue(meeting.contains("    Will include a presentation and food.\n"), meeting)

        let essay = try show(["essay", "--tz", "UTC"])
        XCTAssertEqual(
            essay,
            """
            Essay
              due         2026-12-04
              alarm       2026-12-03 00:00  1 day before the due time (display)
              priority    1
              progress    40 %
              calendar    Own  (from \(path("own.ics")))
              uid         essay@own
              description
                Two pages
                with sources

            """)
        // Apple's location over two lines stays one field: its lines indented, none posing as a field.
        let linz = try show(["linz", "--tz", "UTC"])
        XCTAssertTrue(linz.contains("  location    Hauptstraße 1-5\\n4041 Linz\n"), linz)
    }

    func testJSONHoldsEveryFieldAndRawTheStoredLines() throws {
        let data = Data(try show(["standup", "--tz", "UTC", "--json"]).utf8)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(object["uid"] as? String, "standup@own")
        XCTAssertEqual(object["component"] as? String, "VEVENT")
        XCTAssertEqual(object["start"] as? String, "2026-11-30 08:00 (2026-11-30 09:00 Europe/Berlin)")
        XCTAssertEqual(object["start_zone"] as? String, "Europe/Berlin")
        XCTAssertEqual(object["status"] as? String, "CONFIRMED")
        let rules = try XCTUnwrap(object["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.first?["rrule"] as? String, "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10")
        XCTAssertEqual((object["next"] as? [String])?.count, 5)
        let overrides = try XCTUnwrap(object["overrides"] as? [[String: Any]])
        XCTAssertEqual(overrides.first?["summary"] as? String, "Retro instead")
        let categories = try XCTUnwrap(object["categories"] as? [[String: Any]])
        XCTAssertEqual(categories.first?["color"] as? String, "#3366FF")
        let alarms = try XCTUnwrap(object["alarms"] as? [[String: Any]])
        XCTAssertEqual(alarms.first?["at"] as? String, "2026-11-30 07:50")

        let people = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(try show(["team meeting", "--json"]).utf8)) as? [String: Any])
        let attendees = try XCTUnwrap(people["attendees"] as? [[String: Any]])
        XCTAssertEqual(attendees.map { $0["address"] as? String }, ["johndoe@example.com", "janedoe@example.com"])
        XCTAssertEqual(attendees.map { $0["role"] as? String }, ["OPT-PARTICIPANT", "CHAIR"])

        let raw = try show(["standup", "--raw"])
        XCTAssertTrue(raw.hasPrefix("BEGIN:VEVENT\r\nUID:standup@own\r\n"), raw)
        XCTAssertEqual(raw.components(separatedBy: "BEGIN:VEVENT").count - 1, 2, raw)
        XCTAssertTrue(raw.contains("RECURRENCE-ID;TZID=Europe/Berlin:20261202T090000\r\n"), raw)
    }

    func testAHandleThatNamesNothingOrSeveralItemsFails() throws {
        XCTAssertTrue(try icskit(["show", "nothing like it"], status: 1).stderr.contains("no item matches"))
        let several = try icskit(["show", "a"], status: 1)
        XCTAssertTrue(several.stderr.contains("matches"), several.stderr)
        XCTAssertEqual(try icskit(["show", "standup", "--json", "--raw"], status: 2).status, 2)
    }
}
