import CalendarMerge
import CalendarModel
@testable import CalendarStore
import GRDB
import XCTest

/// The undo log at the level of SQL: every row a step changes comes back as it was, rowids included, also where
/// SQLite gives a new row the rowid of one the same transaction deleted.
final class UndoLogTests: XCTestCase {
    func file(_ uids: [String], title: String = "T") -> [UInt8] {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
        for (index, uid) in uids.enumerated() {
            text += "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:2026030\(index + 1)T090000Z\r\n"
            text += "SUMMARY:\(title) \(uid)\r\nCATEGORIES:Work,\(uid)\r\nRELATED-TO:parent-\(uid)\r\nEND:VEVENT\r\n"
        }
        return Array((text + "END:VCALENDAR\r\n").utf8)
    }

    /// Every covered and derived table, row by row, rowids of the rowid tables included (relations, which undo
    /// makes again, without); a calendar's generation aside: a counter every change moves on, undo included, so that
    /// a shared feed is built again.
    func dump(_ store: CalendarStore) throws -> [String] {
        try store.database.read { db in
            var lines: [String] = []
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            for table in tables where UndoLog.isCovered(table) || UndoLog.derived.contains(table) {
                let withoutRowID = try String.fetchOne(
                    db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [table])!
                    .uppercased().contains("WITHOUT ROWID")
                let names = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }
                    .filter { $0 != "generation" }.joined(separator: ", ")
                let columns = withoutRowID || table == "relation" ? names : "rowid, " + names
                lines += try Row.fetchAll(db, sql: "SELECT \(columns) FROM \(table)").map { "\(table) \($0)" }.sorted()
            }
            return lines
        }
    }

    func itemIDs(_ store: CalendarStore) throws -> [String: Int64] {
        try store.database.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT uid, id FROM item").map { ($0[0], $0[1]) })
        }
    }

    func testAMergeThatDeletesTheHighestRowAndAddsOneGetsBackItsRowsAndItsGap() throws {
        let store = try CalendarStore.inMemory()
        _ = try CalendarMerger.merge(
            icsBytes: file(["a", "b", "c"]), file: nil, into: "cal", source: "s", storage: store)
        store.beginUndoStep("rm b")
        _ = try store.delete(uid: "b", calendar: "cal")
        store.beginUndoStep("merge")
        let beforeMerge = try dump(store)
        XCTAssertEqual(try itemIDs(store), ["a": 1, "c": 3])

        // Within one transaction: c (the highest row) goes, d comes and SQLite gives it b's old rowid.
        try store.write { db in
            try db.execute(sql: "DELETE FROM item WHERE uid = 'c'")
            try db.execute(
                sql: """
                    INSERT INTO item (calendarID, uid, kind, content, fingerprint)
                    VALUES (1, 'd', 'VEVENT', 'BEGIN:VEVENT\r\nUID:d\r\nEND:VEVENT\r\n', 'x')
                    """)
        }
        XCTAssertEqual(try itemIDs(store), ["a": 1, "d": 2])
        let result = try XCTUnwrap(try store.undo())
        XCTAssertEqual(result.removed, 1)
        XCTAssertEqual(result.restored, 1)
        XCTAssertEqual(try dump(store), beforeMerge)

        // The deletion of b, then the merge.
        _ = try XCTUnwrap(try store.undo())
        XCTAssertEqual(try itemIDs(store), ["a": 1, "b": 2, "c": 3])
        XCTAssertTrue(try dump(store).contains { $0.hasPrefix("itemCategory") && $0.contains("\"b\"") })
        _ = try XCTUnwrap(try store.undo())
        XCTAssertEqual(try dump(store).filter { !$0.hasPrefix("grdb") }, [])
        XCTAssertNil(try store.undo())
    }

    func testAMergeOfAChangedFileComesBackRowForRow() throws {
        let store = try CalendarStore.inMemory()
        _ = try CalendarMerger.merge(
            icsBytes: file(["a", "b", "c"]), file: nil, into: "cal", source: "s", storage: store)
        let before = try dump(store)
        store.beginUndoStep()
        // b and c gone, a retitled, e and f new: deletions, an update, inserts that reuse rowids, merge bases.
        _ = try CalendarMerger.merge(
            icsBytes: file(["a", "e", "f"], title: "U"), file: nil, into: "cal", source: "s", storage: store)
        XCTAssertNotEqual(try dump(store), before)
        let dry = try XCTUnwrap(try store.undo(dryRun: true))
        XCTAssertNotEqual(try dump(store), before)
        XCTAssertGreaterThan(dry.removed + dry.restored + dry.reverted, 0)
        _ = try XCTUnwrap(try store.undo())
        XCTAssertEqual(try dump(store), before)
    }

    /// Steps know how many bytes of statements they hold; the oldest are forgotten beyond the size kept, never
    /// the newest.
    func testTheOldestStepsAreForgottenBeyondTheSizeKept() throws {
        let store = try CalendarStore.inMemory()
        _ = try CalendarMerger.merge(
            icsBytes: file(["a", "b", "c"]), file: nil, into: "cal", source: "s", storage: store)
        for title in ["U", "V", "W"] {
            store.beginUndoStep(title)
            _ = try CalendarMerger.merge(
                icsBytes: file(["a", "b", "c"], title: title), file: nil, into: "cal", source: "s", storage: store)
        }
        let sizes = try store.database.read { db in
            try Int64.fetchAll(db, sql: "SELECT bytes FROM undoStep ORDER BY id")
        }
        XCTAssertEqual(sizes.count, 4)
        XCTAssertTrue(sizes.dropFirst().allSatisfy { $0 > 1000 }, "\(sizes)")  // three items' old rows each
        try store.database.write { db in
            try UndoLog.forgetBeyondSize(db, newest: 4, cap: sizes[1] + sizes[2] - 1)
        }
        XCTAssertEqual(try store.undoSteps().map(\.label), ["W", "V"])
        XCTAssertEqual(try store.undo()?.reverted, 3)
    }

    func testAStepThatChangesNothingIsNotRecorded() throws {
        let store = try CalendarStore.inMemory()
        _ = try CalendarMerger.merge(icsBytes: file(["a"]), file: nil, into: "cal", source: "s", storage: store)
        let steps = try store.undoSteps().count
        store.beginUndoStep()
        _ = try CalendarMerger.merge(icsBytes: file(["a"]), file: nil, into: "cal", source: "s", storage: store)
        try store.write { _ in }
        XCTAssertEqual(try store.undoSteps().count, steps)
    }
}
