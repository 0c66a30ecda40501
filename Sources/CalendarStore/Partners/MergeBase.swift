import CalendarMerge
import CalendarModel
import Foundation
internal import GRDB

/// The store as the storage side of merges: a snapshot to plan from, and a transaction that takes the snapshot
/// anew and writes the merge's decision without anything in between.
extension CalendarStore: MergeStorage {
    /// The calendar's items, the source's base, the tombstones and the last digest, as they stand. Read on the
    /// writing connection and kept (`SnapshotCache`), so that an `updateAtomically` right after reads it again
    /// only when the database changed meanwhile.
    public func mergeSnapshot(calendar: String, source: String) throws -> MergeSnapshot {
        try database.writeWithoutTransaction { db in
            var entry: SnapshotCache.Entry?
            try db.inTransaction(.deferred) {
                entry = SnapshotCache.Entry(
                    calendar: calendar, source: source, marks: try SnapshotCache.marks(db),
                    snapshot: try Self.snapshot(db, calendar: calendar, source: source))
                return .commit
            }
            snapshots.keep(entry!)
            return entry!.snapshot
        }
    }

    /// The digest of the file the source's last merge read, if it recorded one.
    public func mergeDigest(calendar: String, source: String) throws -> String? {
        try database.read { db in
            guard let id = try StoreWriter(db).calendarID(named: calendar, create: false) else { return nil }
            return try Self.digest(db, calendarID: id, source: source)
        }
    }

    /// The items' content and their base's, as they stand.
    public func mergeContents(calendar: String, source: String, keys: Set<MergeKey>) throws -> MergeContents {
        try database.read { db in try Self.contents(db, calendar: calendar, source: source, keys: keys) }
    }

    /// Reads the snapshot and writes `decide`'s plan in one write transaction (see `MergeStorage`).
    public func updateAtomically<Outcome>(
        calendar: String, source: String,
        _ decide: (MergeSnapshot, MergeContentReader) throws -> (write: MergeWrite?, outcome: Outcome)
    )
        throws -> Outcome
    {
        try write { db in
            let snapshot =
                try snapshots.take(calendar: calendar, source: source, ifUnchangedIn: db)
                ?? Self.snapshot(db, calendar: calendar, source: source)
            let (write, outcome) = try decide(snapshot) { keys in
                try Self.contents(db, calendar: calendar, source: source, keys: keys)
            }
            guard let write else { return outcome }
            let writer = StoreWriter(db)
            let id = try writer.calendarID(named: calendar, create: true)!
            try db.execute(
                sql: "UPDATE calendar SET source = coalesce(source, ?) WHERE id = ?", arguments: [source, id])
            try writer.saveTimeZones(write.timeZones, calendarID: id)
            try writer.saveCalendarParts(of: write.calendarParts, calendarID: id)
            let time = CalendarTime(calendar: CalendarMerger.zoneCalendar(write.timeZones), viewerZone: "UTC")
            for item in write.upserts {
                guard let row = ItemRow(item, time: time) else { continue }
                // An item the calendar never had (nor deleted) has no categories, relations or tombstone to clear.
                let isNew = snapshot.items[item.key] == nil && !snapshot.tombstones.contains(item.key)
                try writer.save(row, calendarID: id, isNew: isNew)
            }
            for key in write.deletions { try writer.delete(key, calendarID: id, tombstone: false) }
            try writer.changeBase(
                write.baseChanges, contents: write.baseContents, previous: snapshot, calendarID: id, source: source)
            try writer.setDigest(write.digest, calendarID: id, source: source)
            return outcome
        }
    }

