import CalendarModel
import Foundation
internal import GRDB

extension CalendarStore {
    /// The store's calendars as calendars again: every item as it was read, with the VTIMEZONEs they came with, the
    /// calendar's own properties and its other components (VAVAILABILITY …).
    /// `name` limits it to one calendar; `window` to the items that can touch [start, end) (series whose range
    /// reaches it, with all their overrides).
    public func loadCalendars(named name: String? = nil, window: Range<Date>? = nil) throws
        -> [(calendar: ICalendar, name: String)]
    {
        typealias Stored = (name: String, color: String?, header: String?, zones: [String], items: [String])
        let stored = try database.read { db -> [Stored] in
            var calendars: [Stored] = []
            for calendar in try StoredCalendarRecord.fetchAll(
                db,
                sql: "SELECT id, name, color, source, 0 AS itemCount "
                    + "FROM calendar WHERE ? IS NULL OR name = ? ORDER BY name",
                arguments: [name, name]
            ).map(\.calendar) {
                let id = calendar.id
                let zones = try String.fetchAll(
                    db,
                    sql: "SELECT content FROM timeZone WHERE calendarID = ? "
                        + "ORDER BY tzid", arguments: [id])
                let items: [String]
                if let window {
                    items = try String.fetchAll(
                        db, sql: Self.windowItems,
                        arguments: [
                            id, Int64(window.lowerBound.timeIntervalSince1970),
                            Int64(window.upperBound.timeIntervalSince1970),
                        ])
                } else {
                    items = try String.fetchAll(
                        db, sql: "SELECT content FROM item WHERE calendarID = ? ORDER BY id",
                        arguments: [id])
                }
                let header = try String.fetchOne(db, sql: "SELECT header FROM calendar WHERE id = ?", arguments: [id])
                let others = try String.fetchAll(
                    db, sql: "SELECT content FROM otherComponent WHERE calendarID = ? ORDER BY key", arguments: [id])
                calendars.append((calendar.name, calendar.color, header, zones, items + others))
            }
            return calendars
        }
        return stored.map { entry in
            (
                Self.assemble(
                    name: entry.name, color: entry.color, header: entry.header,
                    text: entry.zones.joined() + entry.items.joined()), entry.name
            )
        }
    }
}

extension CalendarStore {
    /// One calendar's items of these UIDs (each with its overrides) and the calendar's VTIMEZONEs, as a calendar:
    /// what a sync reads to write a few resources, instead of the whole calendar. Empty when the calendar does not
    /// exist.
    public func loadItems(calendar name: String, uids: Set<String>) throws -> ICalendar {
        guard !uids.isEmpty else { return ICalendar() }
        let text = try database.read { db -> String in
            guard let id = try StoreWriter(db).calendarID(named: name, create: false) else { return "" }
            var parts = try String.fetchAll(
                db, sql: "SELECT content FROM timeZone WHERE calendarID = ? ORDER BY tzid", arguments: [id])
            for slice in Self.slices(of: uids) {
                parts += try String.fetchAll(
                    db, sql: "SELECT content FROM item WHERE calendarID = ? AND uid IN (\(slice.marks)) ORDER BY id",
                    arguments: StatementArguments([id] + slice.uids))
            }
            return parts.joined()
        }
        var calendar = ICalendar()
        calendar.components = ICS.readStored(Array(text.utf8)).calendars.flatMap(\.components)
        return calendar
    }

