/// The SQL of the store's migrations, as each was released: frozen, never edited again (a store made by any
/// release must migrate the same way). A change to the schema is a new migration: its text here, its function in
/// MigrationSteps.swift, its line in `StoreSchema.migrations`.
extension StoreSchema {
    static let v1Tables = """
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
        """

    static let v13Search = """
        CREATE VIRTUAL TABLE itemSearch USING fts5(
            summary, location, description, people, categories, tokenize = 'unicode61 remove_diacritics 2');
        CREATE TABLE itemSearchState (indexedThrough INTEGER NOT NULL);
        INSERT INTO itemSearchState (indexedThrough) VALUES (0);
        CREATE TABLE itemSearchStale (itemID INTEGER PRIMARY KEY);
        -- A new item takes an id above every id in the table: when the highest goes, the mark comes down with it,
        -- so that an item given that id again is indexed.
        CREATE TRIGGER itemSearchDelete AFTER DELETE ON item BEGIN
            DELETE FROM itemSearch WHERE rowid = old.id;
            DELETE FROM itemSearchStale WHERE itemID = old.id;
            UPDATE itemSearchState SET indexedThrough = (SELECT coalesce(max(id), 0) FROM item)
            WHERE indexedThrough > (SELECT coalesce(max(id), 0) FROM item);
        END;
        CREATE TRIGGER itemSearchChange AFTER UPDATE OF content ON item WHEN old.content IS NOT new.content BEGIN
            DELETE FROM itemSearch WHERE rowid = old.id;
            INSERT OR IGNORE INTO itemSearchStale (itemID)
            SELECT old.id WHERE old.id <= (SELECT indexedThrough FROM itemSearchState);
        END;
        """

    static let v14UndoLog = """
        CREATE TABLE undoStep (
            id INTEGER PRIMARY KEY,
            label TEXT NOT NULL,
            at INTEGER NOT NULL,
            process TEXT NOT NULL,
            bytes INTEGER NOT NULL DEFAULT 0
        );
        -- `kind` is what the step did to the row (update, delete), `mark` (the rows above a mark) or `above`
        -- (the rows above the highest after a deletion); `statement` undoes it; `rowID` is the row's, or the
        -- mark's.
        CREATE TABLE undoLog (
            seq INTEGER PRIMARY KEY,
            step INTEGER NOT NULL,
            txn INTEGER NOT NULL,
            tableName TEXT NOT NULL,
            kind TEXT NOT NULL,
            statement TEXT NOT NULL,
            rowID INTEGER
        );
        CREATE INDEX undoLog_step ON undoLog(step, txn);
        """

