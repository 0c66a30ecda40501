import CalendarModel
import CalendarStore
import GRDB
import XCTest

/// New stores are made with 16 KB pages (fewer b-tree pages and WAL frames for a large import); stores made with
/// SQLite's default 4 KB pages keep them and work as before.
final class PageSizeTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("icskit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func items(_ count: Int) -> [ICalendar] {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
        for index in 0..<count {
            text +=
                "BEGIN:VTODO\r\nUID:t\(index)\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Todo \(index)\r\n"
                + "DUE:20260310T170000Z\r\nCATEGORIES:Home\r\nEND:VTODO\r\n"
        }
        return ICS.read(Array((text + "END:VCALENDAR\r\n").utf8)).calendars
    }

    func pageSize(_ path: String) throws -> Int {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path, configuration: configuration).read { db in
            try Int.fetchOne(db, sql: "PRAGMA page_size")!
        }
    }

    func testANewStoreHasSixteenKilobytePages() throws {
        let path = folder.appendingPathComponent("new.sqlite").path
        let store = try CalendarStore(path: path)
        XCTAssertEqual(try store.importCalendars(items(300), into: "Home", file: nil).added, 300)
        XCTAssertEqual(try pageSize(path), 16_384)
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
    }

    func testAStoreWithFourKilobytePagesKeepsThemAndWorks() throws {
        let path = folder.appendingPathComponent("old.sqlite").path
        _ = try CalendarStore(path: path)
        // Rebuilt with 4 KB pages, as stores made before were (the page size changes only outside WAL mode).
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            try db.execute(sql: "PRAGMA page_size = 4096")
            try db.execute(sql: "VACUUM")
            try db.execute(sql: "PRAGMA journal_mode = WAL")
        }
        try queue.close()
        XCTAssertEqual(try pageSize(path), 4_096)
        let store = try CalendarStore(path: path)
        XCTAssertEqual(try store.importCalendars(items(300), into: "Home", file: nil).added, 300)
        XCTAssertEqual(try store.loadCalendars(named: "Home").first?.calendar.components.count, 300)
        XCTAssertEqual(try pageSize(path), 4_096)
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
    }
}
