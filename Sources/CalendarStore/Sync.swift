import CalendarModel
import Foundation
import GRDB

/// What the store holds for one calendar and one external source: the items and the merge base.
public struct SyncSnapshot: Sendable {
    /// Items by (UID, RECURRENCE-ID): fingerprint, SEQUENCE and the component text.
    public var items: [String: [String: StoredItemVersion]]
    /// Fingerprints the source had at the last merge, by UID then RECURRENCE-ID.
    public var base: [String: [String: String]]
    public var tombstones: [(uid: String, recurrenceID: String)]
    /// The digest (`SourceDigest`) of the source's file at the last merge, when that merge recorded its whole base.
    public var digest: String?
}

/// A digest of a file's bytes: two independent 64-bit hashes and the length, to tell a file that is byte for byte
/// the one merged last time (not meant to resist a forger: the store is the user's own).
public enum SourceDigest {
    public static func of(_ bytes: [UInt8]) -> String {
        var fnv: UInt64 = 0xCBF2_9CE4_8422_2325
        var mixed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for byte in bytes {
            fnv = (fnv ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            mixed = (mixed &+ UInt64(byte)) &* 0xBF58_476D_1CE4_E5B9
            mixed ^= mixed >> 29
        }
        func hex(_ value: UInt64) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        return hex(fnv) + hex(mixed) + "-" + String(bytes.count)
    }
}

/// One stored item's version.
public struct StoredItemVersion: Sendable, Hashable {
    public var fingerprint: String
    public var sequence: Int
    public var lastModified: Int64?
    public var stamp: Int64?
}

/// A change to apply to a calendar in one transaction.
public enum StoreChange: Sendable {
    /// Add or replace an item (the component as read).
    case upsert(CalendarComponent)
    case delete(uid: String, recurrenceID: String)
}

extension CalendarStore {
    /// The calendar's items, merge base for `source`, and tombstones; empty when the calendar does not exist.
    public func syncSnapshot(calendar name: String, source: String) throws -> SyncSnapshot {
        try pool.read { db in
            var snapshot = SyncSnapshot(items: [:], base: [:], tombstones: [], digest: nil)
            guard let id = try calendarID(db, named: name, create: false) else { return snapshot }
            // Cursors and column indexes: a snapshot of a large calendar is tens of thousands of rows.
            let items = try Row.fetchCursor(db, sql: "SELECT uid, recurrenceID, fingerprint, sequence, lastModifiedUTC, "
                                                + "stampUTC FROM item WHERE calendarID = ?", arguments: [id])
            while let row = try items.next() {
                snapshot.items[row[0], default: [:]][row[1]] = StoredItemVersion(
                    fingerprint: row[2], sequence: row[3] ?? 0, lastModified: row[4], stamp: row[5])
            }
            let base = try Row.fetchCursor(db, sql: "SELECT uid, recurrenceID, fingerprint FROM syncState "
                                               + "WHERE calendarID = ? AND source = ?", arguments: [id, source])
            while let row = try base.next() { snapshot.base[row[0], default: [:]][row[1]] = row[2] as String }
            snapshot.tombstones = try Row.fetchAll(db, sql: "SELECT uid, recurrenceID FROM tombstone WHERE calendarID = ?",
                                                   arguments: [id]).map { ($0["uid"], $0["recurrenceID"]) }
            snapshot.digest = try String.fetchOne(db, sql: "SELECT digest FROM syncSource WHERE calendarID = ? AND "
                                                      + "source = ?", arguments: [id, source])
            return snapshot
        }
    }