    static let v15Instances = """
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
        );
        CREATE TABLE instance (
            monthID INTEGER NOT NULL,
            itemID INTEGER NOT NULL,
            uid TEXT NOT NULL,
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
            -- Kept in the order a window reads them: a month's instances by start, side by side.
            PRIMARY KEY (monthID, startUTC, position)
        ) WITHOUT ROWID;
        CREATE INDEX instance_alarm ON instance(monthID, startUTC) WHERE hasAlarm;
        CREATE INDEX instance_item ON instance(itemID);
        CREATE INDEX instance_uid ON instance(uid);
        -- The items instances are kept for, briefly (`brief`): what listing them reads instead of their content.
        CREATE TABLE instanceItem (
            itemID INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            uid TEXT NOT NULL,
            recurrenceID TEXT NOT NULL,
            brief BLOB NOT NULL
        );
        CREATE TABLE instanceStale (calendarID INTEGER NOT NULL, uid TEXT NOT NULL, PRIMARY KEY (calendarID, uid))
            WITHOUT ROWID;
        CREATE TABLE instanceState (builtThrough INTEGER NOT NULL);
        INSERT INTO instanceState (builtThrough) VALUES (0);
        -- New items take ids above builtThrough (when the highest row goes, the mark comes down with it); changed
        -- and deleted ones mark their UID. Nothing is marked while no month is kept. (Not INSERT OR IGNORE: the
        -- conflict clause of the statement that fires a trigger overrides the trigger's own.)
        CREATE TRIGGER instanceItemDelete AFTER DELETE ON item WHEN EXISTS (SELECT 1 FROM instanceMonth) BEGIN
            DELETE FROM instance WHERE itemID = old.id;
            DELETE FROM instanceItem WHERE itemID = old.id;
            INSERT INTO instanceStale (calendarID, uid) SELECT old.calendarID, old.uid
            WHERE NOT EXISTS (SELECT 1 FROM instanceStale WHERE calendarID = old.calendarID AND uid = old.uid);
            UPDATE instanceState SET builtThrough = (SELECT coalesce(max(id), 0) FROM item)
            WHERE builtThrough > (SELECT coalesce(max(id), 0) FROM item);
        END;
        CREATE TRIGGER instanceItemChange AFTER UPDATE OF content, calendarID, uid ON item
        WHEN EXISTS (SELECT 1 FROM instanceMonth) AND (old.content IS NOT new.content
            OR old.calendarID IS NOT new.calendarID OR old.uid IS NOT new.uid) BEGIN
            DELETE FROM instanceItem WHERE itemID = old.id;
            INSERT INTO instanceStale (calendarID, uid) SELECT old.calendarID, old.uid
            WHERE NOT EXISTS (SELECT 1 FROM instanceStale WHERE calendarID = old.calendarID AND uid = old.uid);
            INSERT INTO instanceStale (calendarID, uid) SELECT new.calendarID, new.uid
            WHERE NOT EXISTS (SELECT 1 FROM instanceStale WHERE calendarID = new.calendarID AND uid = new.uid);
        END;
        """

    /// Schema v17: each kept item's listed fields as bytes (`ListedItem`) and its short handle; the handles are
    /// forgotten when a UID may have come or gone, which the triggers count (`uidEpoch`) for deletions and changed
    /// UIDs, and the highest item id shows for additions (a deletion of the highest row counts first).
    static let v17Listing = """
        DELETE FROM instance; DELETE FROM instanceItem; DELETE FROM instanceMonth; DELETE FROM instanceStale;
        UPDATE instanceState SET builtThrough = (SELECT coalesce(max(id), 0) FROM item);
        ALTER TABLE instanceItem ADD COLUMN listing BLOB NOT NULL DEFAULT x'';
        -- The forms of kept times (`form(_: CalendarDate)`: D, F, U, Z and a TZID), each once.
        CREATE TABLE instanceForm (id INTEGER PRIMARY KEY, form TEXT NOT NULL UNIQUE);
        DROP TABLE instance;
        CREATE TABLE instance (
            monthID INTEGER NOT NULL,
            itemID INTEGER NOT NULL,
            uid TEXT NOT NULL,
            position INTEGER NOT NULL,
            startUTC INTEGER NOT NULL,
            endUTC INTEGER NOT NULL,
            startWall INTEGER NOT NULL,
            startForm INTEGER NOT NULL,
            endWall INTEGER NOT NULL,
            endForm INTEGER NOT NULL,
            recurrenceUTC INTEGER,
            recurrenceWall INTEGER,
            recurrenceForm INTEGER,
            floating INTEGER NOT NULL,
            hasAlarm INTEGER NOT NULL,
            -- When the instance's alarms can go off (UTC seconds, a day of slack each side).
            alarmFirst INTEGER,
            alarmLast INTEGER,
            PRIMARY KEY (monthID, startUTC, position)
        ) WITHOUT ROWID;
        CREATE INDEX instance_alarm ON instance(monthID, startUTC) WHERE hasAlarm;
        CREATE INDEX instance_item ON instance(itemID);
        CREATE INDEX instance_uid ON instance(uid);
        ALTER TABLE instanceItem ADD COLUMN handle TEXT;
        ALTER TABLE instanceState ADD COLUMN uidEpoch INTEGER NOT NULL DEFAULT 0;
        -- uidEpoch and the highest item id when the kept handles were made.
        ALTER TABLE instanceState ADD COLUMN handlesKey TEXT NOT NULL DEFAULT '';
        DROP TRIGGER instanceItemDelete;
        DROP TRIGGER instanceItemChange;
        CREATE TRIGGER instanceItemDelete AFTER DELETE ON item WHEN EXISTS (SELECT 1 FROM instanceMonth) BEGIN
            DELETE FROM instance WHERE itemID = old.id;
            DELETE FROM instanceItem WHERE itemID = old.id;
            INSERT INTO instanceStale (calendarID, uid) SELECT old.calendarID, old.uid
            WHERE NOT EXISTS (SELECT 1 FROM instanceStale WHERE calendarID = old.calendarID AND uid = old.uid);
            UPDATE instanceState SET builtThrough = (SELECT coalesce(max(id), 0) FROM item)
            WHERE builtThrough > (SELECT coalesce(max(id), 0) FROM item);
            UPDATE instanceState SET uidEpoch = uidEpoch + 1;
        END;
        CREATE TRIGGER instanceItemChange AFTER UPDATE OF content, calendarID, uid ON item
        WHEN EXISTS (SELECT 1 FROM instanceMonth) AND (old.content IS NOT new.content
            OR old.calendarID IS NOT new.calendarID OR old.uid IS NOT new.uid) BEGIN
            DELETE FROM instanceItem WHERE itemID = old.id;
            INSERT INTO instanceStale (calendarID, uid) SELECT old.calendarID, old.uid
            WHERE NOT EXISTS (SELECT 1 FROM instanceStale WHERE calendarID = old.calendarID AND uid = old.uid);
            INSERT INTO instanceStale (calendarID, uid) SELECT new.calendarID, new.uid
            WHERE NOT EXISTS (SELECT 1 FROM instanceStale WHERE calendarID = new.calendarID AND uid = new.uid);
            UPDATE instanceState SET uidEpoch = uidEpoch + 1 WHERE old.uid IS NOT new.uid;
        END;
        """

