import Foundation
import XCTest

/// `icskit add` with a place, a description, a link, whole days and repetition, and `edit --repeat`/`--url`, on a
/// store that already holds a real Google export.
final class AddCLITests: StoreCLITestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try icskit(["import", CLI.fixture("corpus-copies/google-issue52.ics"), "--calendar", "Work", "-q"])
    }

    func exported() throws -> String {
        try icskit(["export", "--calendar", "Work"]).stdout.replacingOccurrences(of: "\r\n ", with: "")
    }

    func agenda(_ from: String, _ to: String, tz: String = "Europe/Berlin") throws -> [String] {
        try icskit([
            "agenda", "--from", from, "--to", to, "--tz", tz, "--no-ids", "--component", "event,todo",
        ]).stdout.split(separator: "\n").map(String.init)
    }

    func testAddTakesAPlaceADescriptionALinkARuleAndWholeDays() throws {
        try icskit([
            "add", "event", "Stand-up", "--start", "2026-11-23 09:15", "--duration", "15m", "--tz", "Europe/Berlin",
            "--repeat", "FREQ=WEEKLY;BYDAY=MO,WE", "--until", "2026-12-09", "--location", "Room R",
            "--description", "Line one\\nline two", "--url", "https://example.com/standup", "--calendar", "Work",
        ])
        try icskit([
            "add", "event", "Holiday", "--start", "2026-12-24", "--end", "2026-12-26", "--all-day", "--calendar",
            "Work",
        ])
        try icskit([
            "add", "event", "Swim", "--start", "2026-11-27 17:00", "--tz", "UTC", "--repeat", "weekly", "--count", "3",
            "--calendar", "Work",
        ])
        try icskit([
            "add", "todo", "Pay rent", "--due", "2026-12-01", "--repeat", "monthly", "--count", "2", "--calendar",
            "Work",
        ])
        let ics = try exported()
        // UNTIL of a zoned series is UTC, and a bare day means through its end in the given zone.
        for line in [
            "RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20261209T225959Z", "LOCATION:Room R",
            "URL:https://example.com/standup",
            "DESCRIPTION:Line one\\nline two", "DTSTART;VALUE=DATE:20261224", "DTEND;VALUE=DATE:20261227",
            "RRULE:FREQ=WEEKLY;COUNT=3", "RRULE:FREQ=MONTHLY;COUNT=2", "DUE;VALUE=DATE:20261201",
        ] {
            XCTAssertTrue(ics.contains(line + "\r\n"), "\(line) not in:\n\(ics)")
        }
        let lines = try agenda("2026-11-23", "2027-01-05")
        XCTAssertEqual(lines.filter { $0.contains("Stand-up") }.count, 6, lines.joined(separator: "\n"))  // to Dec 9
        XCTAssertEqual(lines.filter { $0.contains("Holiday") }.count, 3, lines.joined(separator: "\n"))
        XCTAssertEqual(lines.filter { $0.contains("Swim") }.count, 3, lines.joined(separator: "\n"))
        XCTAssertEqual(lines.filter { $0.contains("Pay rent") }.count, 2, lines.joined(separator: "\n"))
        let shown = try icskit(["show", "Stand-up", "--tz", "Europe/Berlin"]).stdout
        for part in ["Room R", "https://example.com/standup", "every week on Monday and Wednesday"] {
            XCTAssertTrue(shown.contains(part), "\(part) not in:\n\(shown)")
        }

        // recurring-ical-events reads the same instances from what the store exports.
        try CLI.requirePythonTools()
        let file = path("work.ics")
        try icskit(["export", "--calendar", "Work", "-o", file])
        XCTAssertEqual(
            try CLI.agendaLines(file, from: "2026-11-01", to: "2027-02-01"),
            try CLI.recurringICalEventsLines(file, from: "2026-11-01", to: "2027-02-01"))
    }

    func testEditRepeatsASeriesEndsItAndSetsALink() throws {
        try icskit(["add", "event", "Swim", "--start", "2026-11-27 17:00", "--tz", "UTC", "--calendar", "Work"])
        try icskit(["edit", "Swim", "--repeat", "weekly", "--until", "2026-12-11", "--tz", "UTC"])
        XCTAssertEqual(try agenda("2026-11-23", "2027-01-05", tz: "UTC").filter { $0.contains("Swim") }.count, 3)
        XCTAssertTrue(try exported().contains("RRULE:FREQ=WEEKLY;UNTIL=20261211T235959Z\r\n"))
        try icskit(["edit", "Swim", "--repeat", "none", "--url", "https://example.com/pool"])
        XCTAssertEqual(try agenda("2026-11-23", "2027-01-05", tz: "UTC").filter { $0.contains("Swim") }.count, 1)
        let ics = try exported()
        XCTAssertFalse(ics.contains("RRULE:FREQ=WEEKLY;UNTIL"), ics)
        XCTAssertTrue(ics.contains("URL:https://example.com/pool\r\n"), ics)
    }

    func testRepetitionThatCannotBeMeantIsAUsageError() throws {
        let start = ["--start", "2026-11-27 17:00", "--calendar", "Work"]
        for arguments in [
            ["add", "event", "X", "--repeat", "weekly", "--until", "2026-12-01", "--count", "2"] + start,
            ["add", "event", "X", "--repeat", "FREQ=SOMETIMES"] + start,
            ["add", "event", "X", "--repeat", "none"] + start,
            ["add", "event", "X", "--count", "2"] + start,
            ["add", "event", "X", "--repeat", "weekly", "--count", "0"] + start,
        ] {
            let run = try icskit(arguments, status: 2)
            XCTAssertTrue(run.stderr.contains("--"), run.stderr)
        }
        // A day lasts whole days (RFC 5545 §3.8.2.5): a DATE start with an hour-long DURATION is refused.
        let partDay = try icskit(
            ["add", "event", "X", "--start", "2026-12-01", "--duration", "2h", "--calendar", "Work"], status: 1)
        XCTAssertTrue(partDay.stderr.contains("an all-day event lasts whole days"), partDay.stderr)
        try icskit(["add", "event", "Swim", "--repeat", "weekly"] + start)
        try icskit(["edit", "Swim", "--instance", "2026-12-04", "--repeat", "daily"], status: 2)
    }
}
