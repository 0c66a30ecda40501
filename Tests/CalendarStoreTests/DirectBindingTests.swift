import GRDB
import GRDBSQLite
import XCTest

@testable import CalendarStore

/// Values bound without GRDB's arguments read back as GRDB would have bound them.
final class DirectBindingTests: XCTestCase {
    func testValuesReadBackAsBound() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (a TEXT, b INTEGER, c INTEGER, d TEXT, e INTEGER)")
            let insert = try db.cachedStatement(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)")
            let rows: [(String?, Int64?, Bool, String, Int?)] = [
                ("", Int64.min, true, "a\u{0}b", nil),
                (nil, Int64.max, false, "é 予定 📅", 7),
                ("plain", nil, true, String(repeating: "x", count: 100_000), -1),
            ]
            for row in rows {
                try DirectBinding.bind(insert) {
                    $0.add(row.0)
                    $0.add(row.1)
                    $0.add(row.2)
                    $0.add(row.3)
                    $0.add(row.4)
                }
                try insert.execute()
            }
            // GRDB's own arguments on the same cached statement afterwards still work.
            try insert.execute(arguments: ["grdb", 1, 0, "d", 2])
            let read = try Row.fetchAll(db, sql: "SELECT a, b, c, d, e, typeof(a), length(CAST(d AS BLOB)) FROM t")
            XCTAssertEqual(read.count, 4)
            XCTAssertEqual(read[0][0] as String?, "")
            XCTAssertEqual(read[0][5] as String, "text", "an empty string is text, not NULL")
            XCTAssertEqual(read[0][1] as Int64?, Int64.min)
            XCTAssertEqual(read[0][2] as Int64?, 1)
            XCTAssertEqual(read[0][6] as Int, 3, "an embedded NUL is kept")
            XCTAssertNil(read[0][4] as Int?)
            XCTAssertNil(read[1][0] as String?)
            XCTAssertEqual(read[1][1] as Int64?, Int64.max)
            XCTAssertEqual(read[1][2] as Int64?, 0)
            XCTAssertEqual(read[1][3] as String?, "é 予定 📅")
            XCTAssertEqual(read[1][4] as Int?, 7)
            XCTAssertNil(read[2][1] as Int64?)
            XCTAssertEqual((read[2][3] as String?)?.count, 100_000)
            XCTAssertEqual(read[3][0] as String?, "grdb")
        }
    }

    /// UTF-8 bytes bound with `addText` are the same TEXT as the String they spell; no bytes is an empty text.
    func testBytesBindAsText() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (a TEXT)")
            let insert = try db.cachedStatement(sql: "INSERT INTO t VALUES (?)")
            for text in ["BEGIN:VEVENT\r\nSUMMARY:Café 予定 📅\r\nEND:VEVENT\r\n", ""] {
                try DirectBinding.run(insert) { $0.addText(Array(text.utf8)) }
            }
            let read = try Row.fetchAll(db, sql: "SELECT a, typeof(a) FROM t")
            XCTAssertEqual(read.map { $0[0] as String }, ["BEGIN:VEVENT\r\nSUMMARY:Café 予定 📅\r\nEND:VEVENT\r\n", ""])
            XCTAssertEqual(read.map { $0[1] as String }, ["text", "text"])
        }
    }

    /// An in-memory table `t` with `table`'s two columns, on a connection that refuses texts over 1,000 bytes; `body`
    /// gets the write transaction and a cached `INSERT INTO t VALUES (?, ?)`.
    @discardableResult
    func withShortTexts(table: String, _ body: (Database, Statement) throws -> Void) throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (\(table))")
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, 1_000)
            try body(db, try db.cachedStatement(sql: "INSERT INTO t VALUES (?, ?)"))
        }
        return queue
    }

    /// A text longer than the connection's limit is refused by SQLite: binding throws instead of running the
    /// statement with the parameter left as it was.
    func testRefusedValueThrows() throws {
        try withShortTexts(table: "a TEXT, b INTEGER") { db, insert in
            XCTAssertThrowsError(
                try DirectBinding.bind(insert) {
                    $0.add(String(repeating: "x", count: 5_000))
                    $0.add(1)
                }
            ) { error in
                XCTAssertTrue("\(error)".contains("value 1"), "\(error)")
            }
            try DirectBinding.bind(insert) {
                $0.add(String(repeating: "x", count: 500))
                $0.add(2)
            }
            try insert.execute()
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT b FROM t"), 2)
        }
    }

    /// Statements run past GRDB: rows land, a constraint failure is an error naming it and leaves the statement
    /// usable, a refused value runs nothing, and GRDB's own statements around them see the same transaction.
    func testRunStepsTheStatementAndReportsFailures() throws {
        let queue = try withShortTexts(table: "a TEXT UNIQUE, b INTEGER") { db, insert in
            try DirectBinding.run(insert) {
                $0.add("one")
                $0.add(1)
            }
            XCTAssertEqual(db.lastInsertedRowID, 1)
            XCTAssertThrowsError(
                try DirectBinding.run(insert) {
                    $0.add("one")
                    $0.add(2)
                }
            ) { error in
                XCTAssertTrue("\(error)".contains("UNIQUE constraint failed: t.a"), "\(error)")
            }
            XCTAssertThrowsError(
                try DirectBinding.run(insert) {
                    $0.add(String(repeating: "x", count: 5_000))
                    $0.add(3)
                })
            try DirectBinding.run(insert) {
                $0.add("two")
                $0.add(nil as Int?)
            }
            try db.execute(sql: "INSERT INTO t VALUES ('three', 3)")
            let rows = try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY rowid")
            XCTAssertEqual(rows.map { $0[0] as String }, ["one", "two", "three"])
            XCTAssertEqual(rows.map { $0[1] as Int? }, [1, nil, 3])
        }
        try queue.read { db in XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM t"), 3, "committed") }
    }
}