    static let v18Scheduling = """
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
        );
        CREATE INDEX schedulingMessage_uid ON schedulingMessage(calendarID, uid);
        """

    /// Schema v19: the change trigger marks an item stale only when it is not marked yet. v13's `INSERT OR IGNORE`
    /// took the conflict clause of the statement that fired it (an upsert's is ABORT), so the second write to an
    /// item after a search failed on the mark the first had left.
    static let v19SearchMark = """
        DROP TRIGGER itemSearchChange;
        CREATE TRIGGER itemSearchChange AFTER UPDATE OF content ON item WHEN old.content IS NOT new.content BEGIN
            DELETE FROM itemSearch WHERE rowid = old.id;
            INSERT INTO itemSearchStale (itemID)
            SELECT old.id WHERE old.id <= (SELECT indexedThrough FROM itemSearchState)
            AND NOT EXISTS (SELECT 1 FROM itemSearchStale WHERE itemID = old.id);
        END;
        """

    /// Schema v20: the refusals of sync partners (what a partner holds: undo leaves it, like `syncResource`).
    static let v20Refusals = """
        CREATE TABLE syncRefusal (
            calendarID INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
            partner TEXT NOT NULL,
            uid TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            reason TEXT NOT NULL,
            PRIMARY KEY (calendarID, partner, uid)
        ) WITHOUT ROWID;
        """

    static let v21Held = """
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
        );
        CREATE INDEX heldSchedulingMessage_uid ON heldSchedulingMessage(uid);
        """