    /// The stored text of one UID's components in a calendar (a series and its overrides, the series first), as
    /// the store keeps them.
    public func itemContents(calendar name: String, uid: String) throws -> [String] {
        try database.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT i.content FROM item i JOIN calendar c ON c.id = i.calendarID
                    WHERE c.name = ? AND i.uid = ? ORDER BY i.recurrenceID
                    """, arguments: [name, uid])
        }
    }

    /// UIDs in slices of 500, each with its `?, ?, …` for an `IN (…)`: SQLite bounds the parameters of a statement.
    static func slices(of uids: Set<String>) -> [(marks: String, uids: [any DatabaseValueConvertible])] {
        let sorted = uids.sorted()
        return stride(from: 0, to: sorted.count, by: 500).map { start in
            let slice = sorted[start..<min(start + 500, sorted.count)]
            return (Array(repeating: "?", count: slice.count).joined(separator: ", "), slice.map { $0 })
        }
    }
}

extension CalendarStore {
    /// The events, todos and journals of these rows, in their order, read whole from their content as one calendar
    /// (nil for a row that is none, or could not be read).
    static func items(_ db: Database, ids: [Int64]) throws -> [Occurrence.Item?] {
        var place: [Int64: Int] = [:]
        place.reserveCapacity(ids.count)
        for (index, id) in ids.enumerated() { place[id] = index }
        var order: [Int] = []  // the place in `ids` of each row read, in the order read
        order.reserveCapacity(ids.count)
        var text = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ICSKit//listing//EN\r\n".utf8)
        for start in stride(from: 0, to: ids.count, by: 500) {
            let slice = ids[start..<min(start + 500, ids.count)].map { String($0) }.joined(separator: ",")
            let rows = try Row.fetchCursor(db, sql: "SELECT id, CAST(content AS BLOB) FROM item WHERE id IN (\(slice))")
            while let row = try rows.next() {
                let id: Int64 = row[0]
                order.append(place[id] ?? 0)
                try row.withUnsafeData(atIndex: 1) { data in
                    data?.withUnsafeBytes { text.append(contentsOf: $0) }
                }
                if text.last != 0x0A { text += [0x0D, 0x0A] }
            }
        }
        text += "END:VCALENDAR\r\n".utf8
        let components = ICS.readStored(text).calendars.first?.components ?? []
        var items = [Occurrence.Item?](repeating: nil, count: ids.count)
        func item(_ component: CalendarComponent) -> Occurrence.Item? {
            switch component {
            case .event(let event): .event(event)
            case .todo(let todo): .todo(todo)
            case .journal(let journal): .journal(journal)
            default: nil
            }
        }
        // Each row is one component, in the order read; a row the reader could not read puts the rest out of step,
        // and they are matched by UID and RECURRENCE-ID instead.
        if components.count == order.count {
            for (index, component) in zip(order, components) { items[index] = item(component) }
            return items
        }
        var byKey: [String: Int] = [:]
        for row in try Row.fetchAll(
            db,
            sql: "SELECT id, uid, recurrenceID FROM item WHERE id IN (\(ids.map { String($0) }.joined(separator: ",")))"
        ) {
            byKey[(row[1] as String) + "\u{1F}" + (row[2] as String)] = place[row[0]]
        }
        for component in components {
            guard let core = component.core,
                let index = byKey[(core.uid ?? "") + "\u{1F}" + (core.recurrenceID?.date.icsValue ?? "")]
            else { continue }
            items[index] = item(component)
        }
        return items
    }

    /// One stored calendar as a calendar (`assemble`): the items that can touch `window` (with their UIDs' other
    /// components), or those of `uids`.
    static func storedCalendar(
        _ db: Database, calendar: Int64, window: Range<Int64>? = nil, uids: Set<String>? = nil
    ) throws -> ICalendar {
        let zones = try String.fetchAll(
            db, sql: "SELECT content FROM timeZone WHERE calendarID = ? ORDER BY tzid", arguments: [calendar])
        var items: [String] = []
        if let window {
            items += try String.fetchAll(
                db, sql: windowItems, arguments: [calendar, window.lowerBound, window.upperBound])
        }
        for slice in slices(of: uids ?? []) {
            items += try String.fetchAll(
                db, sql: "SELECT content FROM item WHERE calendarID = ? AND uid IN (\(slice.marks)) ORDER BY id",
                arguments: StatementArguments([calendar] + slice.uids))
        }
        let row = try Row.fetchOne(
            db, sql: "SELECT name, color, header FROM calendar WHERE id = ?", arguments: [calendar])
        return assemble(name: row?[0] ?? "", color: row?[1], header: row?[2], text: zones.joined() + items.joined())
    }

    /// A calendar from what the store keeps of it: its own properties as they were read (NAME, X-WR-CALNAME, UID,
    /// REFRESH-INTERVAL …), the store's name when the file gave none and the store's colour, which the user may
    /// have set; its VTIMEZONEs and items from `text`.
    static func assemble(name: String, color: String?, header: String?, text: String) -> ICalendar {
        var calendar = header.flatMap { ICS.readStored(Array($0.utf8)).calendars.first } ?? ICalendar()
        calendar.productID = ICS.productID
        calendar.version = "2.0"
        if calendar.name == nil { calendar.name = name }
        if let color, color != calendar.color { calendar.color = color }
        calendar.components = ICS.readStored(Array(text.utf8)).calendars.flatMap(\.components)
        return calendar
    }

    /// The items whose span can reach [?2, ?3) in calendar ?1 (a day's slack for floating times), and every
    /// component of those UIDs, so overrides travel with their series. (`+calendarID` steers SQLite to the UID
    /// index: it fetches the few rows those UIDs name, not the calendar.)
    static let windowItems = """
        SELECT content FROM item WHERE +calendarID = ?1 AND uid IN (
            SELECT uid FROM item WHERE calendarID = ?1 AND (
                (startUTC IS NULL AND dueUTC IS NULL) OR
                (coalesce(startUTC, dueUTC) < ?3 + 86400 AND
                 (rangeEndUTC IS NULL AND isRecurring OR coalesce(rangeEndUTC, endUTC, startUTC) >= ?2 - 86400))))
        ORDER BY startUTC
        """
}
