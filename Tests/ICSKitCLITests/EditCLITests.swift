import Foundation
import XCTest

/// `icskit edit`, and `edit --instance` / `rm --instance` for one instance of a series ("this event only").
final class EditCLITests: StoreCLITestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try icskit(["import", CLI.fixture("hand/agenda-marks.ics"), "--calendar", "Work", "-q"])
        let todo =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VTODO\r\nUID:essay@x\r\n"
            + "DTSTAMP:20260101T000000Z\r\nSUMMARY:Essay\r\nDUE:20261130T170000Z\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let file = directory.appendingPathComponent("todo.ics")
        try todo.write(to: file, atomically: true, encoding: .utf8)
        try icskit(["import", file.path, "--calendar", "School", "-q"])
    }

    func week() throws -> String {
        try icskit(["agenda", "--week", "2026-W48", "--tz", "UTC", "--no-ids"]).stdout
    }

    func exported() throws -> String {
        try icskit(["export"]).stdout.replacingOccurrences(of: "\r\n ", with: "")
    }

    func testANewStartMovesTheEndWithItAndEveryFieldChanges() throws {
        let edited = try icskit(
            [
                "edit", "conference", "--start", "2026-11-25 09:00", "--tz", "UTC", "--location", "Hall B", "--alarm",
                "none",
            ])
        XCTAssertTrue(edited.stdout.contains("edited: Conference"), edited.stdout)
        let ics = try exported()
        // The end moved with the start: 2 days and 8 hours, as before.
        XCTAssertTrue(ics.contains("DTSTART:20261125T090000Z") && ics.contains("DTEND:20261127T170000Z"), ics)
        XCTAssertTrue(ics.contains("LOCATION:Hall B"), ics)
        XCTAssertFalse(ics.contains("BEGIN:VALARM"), ics)
        XCTAssertTrue(try week().contains("09:00 →      Conference (until Fri 2026-11-27 17:00)  (Work)"))

        try icskit(["edit", "essay", "--due", "2026-12-02", "--priority", "1", "--category", "English"])
        let todos = try icskit(["todo", "--tz", "UTC", "--no-ids"]).stdout
        XCTAssertTrue(todos.contains("[ ] P1 Essay  due 2026-12-02  [English]  (School)"), todos)
        XCTAssertTrue(try exported().contains("SEQUENCE:1"))
    }

    func testOneInstanceIsChangedOrRemovedAndTheSeriesStays() throws {
        try icskit([
            "edit", "standup", "--instance", "2026-11-26", "--start", "2026-11-26 09:00", "--summary",
            "Standup (moved)",
            "--tz", "UTC",
        ])
        try icskit(["rm", "standup", "--instance", "2026-11-27", "--tz", "UTC"])
        let agenda = try week()
        XCTAssertTrue(agenda.contains("Thu 2026-11-26\n"), agenda)
        XCTAssertTrue(agenda.contains("  09:00–09:15  Standup (moved) ⟳ changed  (Work)"), agenda)
        XCTAssertFalse(agenda.contains("Fri 2026-11-27\n  08:00–08:15  Standup"), agenda)
        XCTAssertTrue(agenda.contains("Mon 2026-11-23\n  08:00–08:15  Standup ⟳  (Work)"), agenda)
        let ics = try exported()
        XCTAssertTrue(ics.contains("EXDATE:20261127T080000Z"), ics)
        XCTAssertTrue(ics.contains("RECURRENCE-ID:20261126T080000Z"), ics)
        // The existing override (the 25th) is edited in place, not doubled.
        try icskit(["edit", "standup", "--instance", "2026-11-25", "--summary", "Standup (late again)", "--tz", "UTC"])
        let again = try exported()
        XCTAssertEqual(again.components(separatedBy: "RECURRENCE-ID:20261125T080000Z").count, 2, again)
        XCTAssertTrue(again.contains("SUMMARY:Standup (late again)"), again)
        XCTAssertTrue(try icskit(["check-store"]).stdout.contains("integrity: ok"))
    }

    func testMistakesAreSaidPlainly() throws {
        let nothing = try icskit(["edit", "essay"], status: 2)
        XCTAssertTrue(nothing.stderr.contains("say what to change"), nothing.stderr)
        let noInstance = try icskit(
            ["edit", "standup", "--instance", "2026-12-25", "--summary", "x", "--tz", "UTC"], status: 1)
        XCTAssertTrue(noInstance.stderr.contains("no instance on 2026-12-25"), noInstance.stderr)
        XCTAssertFalse(noInstance.stderr.contains("Usage:"), noInstance.stderr)
        XCTAssertTrue(try icskit(["edit", "nobody", "--summary", "x"], status: 1).stderr.contains("no item matches"))
    }
}