    /// The instance index (`InstanceIndex`): each instance's times, its item's id, UID and kind, times' forms as
    /// text; of the items their listed lines, where listed fields as bytes, brief texts and handles were (v25 drops
    /// the lines: the name given to this step, "nothing of the items", holds from v25 on).
    static let v22InstanceIndex = """
        DROP TRIGGER instanceItemDelete;
        DROP TRIGGER instanceItemChange;
        DROP TABLE instance;
        DROP TABLE instanceItem;
        DROP TABLE instanceForm;
        DELETE FROM instanceMonth;
        DELETE FROM instanceStale;
        ALTER TABLE instanceState DROP COLUMN uidEpoch;
        ALTER TABLE instanceState DROP COLUMN handlesKey;
        -- The properties the kept listed lines hold (`ListedLines.key`).
        ALTER TABLE instanceState ADD COLUMN listedProperties TEXT NOT NULL DEFAULT '';
        UPDATE instanceState SET builtThrough = (SELECT coalesce(max(id), 0) FROM item);
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
        ) WITHOUT ROWID;
        CREATE INDEX instance_alarm ON instance(monthID, startUTC) WHERE hasAlarm;
        CREATE INDEX instance_item ON instance(itemID);
        CREATE INDEX instance_uid ON instance(uid);
        -- The lines of the properties a listing shows (`ListedLines`), of items with kept instances.
        CREATE TABLE listedItem (itemID INTEGER PRIMARY KEY, lines BLOB NOT NULL);
        -- New items take ids above builtThrough (when the highest row goes, the mark comes down with it); changed
        -- and deleted ones mark their UID. Nothing is marked while no month is kept.
        CREATE TRIGGER instanceItemDelete AFTER DELETE ON item WHEN EXISTS (SELECT 1 FROM instanceMonth) BEGIN
            DELETE FROM instance WHERE itemID = old.id;
            DELETE FROM listedItem WHERE itemID = old.id;
            INSERT INTO instanceStale (calendarID, uid) SELECT old.calendarID, old.uid
            WHERE NOT EXISTS (SELECT 1 FROM instanceStale WHERE calendarID = old.calendarID AND uid = old.uid);
            UPDATE instanceState SET builtThrough = (SELECT coalesce(max(id), 0) FROM item)
            WHERE builtThrough > (SELECT coalesce(max(id), 0) FROM item);
        END;
        CREATE TRIGGER instanceItemChange AFTER UPDATE OF content, calendarID, uid ON item
        WHEN EXISTS (SELECT 1 FROM instanceMonth) AND (old.content IS NOT new.content
            OR old.calendarID IS NOT new.calendarID OR old.uid IS NOT new.uid) BEGIN
            DELETE FROM listedItem WHERE itemID = old.id;
            INSERT INTO instanceStale (calendarID, uid) SELECT old.calendarID, old.uid
            WHERE NOT EXISTS (SELECT 1 FROM instanceStale WHERE calendarID = old.calendarID AND uid = old.uid);
            INSERT INTO instanceStale (calendarID, uid) SELECT new.calendarID, new.uid
            WHERE NOT EXISTS (SELECT 1 FROM instanceStale WHERE calendarID = new.calendarID AND uid = new.uid);
        END;
        """

    /// A message received again, and whether a UID has a REQUEST, are found through an index rather than by reading
    /// every message of the UID (thousands of answers to one item); a message kept aside is known by its digest.
    static let v23SchedulingDigests = """
        CREATE INDEX schedulingMessage_method ON schedulingMessage(calendarID, uid, method, digest);
        ALTER TABLE heldSchedulingMessage ADD COLUMN digest TEXT;
        CREATE INDEX heldSchedulingMessage_digest ON heldSchedulingMessage(uid, method, digest);
        """

