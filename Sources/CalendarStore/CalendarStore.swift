import CalendarModel
import Foundation
import GRDB

/// The local store: one SQLite file (WAL, busy timeout) holding calendars and their items as read.
///
/// ```swift
/// let store = try CalendarStore(path: CalendarStore.defaultPath())
/// let report = try store.importCalendar(calendar, into: "Work", file: "work.ics")
/// ```
public final class CalendarStore: Sendable {
    public let path: String
    let pool: DatabasePool

    /// Opens (creating it and its folder when missing) and migrates the store at `path`.
    public init(path: String) throws {
        self.path = path
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)  // another icskit writing: wait for it rather than fail
        configuration.prepareDatabase { db in
            // synchronous=NORMAL is the WAL setting SQLite recommends: a commit survives a crash of icskit (a
            // SIGKILL included); only a power cut may lose the last commit, never consistency. The larger page
            // cache keeps a big import's index pages in memory instead of spilling them to the WAL again and again.
            try db.execute(sql: "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        try StoreSchema.migrator.migrate(pool)
    }

    /// `ICSKIT_STORE`, else `$XDG_DATA_HOME/icskit/store.sqlite`, else `~/.local/share/icskit/store.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["ICSKIT_STORE"], !path.isEmpty { return path }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return data + "/icskit/store.sqlite"
    }

    /// Runs `body` as one IMMEDIATE transaction: all of it is applied, or none (a crash in the middle included).
    func transaction<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.writeWithoutTransaction { db in
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }

    /// The calendars in the store, by name.
    public func calendars() throws -> [StoredCalendar] {
        try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT c.id, c.name, c.color, c.source, COUNT(i.id) AS items FROM calendar c
                LEFT JOIN item i ON i.calendarID = c.id GROUP BY c.id ORDER BY c.name
                """).map {
                StoredCalendar(id: $0["id"], name: $0["name"], color: $0["color"], source: $0["source"],
                               itemCount: $0["items"])
            }
        }
    }

    /// The id of the named calendar, creating it when asked.
    func calendarID(_ db: Database, named name: String, create: Bool) throws -> Int64? {
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM calendar WHERE name = ?", arguments: [name]) {
            return id
        }
        guard create else { return nil }
        try db.execute(sql: "INSERT INTO calendar (name) VALUES (?)", arguments: [name])
        return db.lastInsertedRowID
    }

    /// Categories with the colours the store gives them, and how many items use each.
    public func categories() throws -> [(category: Category, items: Int)] {
        try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT n.name, c.color, COUNT(ic.itemID) AS items FROM
                (SELECT name FROM itemCategory UNION SELECT name FROM category) n
                LEFT JOIN category c ON c.name = n.name LEFT JOIN itemCategory ic ON ic.name = n.name
                GROUP BY n.name ORDER BY n.name COLLATE NOCASE
                """).map { (Category($0["name"], color: $0["color"]), $0["items"]) }
        }
    }

    /// The colours categories have in the store, by name.
    public func categoryColors() throws -> [String: String] {
        try pool.read { db in
            var colors: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, color FROM category WHERE color IS NOT NULL") {
                colors[row[0]] = row[1] as String
            }
            return colors
        }
    }

    /// Whether the store has a calendar of that name.
    public func hasCalendar(named name: String) throws -> Bool {
        try pool.read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM calendar WHERE name = ?", arguments: [name]) ?? false }
    }

    /// Gives a category a colour (`#RRGGBB`), creating the category when needed.
    public func setColor(_ color: String?, ofCategory name: String) throws {
        try transaction { db in
            try db.execute(sql: """
                INSERT INTO category (name, color) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET color = excluded.color
                """, arguments: [name, color])
        }
    }
}

/// A calendar in the store.
public struct StoredCalendar: Sendable, Hashable {
    public var id: Int64
    public var name: String
    public var color: String?
    public var source: String?
    public var itemCount: Int
}

/// Why a store operation was refused; the store is unchanged.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension CalendarStore {
    /// SQLite's own check of the file: ["ok"] when sound, else what is wrong.
    public func integrityCheck() throws -> [String] {
        try pool.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }
}
