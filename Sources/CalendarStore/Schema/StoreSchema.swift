import CalendarModel
internal import GRDB

/// The store's tables, created and evolved by migrations (one per schema version, never edited once released).
enum StoreSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for (identifier, migrate) in migrations { migrator.registerMigration(identifier, migrate: migrate) }
        return migrator
    }

    /// Each migration by version, in order: its identifier (a released one never changes) and what it does. A new
    /// store is made from what they leave (`newStoreStatements`), which a new migration changes too.
    static let migrations: [(identifier: String, migrate: @Sendable (Database) throws -> Void)] = [
        ("v1: calendars, items, categories, relations, time zones, sync state, tombstones", migrateV1),
        ("v2: the digest of each source's file at its last merge", migrateV2),
        ("v3: a covering index for window queries", migrateV3),
        ("v4: calendar properties and components that are not items", migrateV4),
        ("v5: web calendar subscriptions", migrateV5),
        ("v6: resources of two-way syncs", migrateV6),
        ("v7: the sync token of a sync partner", migrateV7),
        ("v8: the content of a sync partner's merge base", migrateV8),
        ("v9: what moved base items said as they stood", migrateV9),
        ("v10: item categories without a rowid", migrateV10),
        ("v11: the merge base without a rowid", migrateV11),
        ("v12: no user information from URLs", migrateV12),
        ("v13: a full-text index of item text for search", migrateV13),
        ("v14: the undo log", migrateV14),
        ("v15: the instances of series, kept month by month", migrateV15),
        ("v16: settings the user gives (icskit config)", migrateV16),
        ("v17: kept items' listed fields as bytes and their handles, brief texts only for alarms", migrateV17),
        ("v18: scheduling messages (iTIP) received", migrateV18),
        ("v19: a search index mark that a second write does not trip over", migrateV19),
        ("v20: what sync partners refused to store", migrateV20),
        ("v21: scheduling messages kept aside, not applied", migrateV21),
        ("v22: the instance index keeps times and item ids, nothing of the items", migrateV22),
        ("v23: scheduling messages found by method and digest", migrateV23),
        ("v24: shared feeds, and a calendar's generation", migrateV24),
        ("v25: the instance index keeps no lines of items", migrateV25),
        ("v26: a bulk insert moves its calendar's generation once", migrateV26),
    ]

    /// Columns that hold URLs or names made of them (`feed:https://…`, `caldav:https://…`).
    static let urlColumns = [
        ("calendar", "source"), ("subscription", "url"), ("subscription", "location"), ("syncPartner", "partner"),
        ("syncPartner", "location"), ("syncResource", "partner"), ("syncBase", "partner"), ("syncState", "source"),
        ("syncSource", "source"),
    ]

    /// Whether the store holds a URL with user information that migration v12 is yet to remove: then the whole file
    /// is rewritten after it (`VACUUM`), since SQLite leaves what a row said before in the file's free space.
    static func holdsUserInfo(_ db: Database) throws -> Bool {
        guard try !migrator.appliedIdentifiers(db).contains(where: { $0.hasPrefix("v12:") }) else { return false }
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        for (table, column) in urlColumns where tables.contains(table) {
            if try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE \(column) LIKE '%://%@%')") == true
            {
                return true
            }
        }
        return false
    }

    /// Stores made before v12 kept URLs as given, a password in them included (`https://ana:secret@host/`), in
    /// every column that names a source, once per item in the merge base. The user name moves to the `user`
    /// column where that is empty; the password goes (the next fetch asks for it as for any `--user`).
    static func removeUserInfo(_ db: Database) throws {
        for (table, column) in [("subscription", "url"), ("syncPartner", "location")] {
            let rows = try Row.fetchAll(
                db, sql: "SELECT rowid, \(column) FROM \(table) WHERE user IS NULL AND \(column) LIKE '%://%@%'")
            for row in rows {
                let given = URLUserInfo(row[1] as String)
                guard let user = given.user, !user.isEmpty else { continue }
                try db.execute(sql: "UPDATE \(table) SET user = ? WHERE rowid = ?", arguments: [user, row[0] as Int64])
            }
        }
        let strip = DatabaseFunction("icskit_without_user_info", argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map { URLUserInfo($0).url }
        }
        db.add(function: strip)
        defer { db.remove(function: strip) }
        for (table, column) in urlColumns {
            // Two rows that differ only by the user information name the same thing: one is kept.
            try db.execute(
                sql: """
                    UPDATE OR REPLACE \(table) SET \(column) = icskit_without_user_info(\(column))
                    WHERE \(column) LIKE '%://%@%'
                    """)
        }
    }
}
