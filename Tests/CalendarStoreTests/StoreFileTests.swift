import CalendarModel
import CalendarStore
import GRDB
import XCTest

/// The store file: new stores are made with 16 KB pages (fewer b-tree pages and WAL frames for a large import), and
/// stores made with SQLite's default 4 KB pages keep them and work as before. A first large import into a store that
/// holds no item writes its pages once, into the database file, past the WAL; the store is in WAL mode again
/// afterwards. Where that cannot be done (another connection has the store open) or is not wanted (the store already
/// holds items) the import goes through the WAL as any write.
final class StoreFileTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("icskit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// `count` todos from `first`, each with a category and `words` words in its summary.
    func items(_ count: Int, from first: Int = 0, words: Int = 0) -> [ICalendar] {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
        for index in first..<(first + count) {
            text +=
                "BEGIN:VTODO\r\nUID:t\(index)\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Todo \(index)"
                + String(repeating: " words", count: words) + "\r\nDUE:20260310T170000Z\r\nCATEGORIES:Home\r\n"
                + "END:VTODO\r\n"
        }
        return ICS.read(Array((text + "END:VCALENDAR\r\n").utf8)).calendars
    }

    /// A pragma's value, read on a read-only connection of its own.
    func pragma<Value: DatabaseValueConvertible>(_ name: String, of path: String) throws -> Value {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path, configuration: configuration).read { db in
            try Value.fetchOne(db, sql: "PRAGMA \(name)")!
        }
    }

    func pageSize(_ path: String) throws -> Int { try pragma("page_size", of: path) }

    func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// A calendar is private: the folders a new store needs are made 0700 and the store, its WAL and its index
    /// 0600, under the usual umask 022 and under one that would leave everything open (000).
    func testANewStoreIsPrivateWhateverTheUmask() throws {
        func mode(_ path: String) throws -> Int {
            try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! NSNumber).intValue
        }
        for mask: mode_t in [0o022, 0o000] {
            let old = umask(mask)
            defer { umask(old) }
            let data = folder.appendingPathComponent("data-\(mask)")
            let path = data.appendingPathComponent("icskit/store.sqlite").path
            let store = try CalendarStore(path: path)
            _ = try store.importCalendars(items(3), into: "Home", file: "t.ics")
            // The WAL and its index exist while the store is open.
            for file in [path, path + "-wal", path + "-shm"] {
                XCTAssertEqual(try mode(file), 0o600, "\(file) under umask \(String(mask, radix: 8))")
            }
            XCTAssertEqual(try mode(data.appendingPathComponent("icskit").path), 0o700)
            XCTAssertEqual(try mode(data.path), 0o700, "a folder the store made above its own")
            withExtendedLifetime(store) {}
        }
        // A folder that was there before is left as it is.
        let shared = folder.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
        chmod(shared.path, 0o755)
        _ = try CalendarStore(path: shared.appendingPathComponent("store.sqlite").path)
        XCTAssertEqual(try mode(shared.path), 0o755)
        XCTAssertEqual(try mode(shared.appendingPathComponent("store.sqlite").path), 0o600)
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

    func testAFirstLargeImportIsWrittenOnceAndTheStoreStaysInWALMode() throws {
        let path = folder.appendingPathComponent("store.sqlite").path
        let store = try CalendarStore(path: path)
        XCTAssertEqual(try store.importCalendars(items(2_000, words: 40), into: "Home", file: nil).added, 2_000)
        // Through the WAL, every page would be in the WAL file now (it keeps its size after a checkpoint).
        XCTAssertGreaterThan(size(path), 1_000_000)
        XCTAssertLessThan(size(path + "-wal"), size(path) / 4, "the pages went to the database file")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-journal"))
        XCTAssertEqual(try pragma("journal_mode", of: path) as String, "wal")
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
        XCTAssertEqual(try store.loadCalendars(named: "Home").first?.calendar.components.count, 2_000)

        // The store holds items now: the next import goes through the WAL.
        XCTAssertEqual(
            try store.importCalendars(items(2_000, from: 2_000, words: 40), into: "Work", file: nil).added, 2_000)
        XCTAssertGreaterThan(size(path + "-wal"), 1_000_000)
        XCTAssertEqual(try pragma("journal_mode", of: path) as String, "wal")
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
    }

    func testAnotherConnectionKeepsTheImportInTheWAL() throws {
        let path = folder.appendingPathComponent("store.sqlite").path
        let store = try CalendarStore(path: path)
        // Another process's connection, in the middle of reading.
        let other = try DatabasePool(path: path)
        let report = try other.read { db in
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM item"), 0)
            return try store.importCalendars(items(2_000, words: 40), into: "Home", file: nil)
        }
        XCTAssertEqual(report.added, 2_000)
        XCTAssertEqual(try other.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") }, 2_000)
        XCTAssertGreaterThan(size(path + "-wal"), 1_000_000, "written through the WAL")
        XCTAssertEqual(try pragma("journal_mode", of: path) as String, "wal")
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
    }
}
