import CalendarModel
import GRDB
import XCTest

@testable import CalendarStore

/// A new store is made from the schema its migrations leave (`StoreSchema.newStoreStatements`), not by replaying
/// them: the two must hold the same tables, indexes, triggers, rows and pragmas, and a store made either way must
/// be usable as the other.
final class NewStoreSchemaTests: XCTestCase {
    /// What a database holds that a schema decides: every object SQLite lists with its SQL, every row of every
    /// other table (the migrations' bookkeeping, the state rows, FTS5's own), and the pragmas a migration could set.
    func contents(_ db: Database) throws -> [String] {
        var lines = try Row.fetchAll(
            db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
        ).map { "\($0[0] as String) \($0[1] as String) on \($0[2] as String): \(($0[3] as String?) ?? "-")" }
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'shadow')")
        // sqlite_schema's own rows differ by the pages the tables got, nothing a schema decides.
        for table in tables.sorted() where table != "sqlite_schema" {
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map(\.description).sorted()
            lines += rows.map { "row of \(table): \($0)" }
        }
        for pragma in ["user_version", "application_id", "auto_vacuum", "page_size", "foreign_keys"] {
            lines.append("pragma \(pragma): \(try Int.fetchOne(db, sql: "PRAGMA \(pragma)") ?? -1)")
        }
        return lines
    }

    /// A store in memory taken through every migration, as stores made before were.
    func migrated() throws -> DatabaseQueue {
        let queue = try DatabaseQueue(configuration: CalendarStore.configuration(readOnly: false))
        try StoreSchema.migrator.migrate(queue)
        return queue
    }

    func testANewStoreHoldsWhatItsMigrationsLeave() throws {
        let made = try DatabaseQueue(configuration: CalendarStore.configuration(readOnly: false))
        try StoreSchema.prepare(made)
        let expected = try migrated().read(contents)
        let found = try made.read(contents)
        let statements = try migrated().read(StoreSchema.statements)
        // On a difference: a migration was added or changed without `newStoreStatements` (the message lists the
        // statements a migrated store holds, in the order they were made).
        XCTAssertEqual(
            found, expected,
            "newStoreStatements differ from the migrations; the migrated schema is:\n"
                + statements.joined(separator: "\n;\n"))
        XCTAssertTrue(try made.read(StoreSchema.migrator.hasCompletedMigrations))
    }

    /// A store file made at once is the store a migrated one is: it opens, imports, lists, searches and undoes.
    func testAStoreFileMadeAtOnceWorks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("icskit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite").path
        let text = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20260101T000000Z\r
            DTSTART:20260105T090000Z\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\nSUMMARY:Rowing club\r\nCATEGORIES:Sport\r
            END:VEVENT\r\nEND:VCALENDAR\r\n
            """
        let store = try CalendarStore(path: path)
        let report = try store.importCalendars(ICS.read(Array(text.utf8)).calendars, into: "Home", file: nil)
        XCTAssertEqual(report.added, 1)
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
        XCTAssertEqual(try store.search(SearchQuery("rowing")).count, 1, "the search index is kept")
        XCTAssertEqual(try store.undo()?.removed, 1, "the undo log is kept")
        let again = try CalendarStore(path: path)
        XCTAssertEqual(try again.calendars().map(\.name), [], "the import undone, its calendar with it")
    }
}
