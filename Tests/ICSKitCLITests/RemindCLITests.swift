import Foundation
import XCTest

/// `icskit remind`: alarms due in a window (relative, absolute, repeated; todos by their due time), run through
/// --exec, and fired at their time by --watch.
final class RemindCLITests: StoreCLITestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        let file = path("alarms.ics")
        try """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:standup@test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;TZID=Europe/Berlin:20261130T090000\r
        DURATION:PT15M\r
        RRULE:FREQ=DAILY;COUNT=5\r
        SUMMARY:Standup\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Standup\r
        TRIGGER:-PT10M\r
        REPEAT:2\r
        DURATION:PT5M\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:flight@test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20261201T060000Z\r
        DTEND:20261201T080000Z\r
        SUMMARY:Flight to Lisbon\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Check in online\r
        TRIGGER;VALUE=DATE-TIME:20261130T060000Z\r
        END:VALARM\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Leave for the airport\r
        TRIGGER;RELATED=END:-PT4H\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:off@test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20261130T080000Z\r
        DURATION:PT1H\r
        SUMMARY:Cancelled call\r
        STATUS:CANCELLED\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Call\r
        TRIGGER:-PT5M\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VTODO\r
        UID:essay@test\r
        DTSTAMP:20260101T000000Z\r
        DUE:20261204T170000Z\r
        SUMMARY:Essay\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Essay\r
        TRIGGER:-P1D\r
        END:VALARM\r
        END:VTODO\r
        END:VCALENDAR\r

        """.write(toFile: file, atomically: true, encoding: .utf8)
        try icskit(["import", file, "--calendar", "Own", "-q"])
    }

    func remind(_ now: String, _ within: String) throws -> String {
        try icskit(["remind", "--now", now, "--within", within, "--tz", "UTC"]).stdout
    }

    func testAlarmsDueInTheWindowWithRepeatsAbsoluteTriggersAndTodos() throws {
        XCTAssertEqual(
            try remind("2026-11-30T07:45:00Z", "15m"),
            """
            2026-11-30 07:50  Standup at 08:00 (in 10 minutes)  (Own)
            2026-11-30 07:55  Standup at 08:00 (in 5 minutes)  (Own)

            """)
        // The cancelled call's alarm (07:55) is not there; the third repeat is at 08:00, outside [07:45, 08:00).
        XCTAssertEqual(
            try remind("2026-11-30T05:59:00Z", "2m"),
            "2026-11-30 06:00  Flight to Lisbon: Check in online at 06:00 (in 1 day)  (Own)\n")
        XCTAssertEqual(
            try remind("2026-12-01T03:30:00Z", "1h"),
            "2026-12-01 04:00  Flight to Lisbon: Leave for the airport at 06:00 (in 2 hours)  (Own)\n")
        XCTAssertEqual(try remind("2026-12-03T16:30:00Z", "1h"), "2026-12-03 17:00  Essay at 17:00 (in 1 day)  (Own)\n")
        XCTAssertEqual(
            try remind("2026-12-10T00:00:00Z", "1d"), "no alarms between 2026-12-10 00:00 and 2026-12-11 00:00\n")
        // A day of the daily standup: three times (10, 5 and 0 minutes before).
        let day = try remind("2026-12-02T00:00:00Z", "1d")
        XCTAssertEqual(day.components(separatedBy: "Standup at 08:00").count - 1, 3, day)

        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(
                with: Data(
                    try icskit(["remind", "--now", "2026-11-30T07:45:00Z", "--json", "--tz", "UTC"]).stdout.utf8))
                as? [[String: Any]])
        XCTAssertEqual(json.map { $0["at"] as? String }, ["2026-11-30T07:50:00Z", "2026-11-30T07:55:00Z"])
        XCTAssertEqual(json.first?["uid"] as? String, "standup@test")
        XCTAssertEqual(json.first?["summary"] as? String, "Standup")
    }

    func testExecRunsACommandPerAlarmWithItsText() throws {
        let log = path("fired.txt")
        try icskit([
            "remind", "--now", "2026-11-30T07:45:00Z", "--within", "15m", "--tz", "UTC", "--exec",
            "note() { printf '%s|%s|%s\\n' \"$ICSKIT_ALARM_UID\" \"$1\" \"$2\" >> '\(log)'; }; note",
        ])
        let lines = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertEqual(
            lines,
            "standup@test|--|Standup at 08:00 (in 10 minutes)\nstandup@test|--|Standup at 08:00 (in 5 minutes)\n",
            "the text after --, so that no title is ever an option of the command")
    }

    /// SECURITY.md's sentence, held: --exec is the user's own command line, run by /bin/sh; the alarm's text, which
    /// comes from a calendar, reaches it only as an argument after `--`, never as shell code.
    func testExecNeverRunsTheAlarmsTextAsShell() throws {
        let marker = path("pwned")
        let file = path("hostile.ics")
        try """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:hostile@test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20261202T100000Z\r
        SUMMARY:$(touch \(marker)); `touch \(marker)` ' " && touch \(marker)\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:x\r
        TRIGGER:-PT10M\r
        END:VALARM\r
        END:VEVENT\r
        END:VCALENDAR\r

        """.write(toFile: file, atomically: true, encoding: .utf8)
        try icskit(["import", file, "--calendar", "Hostile", "-q"])
        let log = path("text.txt")
        try icskit([
            "remind", "--now", "2026-12-02T09:45:00Z", "--within", "10m", "--tz", "UTC", "--calendar", "Hostile",
            "--exec", "printf '%s\\n' >> '\(log)'",
        ])
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "the title ran as shell code")
        let text = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertTrue(text.contains("$(touch \(marker)); `touch \(marker)` ' \" && touch \(marker)"), text)
    }

    func testWatchFiresAnAlarmAtItsTime() throws {
        // An event two seconds after its alarm, which is two seconds from now.
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        let start = Date().addingTimeInterval(4)
        let stamp = formatter.string(from: start).replacingOccurrences(of: "-", with: "")
            .replacingOccurrences(of: ":", with: "")
        let file = path("soon.ics")
        try """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:soon@test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:\(stamp)\r
        DURATION:PT1M\r
        SUMMARY:Tea\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Tea\r
        TRIGGER:-PT2S\r
        END:VALARM\r
        END:VEVENT\r
        END:VCALENDAR\r

        """.write(toFile: file, atomically: true, encoding: .utf8)
        try icskit(["import", file, "--calendar", "Soon", "-q"])
        let run = try icskit(["remind", "--watch", "--calendar", "Soon", "--stop-after", "6", "--tz", "UTC"])
        XCTAssertTrue(run.stdout.contains("Tea at "), run.stdout)
        XCTAssertEqual(run.stdout.components(separatedBy: "Tea at").count - 1, 1, "fired once: \(run.stdout)")
    }
}
