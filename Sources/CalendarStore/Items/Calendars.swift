import Foundation
internal import GRDB

/// A calendar of the store as `icskit calendars` lists it: what it holds and where its items come from.
public struct CalendarOverview: Sendable, Hashable {
    public var name: String
    /// Its own colour (`#RRGGBB`), from the file it came from or set here; nil when it has none.
    public var color: String?
    /// The file it was first imported from, if any.
    public var source: String?
    public var items: Int
    /// The web calendar it follows (`subscribe`), if any.
    public var subscription: String?
    /// What it syncs with: `caldav https://…`, `vdir /path`.
    public var partners: [String]
}

extension CalendarStore {
    /// Every calendar with its item count, source, subscription and sync partners, by name.
    public func calendarOverview() throws -> [CalendarOverview] {
        try database.read { db in
            let partners = try Row.fetchAll(
                db, sql: "SELECT calendarID, kind, location FROM syncPartner ORDER BY kind, location")
            var byCalendar: [Int64: [String]] = [:]
            for row in partners { byCalendar[row[0], default: []].append("\(row[1] as String) \(row[2] as String)") }
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT c.id, c.name, c.color, c.source, s.url,
                           (SELECT count(*) FROM item i WHERE i.calendarID = c.id)
                    FROM calendar c LEFT JOIN subscription s ON s.calendarID = c.id ORDER BY c.name
                    """
            ).map { row in
                CalendarOverview(
                    name: row[1], color: row[2], source: row[3], items: row[5], subscription: row[4],
                    partners: byCalendar[row[0]] ?? [])
            }
        }
    }

    /// The file a calendar was first imported from, if any (nil too when there is no such calendar).
    public func calendarSource(named name: String) throws -> String? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT source FROM calendar WHERE name = ?", arguments: [name])
        }
    }

    /// Gives a calendar its colour (`#RRGGBB`), or takes it away (nil). False when there is no such calendar.
    @discardableResult
    public func setColor(_ color: String?, ofCalendar name: String) throws -> Bool {
        try write { db in
            try db.execute(sql: "UPDATE calendar SET color = ? WHERE name = ?", arguments: [color, name])
            return db.changesCount > 0
        }
    }

    /// Renames a calendar; its items, merge bases, subscription and sync partners go with it (they name it by its
    /// id). Fails when there is no such calendar or the new name is taken.
    public func renameCalendar(_ name: String, to newName: String) throws {
        try write { db in
            guard try StoreWriter(db).calendarID(named: name, create: false) != nil else {
                throw StoreError("no calendar \"\(name)\" in the store")
            }
            guard try StoreWriter(db).calendarID(named: newName, create: false) == nil else {
                throw StoreError("the store already has a calendar \"\(newName)\"")
            }
            try db.execute(sql: "UPDATE calendar SET name = ? WHERE name = ?", arguments: [newName, name])
        }
    }

    /// Removes a calendar with everything it holds (items, deletions, merge bases, subscription, sync state), in
    /// one transaction. Returns how many items went; fails when there is no such calendar.
    public func removeCalendar(_ name: String) throws -> Int {
        try write { db in
            guard let id = try StoreWriter(db).calendarID(named: name, create: false) else {
                throw StoreError("no calendar \"\(name)\" in the store")
            }
            let items =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE calendarID = ?", arguments: [id]) ?? 0
            try UndoLog.logBindings(db, calendarID: id)
            try db.execute(sql: "DELETE FROM calendar WHERE id = ?", arguments: [id])
            return items
        }
    }
}
