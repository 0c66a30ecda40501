import CalendarModel
import Foundation
internal import GRDB

/// The local store: one SQLite file (WAL, busy timeout) holding calendars and their items as read.
///
/// ```swift
/// let store = try CalendarStore(path: CalendarStore.defaultPath())
/// let report = try store.importCalendars(calendars, into: "Work", file: "work.ics")
/// ```
///
/// Every change is one transaction: all of it lands, or none (a SIGKILL in the middle included).
public final class CalendarStore: Sendable {
    /// SQLite's page cache per connection, as `PRAGMA cache_size` takes it (negative: KiB): 64 MB.
    static let pageCacheSize = -65536
    /// How much of the store file SQLite maps into memory (`PRAGMA mmap_size`): 256 MB.
    static let mappedSize = 1 << 28

    /// What a command needs of the store.
    public enum Access: Sendable {
        /// Reading and writing; the file and its folder are created when missing.
        case readWrite
        /// Reading only: a store on read-only media still serves `agenda`, `export` and `check-store`, and a store
        /// that does not exist yet reads as empty (nothing is created).
        case readOnly
        /// Reading, and writing what reading keeps (a listing keeps the months of instances it reads), through one
        /// connection, as `.readWrite` does otherwise. Opening writes nothing: a pool of connections (`.readWrite`)
        /// makes sure of a non-empty WAL file by committing a change of its own, which costs a listing of an
        /// unchanged store three syncs to disk (the WAL's header, then the WAL and the file when it closes).
        case readWriteAlone
    }

    /// The store file's path (`:memory:` for `inMemory()`).
    public let path: String
    /// Whether this store was opened for reading only.
    public let isReadOnly: Bool
    /// A DatabasePool (WAL: readers never wait for the writer); one connection for `.readWriteAlone`, and for a
    /// read-only store whose WAL index cannot be made one to the file marked immutable.
    let database: any DatabaseWriter
    /// The last merge snapshot, for the merge's transaction to take when nothing changed since.
    let snapshots = SnapshotCache()
    /// This process's changes as one step of the undo log.
    let undoSession: UndoLog.Session

    /// Opens the store at `path`, creating and migrating it for `.readWrite` access. `changeLabel` names what
    /// this process changes in the undo log (`icskit undo` shows it): the command line, for the CLI.
    public init(path: String, access: Access = .readWrite, changeLabel: String = "a change") throws {
        self.path = path
        isReadOnly = access == .readOnly
        undoSession = UndoLog.Session(label: changeLabel)
        // Links resolved once: the store is made, opened and marked where the file is.
        let file = PrivateFiles.resolved(path)
        do {
            switch access {
            case .readWrite: database = try Self.openForWriting(file, pooled: true)
            case .readWriteAlone: database = try Self.openForWriting(file, pooled: false)
            case .readOnly: database = try Self.openForReading(file)
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw StoreError.unusable(path, error)
        }
    }

    /// A store that lives in memory only, migrated and empty: for tests and for tools that want the store's
    /// behaviour without a file.
    public static func inMemory() throws -> CalendarStore {
        let queue = try DatabaseQueue(configuration: configuration(readOnly: false))
        try StoreSchema.prepare(queue)
        return CalendarStore(path: ":memory:", database: queue)
    }

    private init(path: String, database: any DatabaseWriter) {
        self.path = path
        self.isReadOnly = false
        self.database = database
        undoSession = UndoLog.Session(label: "a change")
    }

    /// A write transaction, recorded in the undo log as part of this process's step. Every change to the store
    /// goes through here or through `changing` (inside a transaction of its own making).
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try database.write { db in try changing(db, body) }
    }