    /// Shared feeds (`icskit share`): what each shows of which calendars, and the SHA-256 of its token (never the
    /// token); and a generation per calendar that every change of its items, zones or own properties moves on, so a
    /// served feed is built again only when it may have changed.
    static let v24Shares = """
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
        );
        ALTER TABLE calendar ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
        CREATE TRIGGER calendarGenerationItemInsert AFTER INSERT ON item BEGIN
            UPDATE calendar SET generation = generation + 1 WHERE id = new.calendarID;
        END;
        CREATE TRIGGER calendarGenerationItemUpdate AFTER UPDATE ON item BEGIN
            UPDATE calendar SET generation = generation + 1 WHERE id IN (old.calendarID, new.calendarID);
        END;
        CREATE TRIGGER calendarGenerationItemDelete AFTER DELETE ON item BEGIN
            UPDATE calendar SET generation = generation + 1 WHERE id = old.calendarID;
        END;
        CREATE TRIGGER calendarGenerationZoneInsert AFTER INSERT ON timeZone BEGIN
            UPDATE calendar SET generation = generation + 1 WHERE id = new.calendarID;
        END;
        CREATE TRIGGER calendarGenerationZoneDelete AFTER DELETE ON timeZone BEGIN
            UPDATE calendar SET generation = generation + 1 WHERE id = old.calendarID;
        END;
        CREATE TRIGGER calendarGenerationOwn AFTER UPDATE OF name, color, header ON calendar BEGIN
            UPDATE calendar SET generation = generation + 1 WHERE id = new.id;
        END;
        """
}

/// Schema v25: the instance index keeps nothing of the items (`listedItem` and the properties its lines held go; a
/// listing reads whole items). The item triggers are made again without the lines.
extension StoreSchema {
    static let v25WholeItems = """
        DROP TRIGGER instanceItemDelete;
        DROP TRIGGER instanceItemChange;
        DROP TABLE listedItem;
        ALTER TABLE instanceState DROP COLUMN listedProperties;
        CREATE TRIGGER instanceItemDelete AFTER DELETE ON item WHEN EXISTS (SELECT 1 FROM instanceMonth) BEGIN
            DELETE FROM instance WHERE itemID = old.id;
            INSERT INTO instanceStale (calendarID, uid) SELECT old.calendarID, old.uid
            WHERE NOT EXISTS (SELECT 1 FROM instanceStale WHERE calendarID = old.calendarID AND uid = old.uid);
            UPDATE instanceState SET builtThrough = (SELECT coalesce(max(id), 0) FROM item)
            WHERE builtThrough > (SELECT coalesce(max(id), 0) FROM item);
        END;
        CREATE TRIGGER instanceItemChange AFTER UPDATE OF content, calendarID, uid ON item
        WHEN EXISTS (SELECT 1 FROM instanceMonth) AND (old.content IS NOT new.content
            OR old.calendarID IS NOT new.calendarID OR old.uid IS NOT new.uid) BEGIN
            INSERT INTO instanceStale (calendarID, uid) SELECT old.calendarID, old.uid
            WHERE NOT EXISTS (SELECT 1 FROM instanceStale WHERE calendarID = old.calendarID AND uid = old.uid);
            INSERT INTO instanceStale (calendarID, uid) SELECT new.calendarID, new.uid
            WHERE NOT EXISTS (SELECT 1 FROM instanceStale WHERE calendarID = new.calendarID AND uid = new.uid);
        END;
        """
}

/// Schema v26: the items one transaction inserts in bulk (an import's) move their calendar's generation once, not
/// once each. Each move is an UPDATE of the calendar's row, and the undo log's triggers look at every one (and log
/// it when the calendar existed before the transaction): an import of 20,000 events into an existing empty calendar
/// logged 41,136 rows of 8 MB. A calendar listed in `bulkInsert` is left alone by the insert trigger; the writer
/// lists it inside its transaction, and at the end takes it off and moves the generation itself. The undo log's
/// trigger on the merge base (`syncState`) leaves a listed calendar's rows to the writer too (`UndoLog.logBulkBase`).
extension StoreSchema {
    static let v26BulkInserts = """
        CREATE TABLE bulkInsert (calendarID INTEGER PRIMARY KEY);
        DROP TRIGGER calendarGenerationItemInsert;
        CREATE TRIGGER calendarGenerationItemInsert AFTER INSERT ON item
        WHEN NOT EXISTS (SELECT 1 FROM bulkInsert WHERE calendarID = new.calendarID) BEGIN
            UPDATE calendar SET generation = generation + 1 WHERE id = new.calendarID;
        END;
        """
}
