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

// MARK: Local edits

extension CalendarStore {
    /// Adds an item made here (an event, todo or journal) to a store calendar, creating the calendar if needed, and
    /// gives categories their colours, in one transaction. Local items are no source's: merges keep them.
    public func add(
        _ component: CalendarComponent, to calendar: String,
        categoryColors: [(category: String, color: String)] = []
    ) throws {
        guard component.identity.uid != nil,
            let row = ItemRow(
                component,
                time: CalendarTime(
                    calendar: ICalendar(),
                    viewerZone: "UTC"))
        else {
            throw StoreError("an item needs a UID to be added")
        }
        try write { db in
            let writer = StoreWriter(db)
            for (category, color) in categoryColors { try writer.setColor(color, ofCategory: category) }
            try writer.save(row, calendarID: try writer.calendarID(named: calendar, create: true)!)
        }
    }

    /// Deletes every item with this UID (a series with its overrides), leaving tombstones so merges keep them
    /// deleted. Returns how many items went.
    @discardableResult
    public func delete(uid: String, calendar: String? = nil) throws -> Int {
        try write { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT i.calendarID, i.recurrenceID FROM item i JOIN calendar c ON c.id = i.calendarID
                    WHERE i.uid = ? AND (? IS NULL OR c.name = ?)
                    """, arguments: [uid, calendar, calendar])
            let writer = StoreWriter(db)
            for row in rows {
                let key = MergeKey(uid: uid, recurrenceID: try row.decode(forColumn: "recurrenceID"))
                try writer.delete(key, calendarID: try row.decode(forColumn: "calendarID"), tombstone: true)
            }
            return rows.count
        }
    }

    /// Changes every todo with this UID (in `calendar`, when given) as `change` says, each read and written in
    /// the same transaction, so a merge running meanwhile cannot slip between. Returns how many changed.
    @discardableResult
    public func updateTodos(uid: String, calendar: String? = nil, _ change: (inout Todo) -> Void) throws -> Int {
        try write { db in
            let records = try ItemContentRecord.fetchAll(
                db,
                sql: """
                    SELECT i.calendarID, c.name, i.content FROM item i JOIN calendar c ON c.id = i.calendarID
                    WHERE i.uid = ? AND i.kind = 'VTODO' AND (? IS NULL OR c.name = ?)
                    """, arguments: [uid, calendar, calendar])
            let writer = StoreWriter(db)
            let time = CalendarTime(calendar: ICalendar(), viewerZone: "UTC")
            var changed = 0
            for record in records {
                guard case .todo(var todo)? = record.component else { continue }
                change(&todo)
                guard let row = ItemRow(.todo(todo), time: time) else { continue }
                try writer.save(row, calendarID: record.calendarID)
                changed += 1
            }
            return changed
        }
    }

    /// Marks every todo with this UID done: STATUS:COMPLETED, COMPLETED now, PERCENT-COMPLETE:100, SEQUENCE and
    /// LAST-MODIFIED moved on (the rest of the todo stays as it was read). Returns how many todos changed.
    @discardableResult
    public func complete(uid: String, calendar: String? = nil, at date: Date = Date()) throws -> Int {
        let now = LocalDateTime(wallSeconds: Int64(date.timeIntervalSince1970)).calendarDate(.utc)
        return try updateTodos(uid: uid, calendar: calendar) { todo in
            todo.status = .completed
            todo.completed = now
            todo.percentComplete = 100
            todo.sequence = (todo.sequence ?? 0) + 1
            todo.lastModified = now
        }
    }

    /// The calendar an item with this UID is in, and its component, if the store has it.
    public func item(uid: String) throws -> (calendar: String, component: CalendarComponent)? {
        let record = try database.read { db in
            try ItemContentRecord.fetchOne(
                db,
                sql: """
                    SELECT i.calendarID, c.name, i.content FROM item i JOIN calendar c ON c.id = i.calendarID
                    WHERE i.uid = ? ORDER BY i.recurrenceID LIMIT 1
                    """, arguments: [uid])
        }
        guard let record, let component = record.component else { return nil }
        return (record.calendar, component)
    }
}

extension CalendarStore: ItemLabelling {
    /// Each item's SUMMARY and start as stored.
    public func labels(calendar: String, keys: Set<MergeKey>) throws -> [MergeKey: ItemLabel] {
        try database.read { db in
            guard let id = try StoreWriter(db).calendarID(named: calendar, create: false) else { return [:] }
            let select = try db.cachedStatement(
                sql: """
                    SELECT summary, startValue, startTZID FROM item WHERE calendarID = ? AND uid = ? AND recurrenceID = ?
                    """)
            var labels: [MergeKey: ItemLabel] = [:]
            for key in keys {
                guard let row = try Row.fetchOne(select, arguments: [id, key.uid, key.recurrenceID]) else { continue }
                let value: String? = row[1]
                labels[key] = ItemLabel(
                    title: row[0], start: value.map { ItemLabel.start(value: $0, tzid: row[2]) })
            }
            return labels
        }
    }
}

extension CalendarStore {
    /// Puts a series (its master and overrides) in place of what the calendar holds for its UID, in one
    /// transaction: components no longer there are deleted with tombstones (so merges keep them deleted), the
    /// others written. What `edit` and `rm --instance` do to one instance. `zones` holds the VTIMEZONEs the
    /// components use (the calendar they were loaded in).
    public func replaceSeries(
        uid: String, calendar: String, with components: [CalendarComponent], zones: ICalendar = ICalendar()
    ) throws {
        try replaceSeries([(uid, components)], calendar: calendar, zones: zones)
    }

    /// Several series of one calendar replaced in one change (one undo step): a series split in two by "this and
    /// following" is its old UID, shortened, and a new one.
    public func replaceSeries(
        _ replacements: [(uid: String, components: [CalendarComponent])], calendar: String,
        zones: ICalendar = ICalendar()
    ) throws {
        try write { db in
            let writer = StoreWriter(db)
            guard let id = try writer.calendarID(named: calendar, create: false) else {
                throw StoreError("no calendar \"\(calendar)\" in the store")
            }
            let time = CalendarTime(calendar: zones, viewerZone: "UTC")
            for (uid, components) in replacements {
                let rows = components.compactMap { ItemRow($0, time: time) }
                guard rows.count == components.count, rows.allSatisfy({ $0.uid == uid }) else {
                    throw StoreError("the series of \(uid) cannot be stored as edited")
                }
                let kept = Set(rows.map(\.recurrenceID))
                for recurrenceID in try String.fetchAll(
                    db, sql: "SELECT recurrenceID FROM item WHERE calendarID = ? AND uid = ?", arguments: [id, uid])
                where !kept.contains(recurrenceID) {
                    try writer.delete(MergeKey(uid: uid, recurrenceID: recurrenceID), calendarID: id, tombstone: true)
                }
                for row in rows { try writer.save(row, calendarID: id) }
            }
        }
    }
}