    /// `body` inside a write transaction that is already open, recorded in the undo log.
    func changing<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        let begun = try UndoLog.begin(db, undoSession)
        defer { undoSession.stop() }
        let result = try body(db)
        try UndoLog.end(db, undoSession, begun)
        return result
    }

    /// `ICSKIT_STORE`, else `$XDG_DATA_HOME/icskit/store.sqlite`, else `~/.local/share/icskit/store.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["ICSKIT_STORE"], !path.isEmpty { return path }
        let data =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return data + "/icskit/store.sqlite"
    }

    // MARK: Opening

    static func configuration(readOnly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(30)  // another icskit writing: wait for it rather than fail
        configuration.prepareDatabase { db in
            // synchronous=NORMAL is the WAL setting SQLite recommends: a commit survives a crash of icskit (a
            // SIGKILL included); only a power cut may lose the last commit, never consistency. The larger page
            // cache keeps a big import's index pages in memory instead of spilling them to the WAL again and again.
            // A new store gets 16 KB pages (taken only before its first table; a store made with 4 KB keeps them):
            // a 20,000-event import writes a quarter as many pages and took 0.39-0.40 s instead of 0.42-0.46 s.
            try db.execute(sql: "PRAGMA page_size = 16384")
            try db.execute(sql: "PRAGMA foreign_keys = ON; PRAGMA cache_size = \(CalendarStore.pageCacheSize)")
            // Pages read through a memory map instead of a read call each: a week's listing of a large store reads
            // thousands of pages (0.15 s of system time for 94,000 kept instances read, 0.04 s mapped).
            try db.execute(sql: "PRAGMA mmap_size = \(CalendarStore.mappedSize)")
            if !db.configuration.readonly {
                // recursive_triggers: the rows INSERT OR REPLACE deletes fire the undo log's delete triggers.
                try db.execute(
                    sql: "PRAGMA synchronous = NORMAL; PRAGMA recursive_triggers = ON; PRAGMA temp_store = MEMORY")
            }
        }
        return configuration
    }

    /// `pooled`: a DatabasePool (WAL: readers never wait for the writer), else one connection (a store that is
    /// not in WAL mode yet is put in it, as a pool does).
    private static func openForWriting(_ path: String, pooled: Bool) throws -> any DatabaseWriter {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try PrivateFiles.makeFolders(folder, for: path)
        try DamageMark.refuseWrites(store: path)  // before SQLite opens it for writing at all
        let database: any DatabaseWriter
        do {
            database = try FolderLock.holding(folder) {
                PrivateFiles.makeFile(path)
                if pooled { return try DatabasePool(path: path, configuration: configuration(readOnly: false)) }
                let queue = try DatabaseQueue(path: path, configuration: configuration(readOnly: false))
                try queue.writeWithoutTransaction { db in
                    if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                        _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                    }
                }
                return queue
            }
        } catch let error as DatabaseError
            where [.SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM]
            .contains(error.resultCode)
        {
            throw StoreError(
                "the store \(path) cannot be written (read-only media or no permission: "
                    + "\(error.message ?? "\(error.resultCode)")); this command changes the store")
        }
        try checkSchema(database, path: path)
        if try !database.read(StoreSchema.migrator.hasCompletedMigrations) {
            // Several icskit processes may start together on a store that does not exist yet: one creates the
            // tables, the others wait for it and find them there (GRDB's migrator reads what is applied before it
            // takes the write lock, so it must not run twice at once).
            try FolderLock.holding(folder) {
                let scrub = try database.read(StoreSchema.holdsUserInfo)
                try StoreSchema.prepare(database)
                if scrub { try database.vacuum() }
            }
        }
        return database
    }

    private static func openForReading(_ path: String) throws -> any DatabaseWriter {
        guard FileManager.default.fileExists(atPath: path), PrivateFiles.size(path) != 0 else {
            // No store yet: an empty one, in memory, so reading commands show nothing and create nothing.
            let empty = try DatabaseQueue(configuration: configuration(readOnly: false))
            try StoreSchema.prepare(empty)
            return empty
        }
        var database: any DatabaseWriter
        do {
            let pool = try DatabasePool(path: path, configuration: configuration(readOnly: true))
            _ = try pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
            database = pool
        } catch let error as DatabaseError
            where error.resultCode != .SQLITE_NOTADB && error.resultCode != .SQLITE_CORRUPT
        {
            // A WAL store on read-only media whose index (-shm) was removed at its last close cannot be opened
            // read-only the usual way; nothing can be writing it, so SQLite may read it as immutable.
            let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
            database = try DatabaseQueue(
                path: "file:\(encoded)?immutable=1", configuration: configuration(readOnly: true))
        }
        try checkSchema(database, path: path)
        guard try database.read(StoreSchema.migrator.hasCompletedMigrations) else {
            throw StoreError(
                "the store \(path) was made by an older icskit and needs an upgrade, which needs "
                    + "write access; run a command that changes the store (icskit check-store does not)")
        }
        return database
    }

    /// Refuses a file that is not an ICSKit store of a schema this icskit knows.
    private static func checkSchema(_ database: any DatabaseReader, path: String) throws {
        try database.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            if !tables.isEmpty, !tables.contains("grdb_migrations") {
                throw StoreError(
                    "\(path) is an SQLite file but not an ICSKit store (it has other tables: "
                        + tables.prefix(5).joined(separator: ", ") + ")")
            }
            if try StoreSchema.migrator.hasBeenSuperseded(db) {
                throw StoreError(
                    "the store \(path) was written by a newer icskit (its schema has migrations this "
                        + "one does not know); use that icskit")
            }
        }
    }

    // MARK: Catalog

    /// The calendars in the store, by name.
    public func calendars() throws -> [StoredCalendar] {
        try database.read { db in
            try StoredCalendarRecord.fetchAll(
                db,
                sql: """
                    SELECT c.id, c.name, c.color, c.source, COUNT(i.id) AS itemCount FROM calendar c
                    LEFT JOIN item i ON i.calendarID = c.id GROUP BY c.id ORDER BY c.name
                    """
            ).map(\.calendar)
        }
    }

    /// Whether the store has a calendar of that name.
    public func hasCalendar(named name: String) throws -> Bool {
        try database.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM calendar WHERE name = ?", arguments: [name]) ?? false
        }
    }

    /// Categories with the colours the store gives them, and how many items use each. A category row another
    /// program left without a name is passed over.
    public func categories() throws -> [(category: Category, items: Int)] {
        try database.read { db in
            try CategoryUse.fetchAll(
                db,
                sql: """
                    SELECT n.name, c.color, COUNT(ic.itemID) AS items FROM
                    (SELECT name FROM itemCategory UNION SELECT name FROM category) n
                    LEFT JOIN category c ON c.name = n.name LEFT JOIN itemCategory ic ON ic.name = n.name
                    WHERE n.name IS NOT NULL GROUP BY n.name ORDER BY n.name COLLATE NOCASE
                    """
            ).map { (Category($0.name, color: $0.color), $0.items) }
        }
    }

    /// The colours categories have in the store, by name.
    public func categoryColors() throws -> [String: String] {
        try database.read { db in
            var colors: [String: String] = [:]
            for category in try CategoryUse.fetchAll(
                db,
                sql: """
                    SELECT name, color, 0 AS items FROM category WHERE name IS NOT NULL AND color IS NOT NULL
                    """)
            {
                colors[category.name] = category.color
            }
            return colors
        }
    }

    /// Gives a category a colour (`#RRGGBB`), creating the category when needed.
    public func setColor(_ color: String?, ofCategory name: String) throws {
        try write { db in try StoreWriter(db).setColor(color, ofCategory: name) }
    }

    /// SQLite's own check of the file, then ICSKit's: ["ok"] when sound, else what is wrong.
    public func integrityCheck() throws -> [String] {
        try database.read { db in
            let sqlite: [String]
            do {
                sqlite = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
                // Damage the check itself trips over (a b-tree's root page) is a finding like the others.
                sqlite = [error.message ?? "database disk image is malformed"]
            }
            // A file SQLite finds damaged takes no more writes until a check passes again (`DamageMark`).
            guard sqlite == ["ok"] else {
                DamageMark.record(sqlite, store: path)
                return sqlite
            }
            DamageMark.clear(store: path)
            var problems: [String] = []
            let orphans = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count
            if orphans > 0 { problems.append("\(orphans) row(s) that point to nothing (foreign_key_check)") }
            let unnamed = try Int.fetchOne(db, sql: "SELECT count(*) FROM category WHERE name IS NULL") ?? 0
            if unnamed > 0 { problems.append("\(unnamed) category row(s) without a name (left out of listings)") }
            return problems.isEmpty ? ["ok"] : problems
        }
    }
}