    /// Applies changes to a calendar (created if missing) and records the source's new merge base, all in one
    /// transaction. `base` replaces the source's base entirely (nil: it stays as it is); `digest` is that of the
    /// file the base is exactly of (nil when it is not: an unresolved conflict keeps an old base entry).
    public func apply(_ changes: [StoreChange], to name: String, source: String, base: [(uid: String,
                      recurrenceID: String, fingerprint: String)]?, digest: String? = nil, keepBase: Bool = false,
                      timeZones: [TimeZoneDefinition] = [], viewerZone: String = "UTC") throws {
        var zoneSource = ICalendar()
        zoneSource.components = timeZones.map { .timeZone($0) }
        let time = CalendarTime(calendar: zoneSource, viewerZone: viewerZone)
        let rows = changes.compactMap { change -> ItemRow? in
            guard case .upsert(let component) = change else { return nil }
            return ItemRow(component, time: time)
        }
        try transaction { db in
            let id = try calendarID(db, named: name, create: true)!
            if !keepBase {
                try db.execute(sql: "UPDATE calendar SET source = coalesce(source, ?) WHERE id = ?",
                               arguments: [source, id])
            }
            for zone in timeZones {
                guard let tzid = zone.tzid else { continue }
                try db.execute(sql: "INSERT OR REPLACE INTO timeZone (calendarID, tzid, content) VALUES (?, ?, ?)",
                               arguments: [id, tzid, String(decoding: ICS.write(components: [zone.component]),
                                                            as: UTF8.self)])
            }
            for row in rows { try row.save(db, calendarID: id) }
            for change in changes {
                guard case .delete(let uid, let recurrenceID) = change else { continue }
                try db.cachedStatement(sql: "DELETE FROM item WHERE calendarID = ? AND uid = ? AND recurrenceID = ?")
                    .execute(arguments: [id, uid, recurrenceID])
            }
            if keepBase { return }  // a local edit: the merge base stays what the source last said
            if let base {
                try db.execute(sql: "DELETE FROM syncState WHERE calendarID = ? AND source = ?", arguments: [id, source])
                let insert = try db.cachedStatement(sql: """
                    INSERT OR REPLACE INTO syncState (calendarID, source, uid, recurrenceID, fingerprint)
                    VALUES (?, ?, ?, ?, ?)
                    """)
                for entry in base {
                    try insert.execute(arguments: [id, source, entry.uid, entry.recurrenceID, entry.fingerprint])
                }
            }
            if let digest {
                try db.execute(sql: "INSERT OR REPLACE INTO syncSource (calendarID, source, digest) VALUES (?, ?, ?)",
                               arguments: [id, source, digest])
            } else {
                try db.execute(sql: "DELETE FROM syncSource WHERE calendarID = ? AND source = ?", arguments: [id, source])
            }
        }
    }

    /// Deletes every item with this UID (a series with its overrides), leaving tombstones so merges keep them
    /// deleted. Returns how many items went.
    @discardableResult
    public func delete(uid: String, calendar: String? = nil) throws -> Int {
        try transaction { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT i.id, i.calendarID, i.recurrenceID FROM item i JOIN calendar c ON c.id = i.calendarID
                WHERE i.uid = ? AND (? IS NULL OR c.name = ?)
                """, arguments: [uid, calendar, calendar])
            let now = Int64(Date().timeIntervalSince1970)
            for row in rows {
                try db.execute(sql: """
                    INSERT OR REPLACE INTO tombstone (calendarID, uid, recurrenceID, deletedAt) VALUES (?, ?, ?, ?)
                    """, arguments: [row["calendarID"] as Int64, uid, row["recurrenceID"] as String, now])
                try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [row["id"] as Int64])
            }
            return rows.count
        }
    }
}

extension CalendarStore {
    /// Marks every todo with this UID done: STATUS:COMPLETED, COMPLETED now, PERCENT-COMPLETE:100 (the rest of the
    /// todo stays as it was read). Returns how many todos changed.
    @discardableResult
    public func complete(uid: String, at date: Date = Date()) throws -> Int {
        let rows = try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT c.name, i.content FROM item i JOIN calendar c ON c.id = i.calendarID
                WHERE i.uid = ? AND i.kind = 'VTODO'
                """, arguments: [uid])
        }
        var changed = 0
        for row in rows {
            let calendarName: String = row["name"]
            let content: String = row["content"]
            guard case .todo(var todo)? = ICS.read(Array(content.utf8)).calendars.first?.components.first else { continue }
            let now = LocalDateTime(wallSeconds: Int64(date.timeIntervalSince1970)).calendarDate(.utc)
            todo.status = .completed
            todo.completed = now
            todo.percentComplete = 100
            todo.sequence = (todo.sequence ?? 0) + 1
            todo.lastModified = now
            try apply([.upsert(.todo(todo))], to: calendarName, source: "", base: [], keepBase: true)
            changed += 1
        }
        return changed
    }
}

extension CalendarStore {
    /// Adds an item made here (an event, todo or journal) to a store calendar, creating the calendar if needed.
    /// Local items are no source's: merges keep them.
    public func add(_ component: CalendarComponent, to calendar: String) throws {
        guard component.identity.uid != nil else { throw StoreError("an item needs a UID to be added") }
        try apply([.upsert(component)], to: calendar, source: "", base: [], keepBase: true)
    }

    /// The calendar an item with this UID is in, and its component, if the store has it.
    public func item(uid: String) throws -> (calendar: String, component: CalendarComponent)? {
        guard let row = try pool.read({ db in
            try Row.fetchOne(db, sql: """
                SELECT c.name, i.content FROM item i JOIN calendar c ON c.id = i.calendarID
                WHERE i.uid = ? ORDER BY i.recurrenceID LIMIT 1
                """, arguments: [uid])
        }) else { return nil }
        let content: String = row["content"]
        guard let component = ICS.read(Array(content.utf8)).calendars.first?.components.first else { return nil }
        return (row["name"], component)
    }
}
