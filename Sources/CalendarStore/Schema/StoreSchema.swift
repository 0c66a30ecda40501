import CalendarModel
internal import GRDB

/// The store's tables, created and evolved by migrations (one per schema version, never edited once released).
enum StoreSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: calendars, items, categories, relations, time zones, sync state, tombstones") {
            db in
            try db.execute(
                sql: """
                    CREATE TABLE calendar (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL UNIQUE,
                        color TEXT,
                        source TEXT,
                        productID TEXT
                    );
                    -- One row per component, keyed as RFC 5545 keys them. `content` is the component as read, so
                    -- export writes it back line for line; the other columns are derived from it for queries.
                    CREATE TABLE item (
                        id INTEGER PRIMARY KEY,
                        calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
                        uid TEXT NOT NULL,
                        recurrenceID TEXT NOT NULL DEFAULT '',
                        kind TEXT NOT NULL,
                        summary TEXT,
                        startUTC INTEGER,
                        endUTC INTEGER,
                        startValue TEXT,
                        startTZID TEXT,
                        dueUTC INTEGER,
                        status TEXT,
                        completedUTC INTEGER,
                        priority INTEGER,
                        sequence INTEGER,
                        lastModifiedUTC INTEGER,
                        stampUTC INTEGER,
                        isRecurring INTEGER NOT NULL DEFAULT 0,
                        rangeEndUTC INTEGER,
                        content TEXT NOT NULL,
                        fingerprint TEXT NOT NULL,
                        UNIQUE (calendarID, uid, recurrenceID)
                    );
                    CREATE INDEX item_start ON item(calendarID, startUTC);
                    CREATE INDEX item_due ON item(calendarID, dueUTC);
                    CREATE INDEX item_uid ON item(uid);
                    CREATE TABLE category (name TEXT PRIMARY KEY COLLATE NOCASE, color TEXT);
                    CREATE TABLE itemCategory (
                        itemID INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                        name TEXT NOT NULL COLLATE NOCASE,
                        PRIMARY KEY (itemID, name)
                    );
                    CREATE TABLE relation (
                        itemID INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                        relatedUID TEXT NOT NULL,
                        relationType TEXT NOT NULL
                    );
                    CREATE INDEX relation_uid ON relation(relatedUID);
                    -- VTIMEZONEs as read, for TZIDs no tzdata name explains.
                    CREATE TABLE timeZone (
                        calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
                        tzid TEXT NOT NULL,
                        content TEXT NOT NULL,
                        PRIMARY KEY (calendarID, tzid)
                    );
                    -- The base of three-way merges: what each external source last said about each item.
                    CREATE TABLE syncState (
                        calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
                        source TEXT NOT NULL,
                        uid TEXT NOT NULL,
                        recurrenceID TEXT NOT NULL,
                        fingerprint TEXT NOT NULL,
                        PRIMARY KEY (calendarID, source, uid, recurrenceID)
                    );
                    -- Items deleted here, so a merge does not bring them back unchanged.
                    CREATE TABLE tombstone (
                        calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
                        uid TEXT NOT NULL,
                        recurrenceID TEXT NOT NULL,
                        deletedAt INTEGER NOT NULL,
                        PRIMARY KEY (calendarID, uid, recurrenceID)
                    );
                    """)
        }
        migrator.registerMigration("v2: the digest of each source's file at its last merge") { db in
            // A merge of a file whose bytes are those of the last merge cannot change anything (every item equals
            // the base), so it is planned from the base without parsing the file.
            try db.execute(
                sql: """
                    CREATE TABLE syncSource (
                        calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
                        source TEXT NOT NULL,
                        digest TEXT NOT NULL,
                        PRIMARY KEY (calendarID, source)
                    );
                    """)
        }
        migrator.registerMigration("v3: a covering index for window queries") { db in
            // Export and agenda ask which UIDs can touch a window; this index answers without visiting the rows.
            // It begins as item_start did, which it replaces (one index fewer to keep up on import).
            try db.execute(
                sql: """
                    CREATE INDEX item_window ON item(calendarID, startUTC, dueUTC, rangeEndUTC, endUTC, isRecurring, uid);
                    DROP INDEX item_start;
                    """)
        }
        migrator.registerMigration("v4: calendar properties and components that are not items") { db in
            // What export needs to give a calendar back whole: its own properties as read (NAME, X-WR-CALNAME,
            // UID, COLOR, REFRESH-INTERVAL, X- properties …) and its VAVAILABILITY and unknown components.
            try db.execute(
                sql: """
                    ALTER TABLE calendar ADD COLUMN header TEXT;
                    CREATE TABLE otherComponent (
                        calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
                        key TEXT NOT NULL,
                        content TEXT NOT NULL,
                        PRIMARY KEY (calendarID, key)
                    );
                    """)
        }
        migrator.registerMigration("v5: web calendar subscriptions") { db in
            // One feed per calendar: where it is, its validators and when it may be asked again.
            try db.execute(
                sql: """
                    CREATE TABLE subscription (
                        calendarID INTEGER PRIMARY KEY REFERENCES calendar(id) ON DELETE CASCADE,
                        url TEXT NOT NULL,
                        location TEXT,
                        etag TEXT,
                        lastModified TEXT,
                        bodyHash TEXT,
                        checkedAt INTEGER,
                        fetchedAt INTEGER,
                        minimumInterval INTEGER,
                        user TEXT
                    );
                    """)
        }
        migrator.registerMigration("v6: resources of two-way syncs") { db in
            // What a sync partner (a vdir, a CalDAV collection) held at the last sync: each resource's name, its
            // version token and the UIDs in it. The merge base of the partner is kept in syncState as for any
            // source, under the partner's identity.
            try db.execute(
                sql: """
                    CREATE TABLE syncResource (
                        calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
                        partner TEXT NOT NULL,
                        href TEXT NOT NULL,
                        etag TEXT NOT NULL,
                        uids TEXT NOT NULL,
                        PRIMARY KEY (calendarID, partner, href)
                    );
                    CREATE TABLE syncPartner (
                        calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
                        partner TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        location TEXT NOT NULL,
                        user TEXT,
                        PRIMARY KEY (calendarID, partner)
                    );
                    """)
        }
        migrator.registerMigration("v7: the sync token of a sync partner") { db in
            // RFC 6578: what a CalDAV collection said at the last sync, to ask only for what changed since.
            try db.execute(sql: "ALTER TABLE syncPartner ADD COLUMN syncToken TEXT")
        }
        migrator.registerMigration("v8: the content of a sync partner's merge base") { db in
            // What each item said at the last sync with a partner, so an item both sides changed can be merged
            // property by property against it.
            try db.execute(
                sql: """
                    CREATE TABLE syncBase (
                        calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
                        partner TEXT NOT NULL,
                        uid TEXT NOT NULL,
                        recurrenceID TEXT NOT NULL,
                        content TEXT NOT NULL,
                        PRIMARY KEY (calendarID, partner, uid, recurrenceID)
                    );
                    """)
        }
        migrator.registerMigration("v9: what moved base items said as they stood") { db in
            // For items the read changed (X-WR-TIMEZONE moved their times): the fingerprint of their lines and of
            // what moved them, so a merge can tell them unchanged without reading them (MergeSnapshot.readBase).
            try db.execute(sql: "ALTER TABLE syncState ADD COLUMN readFingerprint TEXT")
        }
        migrator.registerMigration("v10: item categories without a rowid") { db in
            // The category rows are looked up by their key only: keyed by it, a row is one b-tree entry instead of
            // two (the rowid table and its key's index), which halves their share of a bulk import.
            try db.execute(
                sql: """
                    CREATE TABLE itemCategoryKeyed (
                        itemID INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                        name TEXT NOT NULL COLLATE NOCASE,
                        PRIMARY KEY (itemID, name)
                    ) WITHOUT ROWID;
                    INSERT INTO itemCategoryKeyed (itemID, name) SELECT itemID, name FROM itemCategory;
                    DROP TABLE itemCategory;
                    ALTER TABLE itemCategoryKeyed RENAME TO itemCategory;
                    """)
        }
        migrator.registerMigration("v11: the merge base without a rowid") { db in
            // Every import now records the merge base of what it imported (one row per item): keyed by its primary
            // key alone, a row is one b-tree entry instead of two (as v10 did for item categories).
            try db.execute(
                sql: """
                    CREATE TABLE syncStateKeyed (
                        calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
                        source TEXT NOT NULL,
                        uid TEXT NOT NULL,
                        recurrenceID TEXT NOT NULL,
                        fingerprint TEXT NOT NULL,
                        readFingerprint TEXT,
                        PRIMARY KEY (calendarID, source, uid, recurrenceID)
                    ) WITHOUT ROWID;
                    INSERT INTO syncStateKeyed (calendarID, source, uid, recurrenceID, fingerprint, readFingerprint)
                    SELECT calendarID, source, uid, recurrenceID, fingerprint, readFingerprint FROM syncState;
                    DROP TABLE syncState;
                    ALTER TABLE syncStateKeyed RENAME TO syncState;
                    """)
        }
        migrator.registerMigration("v12: no user information from URLs") { db in
            try StoreSchema.removeUserInfo(db)
        }
        migrator.registerMigration("v13: a full-text index of item text for search") { db in
            try db.execute(sql: v13Search)
        }
        migrator.registerMigration("v14: the undo log") { db in
            try db.execute(sql: v14UndoLog)
        }
        migrator.registerMigration("v15: the instances of series, kept month by month") { db in
            try db.execute(sql: v15Instances)
        }
        migrator.registerMigration("v16: settings the user gives (icskit config)") { db in
            try db.execute(sql: "CREATE TABLE setting (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
        }
        migrator.registerMigration(
            "v17: kept items' listed fields as bytes and their handles, brief texts only for alarms"
        ) { db in
            try db.execute(sql: v17Listing)
        }
        migrator.registerMigration("v18: scheduling messages (iTIP) received") { db in
            try db.execute(sql: v18Scheduling)
        }
        migrator.registerMigration("v19: a search index mark that a second write does not trip over") { db in
            try db.execute(sql: v19SearchMark)
        }
        migrator.registerMigration("v20: what sync partners refused to store") { db in
            try db.execute(sql: v20Refusals)
        }
        migrator.registerMigration("v21: scheduling messages kept aside, not applied") { db in
            try db.execute(sql: v21Held)
        }
        migrator.registerMigration("v22: the instance index keeps times and item ids, nothing of the items") { db in
            try db.execute(sql: v22InstanceIndex)
        }
        migrator.registerMigration("v23: scheduling messages found by method and digest") { db in
            try db.execute(sql: v23SchedulingDigests)
        }
        migrator.registerMigration("v24: shared feeds, and a calendar's generation") { db in
            try db.execute(sql: v24Shares)
        }
        migrator.registerMigration("v25: the instance index keeps no lines of items") { db in
            try db.execute(sql: v25WholeItems)
        }
        return migrator
    }

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
