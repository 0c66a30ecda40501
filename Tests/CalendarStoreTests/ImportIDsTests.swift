import CalendarModel
import CalendarStore
import GRDB
import XCTest

/// An import into a new calendar writes its items many to a statement with the ids SQLite would give them one by
/// one; each item's categories and relations go with its own id, also when the store's ids reach SQLite's largest
/// (SQLite then picks ids itself, and the items are written one by one).
final class ImportIDsTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("icskit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// `count` todos named `prefix` and their number, each with a category and a parent of its own.
    func items(_ count: Int, _ prefix: String) -> [ICalendar] {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
        for index in 0..<count {
            text +=
                "BEGIN:VTODO\r\nUID:\(prefix)\(index)\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:\(prefix) \(index)\r\n"
                + "CATEGORIES:c\(prefix)\(index),shared\r\nRELATED-TO:p\(prefix)\(index)\r\nEND:VTODO\r\n"
        }
        return ICS.read(Array((text + "END:VCALENDAR\r\n").utf8)).calendars
    }

    /// The ids, categories and parents of a calendar's items, by UID.
    func stored(_ calendar: String, path: String) throws -> [String: (id: Int64, categories: [String], parent: String)]
    {
        try DatabaseQueue(path: path).read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT i.id, i.uid,
                      (SELECT group_concat(name, ',') FROM (SELECT name FROM itemCategory WHERE itemID = i.id
                       ORDER BY name)) AS categories,
                      (SELECT group_concat(relatedUID) FROM relation WHERE itemID = i.id) AS parent
                    FROM item i JOIN calendar c ON c.id = i.calendarID WHERE c.name = ?
                    """, arguments: [calendar])
            var found: [String: (id: Int64, categories: [String], parent: String)] = [:]
            for row in rows {
                let categories: String? = row["categories"]
                found[row["uid"]] = (row["id"], categories?.split(separator: ",").map(String.init) ?? [], row["parent"])
            }
            return found
        }
    }

    func checkLinks(_ calendar: String, prefix: String, count: Int, path: String) throws -> [Int64] {
        let found = try stored(calendar, path: path)
        XCTAssertEqual(found.count, count)
        for index in 0..<count {
            let item = try XCTUnwrap(found["\(prefix)\(index)"], "\(prefix)\(index)")
            XCTAssertEqual(item.categories, ["c\(prefix)\(index)", "shared"], "\(prefix)\(index)")
            XCTAssertEqual(item.parent, "p\(prefix)\(index)", "\(prefix)\(index)")
        }
        return (0..<count).map { found["\(prefix)\(Int($0))"]!.id }
    }

    func testItemsGetTheIdsInFileOrderAboveEveryOtherWithTheirOwnCategoriesAndParents() throws {
        let path = folder.appendingPathComponent("store.sqlite").path
        let store = try CalendarStore(path: path)
        XCTAssertEqual(try store.importCalendars(items(5, "h"), into: "Home", file: nil).added, 5)
        // 37: two full statements of 16 and one of 5, and a second batch of the parallel derivation past 256.
        for (calendar, count) in [("Work", 37), ("Big", 600)] {
            let highest = try DatabaseQueue(path: path).read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM item") }
            XCTAssertEqual(try store.importCalendars(items(count, calendar), into: calendar, file: nil).added, count)
            let ids = try checkLinks(calendar, prefix: calendar, count: count, path: path)
            XCTAssertEqual(ids, (0..<count).map { highest! + 1 + Int64($0) })
        }
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
    }

    func testBelowZeroTheIdsStillFollowTheHighest() throws {
        let path = folder.appendingPathComponent("store.sqlite").path
        let store = try CalendarStore(path: path)
        XCTAssertEqual(try store.importCalendars(items(1, "h"), into: "Home", file: nil).added, 1)
        // Every id below zero (written by hand): SQLite would go on from the highest, -5, as the import does.
        try DatabaseQueue(path: path).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "UPDATE itemCategory SET itemID = -5; UPDATE relation SET itemID = -5")
            try db.execute(sql: "UPDATE item SET id = -5")
        }
        XCTAssertEqual(try store.importCalendars(items(20, "w"), into: "Work", file: nil).added, 20)
        XCTAssertEqual(try checkLinks("Work", prefix: "w", count: 20, path: path), (-4..<16).map { Int64($0) })
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
    }

    func testAtTheLargestIdSQLitePicksTheIdsAndEachItemKeepsItsLinks() throws {
        let path = folder.appendingPathComponent("store.sqlite").path
        let store = try CalendarStore(path: path)
        XCTAssertEqual(try store.importCalendars(items(3, "h"), into: "Home", file: nil).added, 3)
        for highest in [Int64.max - 20, Int64.max] {
            try DatabaseQueue(path: path).writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                try db.inTransaction {
                    let id = try Int64.fetchOne(db, sql: "SELECT max(id) FROM item")!
                    for table in ["itemCategory", "relation"] {
                        try db.execute(
                            sql: "UPDATE \(table) SET itemID = ? WHERE itemID = ?", arguments: [highest, id])
                    }
                    try db.execute(sql: "UPDATE item SET id = ? WHERE id = ?", arguments: [highest, id])
                    return .commit
                }
            }
            let calendar = highest == .max ? "Top" : "Near"
            XCTAssertEqual(try store.importCalendars(items(40, calendar), into: calendar, file: nil).added, 40)
            let ids = try checkLinks(calendar, prefix: calendar, count: 40, path: path)
            XCTAssertEqual(Set(ids).count, 40)
        }
        let broken = try DatabaseQueue(path: path).read { try Row.fetchAll($0, sql: "PRAGMA foreign_key_check") }
        XCTAssertEqual(broken.count, 0)
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
    }
}
