import Foundation
import XCTest

/// Items named by handles: a UID, a unique UID prefix, or words of the summary; ambiguity lists the candidates.
final class HandlesCLITests: StoreCLITestCase {
    func todo(_ uid: String, _ summary: String) -> String {
        "BEGIN:VTODO\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:\(summary)\r\nDUE:20261130T170000Z\r\n"
            + "END:VTODO\r\n"
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        func write(_ name: String, _ body: String) throws -> String {
            let file = directory.appendingPathComponent(name)
            try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body + "END:VCALENDAR\r\n")
                .write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }
        let school = try write(
            "school.ics",
            todo("1e78a2b4@school", "Math homework") + todo("1e78ffff@school", "Math exam")
                + "BEGIN:VEVENT\r\nUID:dentist-1@home\r\nDTSTAMP:20260101T000000Z\r\n"
                + "DTSTART:20261124T090000Z\r\nSUMMARY:Dentist\r\nEND:VEVENT\r\n")
        let home = try write("home.ics", todo("9c0ffee0@home", "Buy math book"))
        try icskit(["import", school, "--calendar", "School"])
        try icskit(["import", home, "--calendar", "Home"])
    }

    func openTodos() throws -> String { try icskit(["todo", "--tz", "UTC", "--no-ids"]).stdout }

    func testAUniquePrefixOrSummaryNamesOneTodo() throws {
        XCTAssertTrue(try icskit(["done", "1e78a2"]).stdout.contains("done: Math homework"))
        XCTAssertFalse(try openTodos().contains("Math homework"))
        XCTAssertTrue(try icskit(["done", "math EXAM"]).stdout.contains("done: Math exam"))
        XCTAssertTrue(try icskit(["done", "book"]).stdout.contains("done: Buy math book"))
        XCTAssertEqual(try openTodos(), "no open todos\n")
    }

    func testAnAmbiguousHandleListsTheCandidatesAndChangesNothing() throws {
        for handle in ["1e78", "math"] {
            let run = try icskit(["done", handle], status: 1)
            XCTAssertTrue(run.stderr.contains("\"\(handle)\" matches"), run.stderr)
            XCTAssertTrue(run.stderr.contains("Math homework  (School, 2026-11-30)"), run.stderr)
            XCTAssertTrue(run.stderr.contains("Math exam"), run.stderr)
            XCTAssertFalse(run.stderr.contains("Usage:"), run.stderr)
        }
        XCTAssertTrue(try icskit(["done", "math"], status: 1).stderr.contains("Buy math book"))
        // --calendar narrows the search; "math" in Home is one todo.
        XCTAssertTrue(try icskit(["done", "math", "--calendar", "Home"]).stdout.contains("done: Buy math book"))
        let open = try openTodos()
        XCTAssertTrue(open.contains("Math homework") && open.contains("Math exam"), open)
    }

    func testHandlesNameOnlyTheirKindAndRmTakesThemToo() throws {
        let notATodo = try icskit(["done", "Dentist"], status: 1)
        XCTAssertTrue(notATodo.stderr.contains("no todo matches \"Dentist\""), notATodo.stderr)
        XCTAssertTrue(try icskit(["rm", "dentist"]).stdout.contains("removed: Dentist"))
        XCTAssertTrue(try icskit(["rm", "nothing like it"], status: 1).stderr.contains("no item matches"))
        XCTAssertTrue(
            try icskit(["log", "exam", "--duration", "25m"]).stdout.contains("logged 25 minutes on Math exam"))
    }

    func testTextListsShowHandlesThatTheCommandsTake() throws {
        let listed = try icskit(["todo", "--tz", "UTC"]).stdout
        let line = try XCTUnwrap(listed.split(separator: "\n").first { $0.contains("Math homework") })
        let handle = try XCTUnwrap(line.components(separatedBy: "id:").last)
        XCTAssertTrue(handle.hasPrefix("1e78a"), String(line))
        XCTAssertTrue("1e78a2b4@school".hasPrefix(handle), handle)
        XCTAssertTrue(try icskit(["done", "id:" + handle]).stdout.contains("done: Math homework"))
        let agenda = try icskit(["agenda", "--from", "2026-11-24", "--to", "+1d", "--tz", "UTC"]).stdout
        XCTAssertTrue(agenda.contains("Dentist  (School)  id:dentis"), agenda)
        let bare = try icskit(["agenda", "--from", "2026-11-24", "--to", "+1d", "--tz", "UTC", "--no-ids"]).stdout
        XCTAssertTrue(bare.contains("Dentist  (School)\n"), bare)
        XCTAssertFalse(try icskit(["todo", "--tz", "UTC", "--no-ids"]).stdout.contains("id:"))
    }
}