/// A calendar in the store.
public struct StoredCalendar: Sendable, Hashable {
    /// The calendar's row ID.
    public var id: Int64
    /// Its name, unique in the store.
    public var name: String
    /// Its colour (`#RRGGBB`), from the file it came from or set here.
    public var color: String?
    /// The file it was first imported from, if any.
    public var source: String?
    /// How many items it holds.
    public var itemCount: Int
}

/// A `StoredCalendar` read from a row of `id, name, color, source, itemCount` (by name): GRDB stays inside the
/// store.
struct StoredCalendarRecord: FetchableRecord {
    var calendar: StoredCalendar

    init(row: Row) throws {
        calendar = StoredCalendar(
            id: try row.decode(forColumn: "id"), name: try row.decode(forColumn: "name"),
            color: try row.decode(forColumn: "color"), source: try row.decode(forColumn: "source"),
            itemCount: try row.decode(forColumn: "itemCount"))
    }
}

/// A category's name, colour and use, as the category queries read them.
struct CategoryUse: FetchableRecord {
    var name: String
    var color: String?
    var items: Int

    init(row: Row) throws {
        name = try row.decode(forColumn: "name")
        color = try row.decode(forColumn: "color")
        items = try row.decode(forColumn: "items")
    }
}

/// Why a store operation was refused or failed; the store is unchanged.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, for the user.
    public var description: String
    /// An error that says what went wrong.
    public init(_ description: String) { self.description = description }

    /// Runs `body`, a scheduling error of the model (`Invitation`) said as the store's.
    static func rethrowing<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as SchedulingError { throw StoreError(error.description) }
    }

    /// A store file SQLite cannot use: not a database, damaged, or unreadable.
    static func unusable(_ path: String, _ error: DatabaseError) -> StoreError {
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return StoreError("\(path) is not an ICSKit store (not an SQLite database); nothing was changed")
        case .SQLITE_CORRUPT:
            return StoreError(
                "the store \(path) is damaged (SQLite: \(error.message ?? "corrupt")); restore it from a "
                    + "backup, or export what icskit check-store still reads")
        default:
            return StoreError("cannot use the store \(path): \(error.message ?? "\(error.resultCode)")")
        }
    }
}

/// An exclusive lock on a folder (flock on the folder itself: no lock file is left behind, and SQLite's own
/// locks on the store file are not touched), held while a store in it is created or migrated.
enum FolderLock {
    static func holding<T>(_ folder: String, _ body: () throws -> T) throws -> T {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return try body() }  // cannot lock (odd filesystem): SQLite's locks remain
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
