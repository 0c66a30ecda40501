internal import GRDB

// The migrations one function a version, as each was released: frozen, never edited again (a store made by any
// release must migrate the same way); `StoreSchema.migrations` lists them in order.
extension StoreSchema {
    /// v1: calendars, items, categories, relations, time zones, sync state, tombstones
    static func migrateV1(_ db: Database) throws {
        try db.execute(sql: v1Tables)
    }

    /// v2: the digest of each source's file at its last merge
    static func migrateV2(_ db: Database) throws {
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

    /// v3: a covering index for window queries
    static func migrateV3(_ db: Database) throws {
        // Export and agenda ask which UIDs can touch a window; this index answers without visiting the rows.
        // It begins as item_start did, which it replaces (one index fewer to keep up on import).
        try db.execute(
            sql: """
                CREATE INDEX item_window ON item(calendarID, startUTC, dueUTC, rangeEndUTC, endUTC, isRecurring, uid);
                DROP INDEX item_start;
                """)
    }

    /// v4: calendar properties and components that are not items
    static func migrateV4(_ db: Database) throws {
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

    /// v5: web calendar subscriptions
    static func migrateV5(_ db: Database) throws {
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

    /// v6: resources of two-way syncs
    static func migrateV6(_ db: Database) throws {
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

    /// v7: the sync token of a sync partner
    static func migrateV7(_ db: Database) throws {
        // RFC 6578: what a CalDAV collection said at the last sync, to ask only for what changed since.
        try db.execute(sql: "ALTER TABLE syncPartner ADD COLUMN syncToken TEXT")
    }

    /// v8: the content of a sync partner's merge base
    static func migrateV8(_ db: Database) throws {
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

    /// v9: what moved base items said as they stood
    static func migrateV9(_ db: Database) throws {
        // For items the read changed (X-WR-TIMEZONE moved their times): the fingerprint of their lines and of
        // what moved them, so a merge can tell them unchanged without reading them (MergeSnapshot.readBase).
        try db.execute(sql: "ALTER TABLE syncState ADD COLUMN readFingerprint TEXT")
    }

    /// v10: item categories without a rowid
    static func migrateV10(_ db: Database) throws {
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

    /// v11: the merge base without a rowid
    static func migrateV11(_ db: Database) throws {
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

    /// v12: no user information from URLs
    static func migrateV12(_ db: Database) throws {
        try StoreSchema.removeUserInfo(db)
    }

    /// v13: a full-text index of item text for search
    static func migrateV13(_ db: Database) throws {
        try db.execute(sql: v13Search)
    }

    /// v14: the undo log
    static func migrateV14(_ db: Database) throws {
        try db.execute(sql: v14UndoLog)
    }

    /// v15: the instances of series, kept month by month
    static func migrateV15(_ db: Database) throws {
        try db.execute(sql: v15Instances)
    }

    /// v16: settings the user gives (icskit config)
    static func migrateV16(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE setting (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
    }

    /// v17: kept items' listed fields as bytes and their handles, brief texts only for alarms
    static func migrateV17(_ db: Database) throws {
        try db.execute(sql: v17Listing)
    }

    /// v18: scheduling messages (iTIP) received
    static func migrateV18(_ db: Database) throws {
        try db.execute(sql: v18Scheduling)
    }

    /// v19: a search index mark that a second write does not trip over
    static func migrateV19(_ db: Database) throws {
        try db.execute(sql: v19SearchMark)
    }

    /// v20: what sync partners refused to store
    static func migrateV20(_ db: Database) throws {
        try db.execute(sql: v20Refusals)
    }

    /// v21: scheduling messages kept aside, not applied
    static func migrateV21(_ db: Database) throws {
        try db.execute(sql: v21Held)
    }

    /// v22: the instance index keeps times and item ids, nothing of the items
    static func migrateV22(_ db: Database) throws {
        try db.execute(sql: v22InstanceIndex)
    }

    /// v23: scheduling messages found by method and digest
    static func migrateV23(_ db: Database) throws {
        try db.execute(sql: v23SchedulingDigests)
    }

    /// v24: shared feeds, and a calendar's generation
    static func migrateV24(_ db: Database) throws {
        try db.execute(sql: v24Shares)
    }

    /// v25: the instance index keeps no lines of items
    static func migrateV25(_ db: Database) throws {
        try db.execute(sql: v25WholeItems)
    }

    /// v26: a bulk insert moves its calendar's generation once
    static func migrateV26(_ db: Database) throws {
        try db.execute(sql: v26BulkInserts)
    }
}
