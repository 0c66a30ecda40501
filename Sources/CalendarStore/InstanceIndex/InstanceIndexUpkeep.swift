import CalendarModel
import Foundation
internal import GRDB

/// Keeping the index up to date: what a listing does first, and only when something changed (a listing of an
/// unchanged store opens no write transaction).
extension InstanceIndex {
    /// Drops every kept month (after an undo, which puts rows back under their old ids).
    static func clear(_ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM instance; DELETE FROM instanceMonth; DELETE FROM instanceStale;
                UPDATE instanceState SET builtThrough = (SELECT coalesce(max(id), 0) FROM item);
                """)
    }

    /// Whether `prepare` has anything to do for these calendars, way and window: months of calendars that are
    /// gone, items changed or added since the last listing, a calendar whose basis changed, a month not kept yet.
    static func needsUpkeep(_ db: Database, calendars: [Int64], way: Way, window: Range<Int64>) throws -> Bool {
        let changed = try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM instanceStale)
                    OR (SELECT builtThrough FROM instanceState) <> (SELECT coalesce(max(id), 0) FROM item)
                    OR EXISTS (SELECT 1 FROM instanceMonth WHERE calendarID NOT IN (SELECT id FROM calendar))
                """)
        if changed != false { return true }
        let months = months(window)
        for calendar in calendars {
            let kept = try Row.fetchAll(
                db,
                sql: """
                    SELECT month, basis FROM instanceMonth
                    WHERE calendarID = ? AND viewerZone = ? AND applyWRTimeZone = ? AND zones = ?
                    AND month BETWEEN ? AND ?
                    """,
                arguments: StatementArguments([calendar] + way.arguments + [months.lowerBound, months.upperBound]))
            guard kept.count == months.count else { return true }
            let basis = try basis(db, calendar: calendar)
            if kept.contains(where: { $0[1] as String != basis }) { return true }
        }
        return false
    }

    /// Brings the kept months of these calendars up to date and makes the ones [window] needs for `way`.
    static func prepare(_ db: Database, calendars: [Int64], way: Way, window: Range<Int64>) throws {
        // Months of calendars that are gone (their items' triggers removed the instances).
        try drop(
            db,
            months: Int64.fetchAll(
                db, sql: "SELECT id FROM instanceMonth WHERE calendarID NOT IN (SELECT id FROM calendar)"))
        try refreshStale(db)
        let months = months(window)
        for calendar in calendars {
            let basis = try basis(db, calendar: calendar)
            try drop(
                db,
                months: Int64.fetchAll(
                    db, sql: "SELECT id FROM instanceMonth WHERE calendarID = ? AND basis <> ?",
                    arguments: [calendar, basis]))
            let kept = Set(
                try Int.fetchAll(
                    db,
                    sql: """
                        SELECT month FROM instanceMonth
                        WHERE calendarID = ? AND viewerZone = ? AND applyWRTimeZone = ? AND zones = ?
                        """, arguments: StatementArguments([calendar] + way.arguments)))
            for month in months where !kept.contains(month) {
                try build(db, calendar: calendar, month: month, way: way, basis: basis)
            }
            // The months made or kept last stay; past `monthLimit`, the others go.
            try drop(
                db,
                months: Int64.fetchAll(
                    db,
                    sql: """
                        SELECT id FROM instanceMonth WHERE calendarID = ? AND viewerZone = ? AND applyWRTimeZone = ?
                        AND zones = ? ORDER BY month BETWEEN ? AND ? DESC, id DESC LIMIT -1 OFFSET ?
                        """,
                    arguments: StatementArguments(
                        [calendar] + way.arguments + [months.lowerBound, months.upperBound, monthLimit])))
        }
    }

    private static func drop(_ db: Database, months: [Int64]) throws {
        guard !months.isEmpty else { return }
        for id in months {
            try db.execute(sql: "DELETE FROM instance WHERE monthID = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM instanceMonth WHERE id = ?", arguments: [id])
        }
    }

    /// Expands again, in every kept month of their calendar, the UIDs whose items changed since the last listing.
    private static func refreshStale(_ db: Database) throws {
        guard let through = try Int64.fetchOne(db, sql: "SELECT builtThrough FROM instanceState") else { return }
        defer {
            try? db.execute(
                sql: """
                    DELETE FROM instanceStale WHERE true; -- a WHERE: SQLite's truncation rewrites empty tables' pages
                    UPDATE instanceState SET builtThrough = (SELECT coalesce(max(id), 0) FROM item)
                    WHERE builtThrough <> (SELECT coalesce(max(id), 0) FROM item);
                    """)
        }
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM instanceMonth)") == true else { return }
        let stale = try Row.fetchAll(
            db,
            sql: """
                SELECT calendarID, uid FROM instanceStale
                UNION SELECT calendarID, uid FROM item WHERE id > ?
                """, arguments: [through])
        if stale.count > staleLimit {
            try clear(db)
            return
        }
        var byCalendar: [Int64: Set<String>] = [:]
        for row in stale { byCalendar[row[0], default: []].insert(row[1]) }
        for (calendar, uids) in byCalendar {
            let months = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, month, viewerZone, applyWRTimeZone, zones, expands FROM instanceMonth
                    WHERE calendarID = ?
                    """, arguments: [calendar])
            // A month that said something is made again whole when next listed.
            try drop(db, months: months.filter { $0[5] as Bool }.map { $0[0] })
            let kept = months.filter { !($0[5] as Bool) }
            guard !kept.isEmpty else { continue }
            for slice in CalendarStore.slices(of: uids) {
                for month in kept {
                    try db.execute(
                        sql: "DELETE FROM instance WHERE monthID = ? AND uid IN (\(slice.marks))",
                        arguments: StatementArguments([month[0] as Int64] + slice.uids))
                }
            }
            let parsed = try CalendarStore.storedCalendar(db, calendar: calendar, uids: uids)
            for month in kept {
                try keep(
                    db, parsed, calendar: calendar, monthID: month[0], month: month[1], way: Way(row: month, from: 2))
            }
        }
    }

    /// Expands one calendar's month and keeps what it holds.
    private static func build(_ db: Database, calendar: Int64, month: Int, way: Way, basis: String) throws {
        try db.execute(
            sql: """
                INSERT INTO instanceMonth (calendarID, month, viewerZone, applyWRTimeZone, zones, basis)
                VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: StatementArguments([calendar, month] + way.arguments + [basis]))
        let parsed = try CalendarStore.storedCalendar(db, calendar: calendar, window: range(of: month))
        try keep(db, parsed, calendar: calendar, monthID: db.lastInsertedRowID, month: month, way: way)
    }

    /// Expands the items of `parsed` (a calendar's header, VTIMEZONEs and items) over the month and keeps their
    /// instances; when expanding said something, the month is marked to be expanded where it is listed instead.
    private static func keep(
        _ db: Database, _ parsed: ICalendar, calendar: Int64, monthID: Int64, month: Int, way: Way
    ) throws {
        let window = range(of: month)
        let expansion = parsed.occurrences(
            from: Date(timeIntervalSince1970: TimeInterval(window.lowerBound)),
            to: Date(timeIntervalSince1970: TimeInterval(window.upperBound)), options: way.options)
        func expandsWhereListed() throws {
            try db.execute(sql: "DELETE FROM instance WHERE monthID = ?", arguments: [monthID])
            try db.execute(sql: "UPDATE instanceMonth SET expands = 1 WHERE id = ?", arguments: [monthID])
        }
        guard expansion.diagnostics.isEmpty else { return try expandsWhereListed() }
        // The store's rows of these components, by UID and RECURRENCE-ID.
        var items: [String: (id: Int64, kind: String)] = [:]
        for slice in CalendarStore.slices(of: Set(expansion.occurrences.compactMap(\.uid))) {
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT uid, recurrenceID, id, kind FROM item
                    WHERE calendarID = ? AND uid IN (\(slice.marks))
                    """,
                arguments: StatementArguments([calendar] + slice.uids))
            {
                items[(row[0] as String) + "\u{1F}" + (row[1] as String)] = (row[2], row[3])
            }
        }
        // Positions go on from the month's last: a UID expanded again follows the instances already kept.
        var position =
            try Int.fetchOne(
                db, sql: "SELECT coalesce(max(position), 0) FROM instance WHERE monthID = ?", arguments: [monthID]) ?? 0
        var rows: [StatementArguments] = []
        var longest: Int64 = 0
        let time = CalendarTime(calendar: parsed, viewerZone: way.viewerZone)
        for occurrence in expansion.occurrences {
            let uid = occurrence.uid ?? ""
            guard let item = items[uid + "\u{1F}" + (occurrence.core.recurrenceID?.date.icsValue ?? "")] else {
                return try expandsWhereListed()
            }
            position += 1
            rows.append(row(occurrence, monthID: monthID, item: (item.id, item.kind), position: position, time: time))
            longest = max(longest, seconds(occurrence.endDate) - seconds(occurrence.startDate))
        }
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO instance (monthID, itemID, uid, kind, position, startUTC, endUTC, startWall, startForm,
                    endWall, endForm, recurrenceUTC, recurrenceWall, recurrenceForm, floating, hasAlarm, alarmFirst,
                    alarmLast)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for row in rows { try insert.execute(arguments: row) }
        try db.execute(
            sql: "UPDATE instanceMonth SET longest = max(longest, ?) WHERE id = ?", arguments: [longest, monthID])
    }

    /// An instance's row. Its alarms' times are kept as a span a day wider on each side than they are here (a
    /// reminder reads the item again, whose times X-WR-TIMEZONE may not have moved), so that `remind` reads only
    /// the instances whose alarms can go off in its window.
    private static func row(
        _ occurrence: Occurrence, monthID: Int64, item: (id: Int64, kind: String), position: Int, time: CalendarTime
    ) -> StatementArguments {
        let firings = occurrence.alarmFirings(time: time).map { seconds($0.fires) }
        let recurrence = occurrence.recurrenceID
        return [
            monthID, item.id, occurrence.uid ?? "", item.kind, position, seconds(occurrence.startDate),
            seconds(occurrence.endDate), occurrence.start.wall.wallSeconds, form(occurrence.start),
            occurrence.end.wall.wallSeconds, form(occurrence.end), occurrence.recurrenceDate.map(seconds),
            recurrence?.wall.wallSeconds, recurrence.map(form), occurrence.isFloating, occurrence.hasAlarms,
            firings.min().map { $0 - 86_400 }, firings.max().map { $0 + 86_400 },
        ]
    }
}
