import Foundation
import XCTest

/// The daily commands over several calendars: a repeated `--calendar` is a union, and an empty store says where it
/// is and how to fill it.
final class DailyCLITests: StoreCLITestCase {
    func testARepeatedCalendarShowsEachOfThem() throws {
        try icskit(["import", CLI.fixture("demo/work.ics"), "--calendar", "Work", "-q"])
        try icskit(["import", CLI.fixture("demo/family.ics"), "--calendar", "Family", "-q"])
        try icskit(["import", CLI.fixture("hand/tasks.ics"), "--calendar", "Tasks", "-q"])
        let window = ["--from", "2026-11-23", "--to", "+7d", "--tz", "Europe/Berlin", "--no-ids"]
        let both = try icskit(["agenda", "--calendar", "Work", "--calendar", "Family"] + window).stdout
        XCTAssertTrue(both.contains("Sprint planning  (Work)"), both)
        XCTAssertTrue(both.contains("(Family)"), both)
        let work = try icskit(["agenda", "--calendar", "Work"] + window).stdout
        XCTAssertFalse(work.contains("(Family)"), work)
        // The same name twice is that calendar once.
        XCTAssertEqual(try icskit(["agenda", "--calendar", "Work", "--calendar", "Work"] + window).stdout, work)
        let unknown = try icskit(["agenda", "--calendar", "Work", "--calendar", "Nope"] + window, status: 1)
        XCTAssertTrue(unknown.stderr.contains("no calendar \"Nope\""), unknown.stderr)
        let todos = try icskit(["todo", "--calendar", "Work", "--calendar", "Tasks", "--no-ids"]).stdout
        XCTAssertTrue(todos.contains("Write the release notes"), todos)
        XCTAssertFalse(todos.contains("Pay the electricity bill"), todos)
        let all = try icskit(["todo", "--calendar", "Family", "--calendar", "Work", "--no-ids"]).stdout
        XCTAssertTrue(all.contains("Pay the electricity bill") && all.contains("Write the release notes"), all)
    }

    func testAnEmptyStoreSaysWhereItIsAndHowToFillIt() throws {
        let agenda = try icskit(["agenda", "--from", "2026-11-23", "--to", "+7d"]).stdout
        XCTAssertTrue(agenda.hasPrefix("nothing between 2026-11-23T00:00:00 and 2026-11-30T00:00:00\n"), agenda)
        XCTAssertTrue(
            agenda.contains("the store \(store) holds no items yet: icskit import FILE --calendar NAME"), agenda)
        let todos = try icskit(["todo"]).stdout
        XCTAssertTrue(todos.contains("holds no items yet"), todos)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store), "a reading command created the store")
        // A store with items but none in the window says only that.
        try icskit(["import", CLI.fixture("demo/work.ics"), "--calendar", "Work", "-q"])
        let quiet = try icskit(["agenda", "--from", "2020-01-01", "--to", "+1d"]).stdout
        XCTAssertEqual(quiet, "nothing between 2020-01-01T00:00:00 and 2020-01-02T00:00:00\n")
    }
}
