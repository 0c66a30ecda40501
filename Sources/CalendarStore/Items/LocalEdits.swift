import CalendarMerge
import CalendarModel
import Foundation
internal import GRDB

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
        try updateTodos(uid: uid, calendar: calendar) { $0.markCompleted(at: date) }
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
        try replaceSeries(inCalendars: [(calendar, zones, replacements)])
    }

    /// Series of several calendars replaced in one change (one transaction, one undo step): a todo ticked off with
    /// its subtasks, which may live in other calendars.
    public func replaceSeries(
        inCalendars changes: [(
            calendar: String, zones: ICalendar, series: [(uid: String, components: [CalendarComponent])]
        )]
    ) throws {
        try write { db in
            for change in changes {
                try Self.replace(db, change.series, calendar: change.calendar, zones: change.zones)
            }
        }
    }

    private static func replace(
        _ db: Database, _ replacements: [(uid: String, components: [CalendarComponent])], calendar: String,
        zones: ICalendar
    ) throws {
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
