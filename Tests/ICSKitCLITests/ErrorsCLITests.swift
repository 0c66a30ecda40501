import Foundation
import XCTest

/// Errors that help: a runtime error is one line and exit 1, a usage error exit 2 with the subcommand's usage;
/// an unknown `--calendar` is an error; named days work in every window; counts are worded right.
final class ErrorsCLITests: StoreCLITestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        let calendar =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
            + "BEGIN:VEVENT\r\nUID:e1@test\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20261124T090000Z\r\n"
            + "DTEND:20261124T100000Z\r\nSUMMARY:Dentist\r\nEND:VEVENT\r\n"
            + "BEGIN:VTODO\r\nUID:t1@test\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Math homework\r\nEND:VTODO\r\n"
            + "END:VCALENDAR\r\n"
        try calendar.write(to: directory.appendingPathComponent("home.ics"), atomically: true, encoding: .utf8)
        try icskit(["import", path("home.ics"), "--calendar", "Home"])
    }

    /// One line on standard error, naming the problem, and no usage text.
    func assertRuntimeError(_ run: CLI.Run, mentions text: String, file: StaticString = #filePath, line: UInt = #line) {
        let lines = run.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, run.stderr, file: file, line: line)
        XCTAssertTrue(run.stderr.contains(text), run.stderr, file: file, line: line)
        XCTAssertFalse(run.stderr.contains("Usage:"), run.stderr, file: file, line: line)
    }

    func testRuntimeErrorsAreOneLineAndExitOne() throws {
        assertRuntimeError(try icskit(["done", "no-such-uid"], status: 1), mentions: "no-such-uid")
        assertRuntimeError(try icskit(["rm", "no-such-uid"], status: 1), mentions: "no-such-uid")
        assertRuntimeError(try icskit(["agenda", "--from", "someday"], status: 1), mentions: "someday")
        assertRuntimeError(try icskit(["agenda", "--tz", "Mars/Olympus"], status: 1), mentions: "Mars/Olympus")
        assertRuntimeError(try icskit(["agenda", "--month", "2026-13"], status: 1), mentions: "2026-13")
        let convert = try CLI.run(["convert", path("home.ics"), "--to", "csv", "--tz", "Mars/Olympus"])
        XCTAssertEqual(convert.status, 1)
        assertRuntimeError(convert, mentions: "Mars/Olympus")
        assertRuntimeError(
            try icskit(["import", path("home.ics"), "--tz", "Mars/Olympus"], status: 1), mentions: "Mars/Olympus")
        let missing = try CLI.run(["agenda", path("missing.ics")])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("missing.ics"), missing.stderr)
        XCTAssertFalse(missing.stderr.contains("Usage:"), missing.stderr)
    }

    /// A file with no calendar in it imports nothing and says so, exit 1; the other files of the batch are imported.
    func testImportOfAFileWithNoCalendarDataExitsOneAndTheBatchGoesOn() throws {
        let cases = [
            ("garbage.ics", "this is not a calendar\n"), ("empty.ics", ""), ("array.json", "[1, 2, 3]\n"),
            (
                "dtd.xml",
                "<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY a \"b\">]>\n"
                    + "<icalendar xmlns=\"urn:ietf:params:xml:ns:icalendar-2.0\"><vcalendar/></icalendar>\n"
            ),
        ]
        for (name, text) in cases {
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
            let alone = try icskit(["import", path(name), "--calendar", "Junk"], status: 1)
            XCTAssertTrue(alone.stderr.contains("no calendar data in \(path(name))"), alone.stderr)
        }
        let batch = try icskit(
            ["import", path("garbage.ics"), path("home.ics"), path("empty.ics"), "--calendar", "Batch", "--json"],
            status: 1)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(batch.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["added"] as? Int, 2, "the good file of the batch was imported")
        XCTAssertEqual(report["noCalendarData"] as? [String], [path("garbage.ics"), path("empty.ics")])
        let agenda = try icskit(["agenda", "--calendar", "Batch", "--from", "2026-11-24", "--to", "2026-11-25"])
        XCTAssertTrue(agenda.stdout.contains("Dentist"), agenda.stdout)
        XCTAssertEqual(try icskit(["import", path("home.ics"), "--calendar", "Home"]).status, 0)
    }

    func testUsageErrorsExitTwoWithTheSubcommandsUsage() throws {
        let contradiction = try icskit(["agenda", "--week", "this", "--today"], status: 2)
        XCTAssertTrue(contradiction.stderr.contains("contradict"), contradiction.stderr)
        XCTAssertTrue(contradiction.stderr.contains("Usage: icskit agenda"), contradiction.stderr)
        let unknown = try icskit(["todo", "--bogus"], status: 2)
        XCTAssertTrue(unknown.stderr.contains("Usage: icskit todo"), unknown.stderr)
        try icskit(["export", "--today", "--from", "2026-11-23"], status: 2)
        try icskit(["agenda", "--month", "next", "--week", "this"], status: 2)
        try icskit(["agenda", "--month", "next", "--to", "+2d"], status: 2)
        // Help is not an error.
        XCTAssertTrue(try icskit(["agenda", "--help"]).stdout.contains("USAGE: icskit agenda"))
    }

    /// Every subcommand's examples fit 80 columns, as help prints them where it cannot ask the terminal: a line
    /// of an example is never broken by the wrapping, a long one goes on after a shell continuation (`\`).
    func testHelpExamplesFitEightyColumns() throws {
        let root = try icskit(["--help"]).stdout
        let names = root.components(separatedBy: "SUBCOMMANDS:").last!.split(separator: "\n").compactMap { line in
            line.hasPrefix("  ") ? line.split(separator: " ").first.map(String.init) : nil
        }.filter { $0 != "help" }
        XCTAssertGreaterThan(names.count, 20, root)
        for name in names {
            let help = try icskit([name, "--help"]).stdout
            guard let examples = help.components(separatedBy: "Examples:\n").dropFirst().first else { continue }
            for line in examples.components(separatedBy: "\n\n")[0].split(separator: "\n") {
                XCTAssertTrue(line.hasPrefix("  "), "icskit \(name) --help: an example broken at 80 columns: \(line)")
                XCTAssertLessThanOrEqual(line.count, 80, "icskit \(name) --help: \(line)")
            }
        }
    }

    func testAnUnknownCalendarIsAnErrorEverywhere() throws {
        for command in [["agenda"], ["todo"], ["export"], ["rm", "e1@test"]] {
            let run = try icskit(command + ["--calendar", "Hom"], status: 1)
            assertRuntimeError(run, mentions: "no calendar \"Hom\"")
            XCTAssertTrue(run.stderr.contains("it has: Home"), run.stderr)
        }
        // The item is still there, and the right name works.
        XCTAssertTrue(try icskit(["agenda", "--calendar", "Home", "--from", "2026-11-24"]).stdout.contains("Dentist"))
        XCTAssertTrue(try icskit(["agenda", "--calendar", "Home", "--month", "2026-11"]).stdout.contains("Dentist"))
        XCTAssertFalse(try icskit(["agenda", "--calendar", "Home", "--month", "2026-12"]).stdout.contains("Dentist"))
    }

    func testNamedDaysOpenEveryWindow() throws {
        let today = try icskit(["agenda", "--from", "today", "--to", "+1d", "--tz", "UTC"]).stdout
        let tomorrow = try icskit(["agenda", "--from", "tomorrow", "--tz", "UTC"]).stdout
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let now = Date()
        XCTAssertTrue(today.contains(formatter.string(from: now)), today)
        XCTAssertTrue(tomorrow.contains(formatter.string(from: now.addingTimeInterval(86_400))), tomorrow)
        // A weekday is that day when it is today, else the next one: always within the coming week.
        for day in ["monday", "tue", "Sunday"] {
            let run = try icskit(["agenda", "--from", day, "--to", "+1d", "--tz", "UTC", "--json"])
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        let friday = try icskit(["export", "--from", "friday 14:00", "--to", "+1d", "--tz", "UTC"])
        XCTAssertTrue(friday.stdout.contains("BEGIN:VCALENDAR"), friday.stdout)
    }

    func testCountsAreWordedForOne() throws {
        let check = try icskit(["check-store"])
        XCTAssertTrue(check.stdout.contains("Home: 2 items"), check.stdout)
        let single =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:x@test\r\n"
            + "DTSTAMP:20260101T000000Z\r\nDTSTART:20261125T090000Z\r\nSUMMARY:Solo\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        try single.write(to: directory.appendingPathComponent("solo.ics"), atomically: true, encoding: .utf8)
        try icskit(["import", path("solo.ics"), "--calendar", "Solo"])
        XCTAssertTrue(try icskit(["check-store"]).stdout.contains("Solo: 1 item\n"))
        let validated = try CLI.run(["validate", path("solo.ics")])
        XCTAssertTrue(
            (validated.stdout + validated.stderr).contains("0 errors, 0 warnings in 1 file"), validated.stderr)
    }
}
