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
        calendar.components = ICS.read(Array(text.utf8)).calendars.flatMap(\.components)
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