    /// What the store holds for a calendar and a source; empty when the calendar does not exist.
    static func snapshot(_ db: Database, calendar: String, source: String) throws -> MergeSnapshot {
        var snapshot = MergeSnapshot()
        guard let id = try StoreWriter(db).calendarID(named: calendar, create: false) else { return snapshot }
        // Cursors: a snapshot of a large calendar is tens of thousands of rows.
        let items = try ItemVersionRecord.fetchCursor(
            db,
            sql: """
                SELECT uid, recurrenceID, fingerprint, sequence, lastModifiedUTC, stampUTC FROM item WHERE calendarID = ?
                """, arguments: [id])
        snapshot.items.reserveCapacity(
            try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE calendarID = ?", arguments: [id]) ?? 0)
        while let item = try items.next() { snapshot.items[item.key] = item.version }
        let base = try BaseRecord.fetchCursor(
            db,
            sql: """
                SELECT uid, recurrenceID, fingerprint, readFingerprint FROM syncState WHERE calendarID = ? AND source = ?
                """, arguments: [id, source])
        snapshot.base.reserveCapacity(snapshot.items.count)
        while let entry = try base.next() {
            // An entry of an item takes the item's key and, when equal, its fingerprint: text shared rather than
            // equal is compared at once, and a merge compares these tens of thousands of times.
            var (key, fingerprint) = (entry.key, entry.fingerprint)
            if let index = snapshot.items.index(forKey: key) {
                let (itemKey, version) = snapshot.items[index]
                key = itemKey
                if version.fingerprint == fingerprint { fingerprint = version.fingerprint }
            }
            snapshot.base[key] = fingerprint
            if let read = entry.readFingerprint { snapshot.readBase[key] = read }
        }
        snapshot.tombstones = Set(
            try KeyRecord.fetchAll(
                db,
                sql: """
                    SELECT uid, recurrenceID FROM tombstone WHERE calendarID = ?
                    """, arguments: [id]
            ).map(\.key))
        snapshot.digest = try digest(db, calendarID: id, source: source)
        return snapshot
    }

    /// The digest the source's last merge into the calendar recorded.
    static func digest(_ db: Database, calendarID: Int64, source: String) throws -> String? {
        try String.fetchOne(
            db, sql: "SELECT digest FROM syncSource WHERE calendarID = ? AND source = ?",
            arguments: [calendarID, source])
    }

    /// What the calendar holds for these keys, and what the source's base says of them: the base entry's own
    /// content where one is kept (`syncBase`), else the item's when its fingerprint is the base's.
    static func contents(_ db: Database, calendar: String, source: String, keys: Set<MergeKey>) throws -> MergeContents
    {
        var contents = MergeContents()
        guard !keys.isEmpty, let id = try StoreWriter(db).calendarID(named: calendar, create: false) else {
            return contents
        }
        let select = try db.cachedStatement(
            sql: """
                SELECT i.content, i.fingerprint = s.fingerprint, b.content
                FROM (SELECT ?1 AS calendarID, ?3 AS uid, ?4 AS recurrenceID) k
                LEFT JOIN item i ON i.calendarID = k.calendarID AND i.uid = k.uid AND i.recurrenceID = k.recurrenceID
                LEFT JOIN syncState s ON s.calendarID = k.calendarID AND s.source = ?2 AND s.uid = k.uid
                    AND s.recurrenceID = k.recurrenceID
                LEFT JOIN syncBase b ON b.calendarID = k.calendarID AND b.partner = ?2 AND b.uid = k.uid
                    AND b.recurrenceID = k.recurrenceID
                """)
        func component(_ text: String?) -> Component? {
            text.flatMap { ICS.read(Array($0.utf8)).components.first }
        }
        for key in keys {
            guard let row = try Row.fetchOne(select, arguments: [id, source, key.uid, key.recurrenceID]) else {
                continue
            }
            let item: String? = row[0], itemIsBase: Bool? = row[1], base: String? = row[2]
            contents.local[key] = component(item)
            contents.base[key] = component(base ?? (itemIsBase == true ? item : nil))
        }
        return contents
    }
}

/// The last merge snapshot taken, with what tells whether the database changed since: SQLite's `data_version` of
/// the writing connection (it moves when another connection commits) and its `total_changes()` (the rows this
/// connection changed). When neither moved, the database is the one the snapshot was read from.
final class SnapshotCache: @unchecked Sendable {
    struct Entry {
        var calendar: String
        var source: String
        var marks: [Int64]
        var snapshot: MergeSnapshot
    }

    private let lock = NSLock()
    private var entry: Entry?

    static func marks(_ db: Database) throws -> [Int64] {
        [
            try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? -1,
            try Int64.fetchOne(db, sql: "SELECT total_changes()") ?? -1,
        ]
    }

    func keep(_ entry: Entry) { lock.withLock { self.entry = entry } }

    /// The snapshot kept for this calendar and source if the database has not changed since (taken once).
    func take(calendar: String, source: String, ifUnchangedIn db: Database) throws -> MergeSnapshot? {
        guard
            let entry = lock.withLock({ () -> Entry? in
                defer { self.entry = nil }
                return self.entry
            }), entry.calendar == calendar, entry.source == source, try Self.marks(db) == entry.marks
        else { return nil }
        return entry.snapshot
    }
}

/// An item's key and version, as a snapshot reads them.
struct ItemVersionRecord: FetchableRecord {
    var key: MergeKey
    var version: ItemVersion

    /// From a row of uid, recurrenceID, fingerprint, sequence, lastModifiedUTC, stampUTC (by position: a
    /// snapshot reads tens of thousands).
    init(row: Row) throws {
        key = MergeKey(uid: try row.decode(atIndex: 0), recurrenceID: try row.decode(atIndex: 1))
        version = ItemVersion(
            fingerprint: try row.decode(atIndex: 2), sequence: try row.decode(Int?.self, atIndex: 3) ?? 0,
            lastModified: try row.decode(atIndex: 4), stamp: try row.decode(atIndex: 5))
    }
}

/// A merge base entry, from a row of uid, recurrenceID, fingerprint and maybe readFingerprint.
struct BaseRecord: FetchableRecord {
    var key: MergeKey
    var fingerprint: String
    var readFingerprint: String?

    init(row: Row) throws {
        key = try KeyRecord(row: row).key
        fingerprint = try row.decode(atIndex: 2)
        readFingerprint = row.count > 3 ? try row.decode(atIndex: 3) : nil
    }
}

/// A UID and RECURRENCE-ID, the first two columns of a row.
struct KeyRecord: FetchableRecord {
    var key: MergeKey

    init(row: Row) throws {
        key = MergeKey(uid: try row.decode(atIndex: 0), recurrenceID: try row.decode(atIndex: 1))
    }
}

/// An item's text and the calendar it is in.
struct ItemContentRecord: FetchableRecord {
    var calendarID: Int64
    var calendar: String
    var content: String

    init(row: Row) throws {
        calendarID = try row.decode(forColumn: "calendarID")
        calendar = try row.decode(forColumn: "name")
        content = try row.decode(forColumn: "content")
    }

    /// The item the text holds.
    var component: CalendarComponent? { ICS.read(Array(content.utf8)).calendars.first?.components.first }
}
