import CalendarModel
import CalendarStore
import GRDB
import XCTest

/// A first large import into a store that holds no item writes its pages once, into the database file, past the
/// WAL; the store is in WAL mode again afterwards. Where that cannot be done (another connection has the store
/// open) or is not wanted (the store already holds items) the import goes through the WAL as any write.
final class BulkImportTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("icskit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func todos(_ count: Int, from first: Int = 0) -> [ICalendar] {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
        for index in first..<(first + count) {
            text +=
                "BEGIN:VTODO\r\nUID:t\(index)\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Todo \(index) "
                + String(repeating: "words ", count: 40) + "\r\nDUE:20260310T170000Z\r\nEND:VTODO\r\n"
        }
        return ICS.read(Array((text + "END:VCALENDAR\r\n").utf8)).calendars
    }

    func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    func journalMode(_ path: String) throws -> String {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path, configuration: configuration).read { db in
            try String.fetchOne(db, sql: "PRAGMA journal_mode")!
        }
    }

    func testAFirstLargeImportIsWrittenOnceAndTheStoreStaysInWALMode() throws {
        let path = folder.appendingPathComponent("store.sqlite").path
        let store = try CalendarStore(path: path)
        XCTAssertEqual(try store.importCalendars(todos(2_000), into: "Home", file: nil).added, 2_000)
        // Through the WAL, every page would be in the WAL file now (it keeps its size after a checkpoint).
        XCTAssertGreaterThan(size(path), 1_000_000)
        XCTAssertLessThan(size(path + "-wal"), size(path) / 4, "the pages went to the database file")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-journal"))
        XCTAssertEqual(try journalMode(path), "wal")
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
        XCTAssertEqual(try store.loadCalendars(named: "Home").first?.calendar.components.count, 2_000)

        // The store holds items now: the next import goes through the WAL.
        XCTAssertEqual(try store.importCalendars(todos(2_000, from: 2_000), into: "Work", file: nil).added, 2_000)
        XCTAssertGreaterThan(size(path + "-wal"), 1_000_000)
        XCTAssertEqual(try journalMode(path), "wal")
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
    }

    func testAnotherConnectionKeepsTheImportInTheWAL() throws {
        let path = folder.appendingPathComponent("store.sqlite").path
        let store = try CalendarStore(path: path)
        // Another process's connection, in the middle of reading.
        let other = try DatabasePool(path: path)
        let report = try other.read { db in
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM item"), 0)
            return try store.importCalendars(todos(2_000), into: "Home", file: nil)
        }
        XCTAssertEqual(report.added, 2_000)
        XCTAssertEqual(try other.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") }, 2_000)
        XCTAssertGreaterThan(size(path + "-wal"), 1_000_000, "written through the WAL")
        XCTAssertEqual(try journalMode(path), "wal")
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
    }
}
