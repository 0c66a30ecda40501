import CalendarModel
import GRDB
import XCTest

@testable import CalendarStore

/// An import inserts its items in bulk (schema v26): the calendar's generation moves once for all of them, not once
/// per item through the insert trigger, and the undo log holds no row per item for the calendar (an update of the
/// generation alone is not logged, and undo moves it on rather than back) nor for the merge base the import writes
/// (one statement takes it back); any other insert moves the generation through the trigger as before.
final class BulkInsertTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("icskit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// A calendar of `count` events from `first`.
    func events(_ count: Int, from first: Int = 0) -> [ICalendar] {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
        for index in first..<(first + count) {
            text +=
                "BEGIN:VEVENT\r\nUID:e\(index)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260310T170000Z\r\n"
                + "SUMMARY:Event \(index)\r\nEND:VEVENT\r\n"
        }
        return ICS.read(Array((text + "END:VCALENDAR\r\n").utf8)).calendars
    }

    /// A query's rows, read on a read-only connection of its own.
    func rows(_ sql: String, in path: String) throws -> [Row] {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path, configuration: configuration).read { try Row.fetchAll($0, sql: sql) }
    }

    func testAnImportMovesTheGenerationOnceAndLogsNoCalendarRowPerItem() throws {
        let path = folder.appendingPathComponent("store.sqlite").path
        let store = try CalendarStore(path: path)
        // The calendar exists before the import (an import of no items made it), so the undo log's triggers would
        // log each UPDATE of its row.
        _ = try store.importCalendars(events(0), into: "Home", file: "none.ics")
        let before = try XCTUnwrap(store.generations(of: ["Home"])["Home"])

        store.beginUndoStep("import many.ics")
        let report = try store.importCalendars(events(300), into: "Home", file: "many.ics")
        XCTAssertEqual(report.added, 300)
        let after = try XCTUnwrap(store.generations(of: ["Home"])["Home"])
        XCTAssertGreaterThan(after, before, "a feed of the calendar must see that it changed")
        let logged = try rows("SELECT count(*) FROM undoLog WHERE tableName = 'calendar'", in: path)[0][0] as Int
        XCTAssertLessThanOrEqual(logged, 5, "the calendar's row is logged a few times per import, not per item")
        XCTAssertEqual(try rows("SELECT * FROM bulkInsert", in: path).count, 0, "the import takes the calendar off")
        // The merge base the import wrote (a row per item) is logged in one statement.
        XCTAssertEqual(try rows("SELECT count(*) FROM syncState", in: path)[0][0] as Int, 300)
        let baseLog = try rows(
            "SELECT statement FROM undoLog WHERE tableName = 'syncState' AND kind <> 'mark'", in: path)
        XCTAssertEqual(baseLog.count, 1)

        // Undo takes the items out again and moves the generation on: a counter is not put back, so a feed built
        // at the import's generation is not taken for the calendar after the undo.
        XCTAssertNotNil(try store.undo())
        XCTAssertEqual(try rows("SELECT count(*) FROM item", in: path)[0][0] as Int, 0)
        XCTAssertEqual(try rows("SELECT count(*) FROM syncState", in: path)[0][0] as Int, 0)
        let undone = try XCTUnwrap(store.generations(of: ["Home"])["Home"])
        XCTAssertGreaterThan(undone, after)

        // Undo left the calendar with no history, so the next import writes in bulk again; the one after it is a
        // merge into a calendar with a history, whose insert moves the generation through the trigger, as before.
        let again = try store.importCalendars(events(1, from: 300), into: "Home", file: "one.ics")
        XCTAssertEqual(again.added, 1)
        let bulkAgain = try XCTUnwrap(store.generations(of: ["Home"])["Home"])
        XCTAssertGreaterThan(bulkAgain, undone)
        let merged = try store.importCalendars(events(1, from: 301), into: "Home", file: "two.ics")
        XCTAssertEqual(merged.added, 1)
        XCTAssertGreaterThan(try XCTUnwrap(store.generations(of: ["Home"])["Home"]), bulkAgain)
        XCTAssertEqual(try rows("SELECT count(*) FROM bulkInsert", in: path)[0][0] as Int, 0)
    }
}
