internal import GRDB

/// A new store's tables, made at once from the schema the migrations leave rather than by replaying them: the
/// migrations on an empty file re-read SQLite's whole schema after each table rebuild and each commit (with 25 of
/// them, a new store's first command took 35 ms longer, BENCHMARKS.md); the same schema made in one transaction
/// takes a few.
/// `NewStoreSchemaTests` holds the two ways to the same tables, indexes, triggers, rows and pragmas; a new migration
/// adds its statements here too (the test's message lists what a migrated store holds).
extension StoreSchema {
    /// Brings a database to the current schema: an empty one (a new file, a store in memory) made at once, any
    /// other migrated from where it stands.
    static func prepare(_ database: any DatabaseWriter) throws {
        let isEmpty = try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") == 0 }
        guard isEmpty else { return try migrator.migrate(database) }
        try database.write { db in
            for statement in newStoreStatements { try db.execute(sql: statement) }
            for migration in migrations {
                try db.execute(
                    sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
            }
        }
    }

    /// The statements that made a database's tables, indexes and triggers, in the order they were made (those
    /// SQLite makes itself, for FTS5 and for constraints, left out).
    static func statements(_ db: Database) throws -> [String] {
        try String.fetchAll(
            db,
            sql: """
                SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT IN (
                    SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow')
                ORDER BY rowid
                """)
    }

    /// What every migration leaves in an empty file, in the order it was made.
    static let newStoreStatements: [String] = [
        """
        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)
        """,
        """
        CREATE TABLE calendar (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            color TEXT,
            source TEXT,
            productID TEXT
        , header TEXT, generation INTEGER NOT NULL DEFAULT 0)
        """,
        """
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
        )
        """,
        """
        CREATE INDEX item_due ON item(calendarID, dueUTC)
        """,
        """
        CREATE INDEX item_uid ON item(uid)
        """,
        """
        CREATE TABLE category (name TEXT PRIMARY KEY COLLATE NOCASE, color TEXT)
        """,
        """
        CREATE TABLE relation (
            itemID INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
            relatedUID TEXT NOT NULL,
            relationType TEXT NOT NULL
        )
        """,
        """
        CREATE INDEX relation_uid ON relation(relatedUID)
        """,
        """
        CREATE TABLE timeZone (
            calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
            tzid TEXT NOT NULL,
            content TEXT NOT NULL,
            PRIMARY KEY (calendarID, tzid)
        )
        """,
        """
        CREATE TABLE tombstone (
            calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
            uid TEXT NOT NULL,
            recurrenceID TEXT NOT NULL,
            deletedAt INTEGER NOT NULL,
            PRIMARY KEY (calendarID, uid, recurrenceID)
        )
        """,
        """
        CREATE TABLE syncSource (
            calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
            source TEXT NOT NULL,
            digest TEXT NOT NULL,
            PRIMARY KEY (calendarID, source)
        )
        """,
        """
        CREATE INDEX item_window ON item(calendarID, startUTC, dueUTC, rangeEndUTC, endUTC, isRecurring, uid)
        """,
        """
        CREATE TABLE otherComponent (
            calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            content TEXT NOT NULL,
            PRIMARY KEY (calendarID, key)
        )
        """,
        """
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
        )
        """,
        """
        CREATE TABLE syncResource (
            calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
            partner TEXT NOT NULL,
            href TEXT NOT NULL,
            etag TEXT NOT NULL,
            uids TEXT NOT NULL,
            PRIMARY KEY (calendarID, partner, href)
        )
        """,
        """
        CREATE TABLE syncPartner (
            calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
            partner TEXT NOT NULL,
            kind TEXT NOT NULL,
            location TEXT NOT NULL,
            user TEXT, syncToken TEXT,
            PRIMARY KEY (calendarID, partner)
        )
        """,
        """
        CREATE TABLE syncBase (
            calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
            partner TEXT NOT NULL,
            uid TEXT NOT NULL,
            recurrenceID TEXT NOT NULL,
            content TEXT NOT NULL,
            PRIMARY KEY (calendarID, partner, uid, recurrenceID)
        )
        """,
        """
        CREATE TABLE "itemCategory" (
            itemID INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
            name TEXT NOT NULL COLLATE NOCASE,
            PRIMARY KEY (itemID, name)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE "syncState" (
            calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
            source TEXT NOT NULL,
            uid TEXT NOT NULL,
            recurrenceID TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            readFingerprint TEXT,
            PRIMARY KEY (calendarID, source, uid, recurrenceID)
        ) WITHOUT ROWID
        """,
        """
        CREATE VIRTUAL TABLE itemSearch USING fts5(
            summary, location, description, people, categories, tokenize = 'unicode61 remove_diacritics 2')
        """,
        """
        CREATE TABLE itemSearchState (indexedThrough INTEGER NOT NULL)
        """,
        """
        CREATE TABLE itemSearchStale (itemID INTEGER PRIMARY KEY)
        """,
        """
        CREATE TRIGGER itemSearchDelete AFTER DELETE ON item BEGIN
            DELETE FROM itemSearch WHERE rowid = old.id;
            DELETE FROM itemSearchStale WHERE itemID = old.id;
            UPDATE itemSearchState SET indexedThrough = (SELECT coalesce(max(id), 0) FROM item)
            WHERE indexedThrough > (SELECT coalesce(max(id), 0) FROM item);
        END
        """,
        """
        CREATE TABLE undoStep (
            id INTEGER PRIMARY KEY,
            label TEXT NOT NULL,
            at INTEGER NOT NULL,
            process TEXT NOT NULL,
            bytes INTEGER NOT NULL DEFAULT 0
        )
        """,
        """
        CREATE TABLE undoLog (
            seq INTEGER PRIMARY KEY,
            step INTEGER NOT NULL,
            txn INTEGER NOT NULL,
            tableName TEXT NOT NULL,
            kind TEXT NOT NULL,
            statement TEXT NOT NULL,
            rowID INTEGER
        )
        """,
        """
        CREATE INDEX undoLog_step ON undoLog(step, txn)
        """,
        """
        CREATE TABLE instanceMonth (
            id INTEGER PRIMARY KEY,
            calendarID INTEGER NOT NULL,
            month INTEGER NOT NULL,
            viewerZone TEXT NOT NULL,
            applyWRTimeZone INTEGER NOT NULL,
            zones TEXT NOT NULL,
            basis TEXT NOT NULL,
            -- 1: expanding this month said something (a zone it could not use, a limit): the calendar is expanded
            -- where it is listed, so that the same is said there, and nothing is kept.
            expands INTEGER NOT NULL DEFAULT 0,
            -- The longest instance kept (seconds): what bounds a window's search from below.
            longest INTEGER NOT NULL DEFAULT 0,
            -- When a listing last read it (a counter): the least recently read go first past `monthLimit`.
            usedAt INTEGER NOT NULL DEFAULT 0,
            UNIQUE (calendarID, viewerZone, applyWRTimeZone, zones, month)
        )
        """,
        """
        CREATE TABLE instanceStale (calendarID INTEGER NOT NULL, uid TEXT NOT NULL, PRIMARY KEY (calendarID, uid))
            WITHOUT ROWID
        """,
        """
        CREATE TABLE instanceState (builtThrough INTEGER NOT NULL)
        """,
        """
        CREATE TABLE setting (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID
        """,
        """
        CREATE TABLE schedulingMessage (
            id INTEGER PRIMARY KEY,
            calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
            uid TEXT NOT NULL,
            method TEXT NOT NULL,
            recurrenceID TEXT NOT NULL,
            sequence INTEGER NOT NULL,
            stamp INTEGER NOT NULL,
            digest TEXT NOT NULL,
            content TEXT NOT NULL
        )
        """,
        """
        CREATE INDEX schedulingMessage_uid ON schedulingMessage(calendarID, uid)
        """,
        """
        CREATE TRIGGER itemSearchChange AFTER UPDATE OF content ON item WHEN old.content IS NOT new.content BEGIN
            DELETE FROM itemSearch WHERE rowid = old.id;
            INSERT INTO itemSearchStale (itemID)
            SELECT old.id WHERE old.id <= (SELECT indexedThrough FROM itemSearchState)
            AND NOT EXISTS (SELECT 1 FROM itemSearchStale WHERE itemID = old.id);
        END
        """,
        """
        CREATE TABLE syncRefusal (
            calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
            partner TEXT NOT NULL,
            uid TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            reason TEXT NOT NULL,
            PRIMARY KEY (calendarID, partner, uid)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE heldSchedulingMessage (
            id INTEGER PRIMARY KEY,
            calendar TEXT NOT NULL,
            uid TEXT NOT NULL,
            method TEXT NOT NULL,
            recurrenceID TEXT NOT NULL,
            summary TEXT,
            reason TEXT NOT NULL,
            awaitsInvitation INTEGER NOT NULL,
            received INTEGER NOT NULL,
            content TEXT NOT NULL
        , digest TEXT)
        """,
        """
        CREATE INDEX heldSchedulingMessage_uid ON heldSchedulingMessage(uid)
        """,
        """
        CREATE TABLE instance (
            monthID INTEGER NOT NULL,
            itemID INTEGER NOT NULL,
            uid TEXT NOT NULL,
            kind TEXT NOT NULL,
            -- Its place in its month's expansion.
            position INTEGER NOT NULL,
            startUTC INTEGER NOT NULL,
            endUTC INTEGER NOT NULL,
            startWall INTEGER NOT NULL,
            startForm TEXT NOT NULL,
            endWall INTEGER NOT NULL,
            endForm TEXT NOT NULL,
            recurrenceUTC INTEGER,
            recurrenceWall INTEGER,
            recurrenceForm TEXT,
            floating INTEGER NOT NULL,
            hasAlarm INTEGER NOT NULL,
            -- When the instance's alarms can go off (UTC seconds, a day of slack each side).
            alarmFirst INTEGER,
            alarmLast INTEGER,
            -- Kept in the order a window reads them: a month's instances by start, side by side.
            PRIMARY KEY (monthID, startUTC, position)
        ) WITHOUT ROWID
        """,
        """
        CREATE INDEX instance_alarm ON instance(monthID, startUTC) WHERE hasAlarm
        """,
        """
        CREATE INDEX instance_item ON instance(itemID)
        """,
        """
        CREATE INDEX instance_uid ON instance(uid)
        """,
        """
        CREATE INDEX schedulingMessage_method ON schedulingMessage(calendarID, uid, method, digest)
        """,
        """
        CREATE INDEX heldSchedulingMessage_digest ON heldSchedulingMessage(uid, method, digest)
        """,
        """
        CREATE TABLE share (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            tokenHash TEXT NOT NULL UNIQUE,
            uidKey TEXT NOT NULL,
            level TEXT NOT NULL,
            calendars TEXT NOT NULL,
            window TEXT NOT NULL,
            app TEXT,
            todos INTEGER NOT NULL DEFAULT 0,
            baseURL TEXT,
            created INTEGER NOT NULL
        )
        """,
        """
        CREATE TRIGGER calendarGenerationItemUpdate AFTER UPDATE ON item BEGIN
            UPDATE calendar SET generation = generation + 1 WHERE id IN (old.calendarID, new.calendarID);
        END
        """,
        """
        CREATE TRIGGER calendarGenerationItemDelete AFTER DELETE ON item BEGIN
            UPDATE calendar SET generation = generation + 1 WHERE id = old.calendarID;
        END
        """,
        """
        CREATE TRIGGER calendarGenerationZoneInsert AFTER INSERT ON timeZone BEGIN
            UPDATE calendar SET generation = generation + 1 WHERE id = new.calendarID;
        END
        """,
        """
        CREATE TRIGGER calendarGenerationZoneDelete AFTER DELETE ON timeZone BEGIN
            UPDATE calendar SET generation = generation + 1 WHERE id = old.calendarID;
        END
        """,
        """
        CREATE TRIGGER calendarGenerationOwn AFTER UPDATE OF name, color, header ON calendar BEGIN
            UPDATE calendar SET generation = generation + 1 WHERE id = new.id;
        END
        """,
        """
        CREATE TRIGGER instanceItemDelete AFTER DELETE ON item WHEN EXISTS (SELECT 1 FROM instanceMonth) BEGIN
            DELETE FROM instance WHERE itemID = old.id;
            INSERT INTO instanceStale (calendarID, uid) SELECT old.calendarID, old.uid
            WHERE NOT EXISTS (SELECT 1 FROM instanceStale WHERE calendarID = old.calendarID AND uid = old.uid);
            UPDATE instanceState SET builtThrough = (SELECT coalesce(max(id), 0) FROM item)
            WHERE builtThrough > (SELECT coalesce(max(id), 0) FROM item);
        END
        """,
        """
        CREATE TRIGGER instanceItemChange AFTER UPDATE OF content, calendarID, uid ON item
        WHEN EXISTS (SELECT 1 FROM instanceMonth) AND (old.content IS NOT new.content
            OR old.calendarID IS NOT new.calendarID OR old.uid IS NOT new.uid) BEGIN
            INSERT INTO instanceStale (calendarID, uid) SELECT old.calendarID, old.uid
            WHERE NOT EXISTS (SELECT 1 FROM instanceStale WHERE calendarID = old.calendarID AND uid = old.uid);
            INSERT INTO instanceStale (calendarID, uid) SELECT new.calendarID, new.uid
            WHERE NOT EXISTS (SELECT 1 FROM instanceStale WHERE calendarID = new.calendarID AND uid = new.uid);
        END
        """,
        "CREATE TABLE bulkInsert (calendarID INTEGER PRIMARY KEY)",
        """
        CREATE TRIGGER calendarGenerationItemInsert AFTER INSERT ON item
        WHEN NOT EXISTS (SELECT 1 FROM bulkInsert WHERE calendarID = new.calendarID) BEGIN
            UPDATE calendar SET generation = generation + 1 WHERE id = new.calendarID;
        END
        """,
        "INSERT INTO itemSearchState (indexedThrough) VALUES (0)",
        "INSERT INTO instanceState (builtThrough) VALUES (0)",
    ]
}
