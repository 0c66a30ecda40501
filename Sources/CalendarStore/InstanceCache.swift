import CalendarModel
import Foundation
internal import GRDB

/// The instances of the store's series, kept month by month so that a week is listed without expanding every
/// series that could reach it (a store of 100,000 items holds thousands of open-ended series).
///
/// A month is expanded the first time a listing needs it, for one calendar and one way of expanding (viewer zone,
/// X-WR-TIMEZONE, zone rules), by the same expansion a calendar file gets, and each instance is kept with its times
/// and the row of the component that describes it. What changes an item's series marks its UID stale (triggers on
/// updates and deletions; new items lie above the highest row id seen), and the next listing expands that UID's
/// months again; a calendar whose VTIMEZONEs or own properties changed has its months dropped. A series whose
/// expansion said something (a limit, a zone it could not use) is not kept but expanded again where it is listed,
/// so that the warning is given there. The cache is derived data: the undo log neither records nor restores it.
enum InstanceCache {
    static let schema = """
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
    static let listingSchema = """
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

    /// The longest window kept instances serve, in months: a listing of years is expanded as before (keeping it
    /// would cost more than expanding it, and grow the store by every month of it).
    static let windowLimit = 3

    /// The most months a calendar keeps (per way of expanding); past it the least recently read are dropped.
    static let monthLimit = 24

    /// More stale UIDs than this and every month is dropped instead (an import of thousands of items): expanding
    /// months again when they are next listed costs less than expanding each UID in each month.
    static let staleLimit = 2_000

    /// The way of expanding a month was kept for.
    struct Way: Hashable {
        var viewerZone: String
        var applyWRTimeZone: Bool
        var zones: String

        init(_ options: ExpansionOptions) {
            viewerZone = options.viewerZone
            applyWRTimeZone = options.applyWRTimeZone
            zones = options.zones.rawValue
        }

        init(row: Row, from column: Int) {
            viewerZone = row[column]
            applyWRTimeZone = row[column + 1]
            zones = row[column + 2]
        }

        var options: ExpansionOptions {
            var options = ExpansionOptions()
            options.components = ExpansionOptions.allItemKinds
            options.viewerZone = viewerZone
            options.applyWRTimeZone = applyWRTimeZone
            options.zones = ZoneSource(rawValue: zones) ?? .preferred
            return options
        }

        var arguments: [any DatabaseValueConvertible] { [viewerZone, applyWRTimeZone, zones] }
    }

    /// Drops every kept month (after an undo, which puts rows back under their old ids).
    static func clear(_ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM instance; DELETE FROM instanceItem; DELETE FROM instanceMonth;
                DELETE FROM instanceStale;
                UPDATE instanceState SET builtThrough = (SELECT coalesce(max(id), 0) FROM item);
                """)
    }

    // MARK: Months

    /// Month `n` counted from January 1970, in UTC.
    static func month(of seconds: Int64) -> Int {
        let day = Int((seconds >= 0 ? seconds : seconds - 86_399) / 86_400)
        let date = LocalDateTime(wallSeconds: Int64(day) * 86_400)
        return (date.year - 1970) * 12 + date.month - 1
    }

    static func range(of month: Int) -> Range<Int64> {
        func start(_ month: Int) -> Int64 {
            let year = 1970 + Int((Double(month) / 12).rounded(.down))
            return LocalDateTime(year: year, month: month - (year - 1970) * 12 + 1, day: 1).wallSeconds
        }
        return start(month)..<start(month + 1)
    }

    /// What a calendar's months were expanded on: its own properties and VTIMEZONEs.
    static func basis(_ db: Database, calendar: Int64) throws -> String {
        let header = try String.fetchOne(db, sql: "SELECT header FROM calendar WHERE id = ?", arguments: [calendar])
        let zones = try String.fetchAll(
            db, sql: "SELECT content FROM timeZone WHERE calendarID = ? ORDER BY tzid", arguments: [calendar])
        var hasher = FNV1a()
        hasher.add(header ?? "")
        for zone in zones {
            hasher.add(0)
            hasher.add(zone)
        }
        return hasher.hex + ":" + String(zones.count)
    }

}

// MARK: Keeping it up to date

extension InstanceCache {
    /// Brings the kept months of these calendars up to date and makes the ones [window] needs for `way`.
    static func prepare(_ db: Database, calendars: [Int64], way: Way, window: Range<Int64>) throws {
        try forgetHandlesIfUIDsChanged(db)
        // Months of calendars that are gone (their items' triggers removed the instances).
        try drop(
            db,
            months: Int64.fetchAll(
                db, sql: "SELECT id FROM instanceMonth WHERE calendarID NOT IN (SELECT id FROM calendar)"))
        try refreshStale(db)
        let months = month(of: window.lowerBound)...month(of: max(window.lowerBound, window.upperBound - 1))
        for calendar in calendars {
            let basis = try basis(db, calendar: calendar)
            let changed = try Int64.fetchAll(
                db, sql: "SELECT id FROM instanceMonth WHERE calendarID = ? AND basis <> ?",
                arguments: [calendar, basis])
            try drop(db, months: changed)
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
            // The months listed become the most recently used, unless they are already (then nothing is written).
            let tick = (try Int64.fetchOne(db, sql: "SELECT coalesce(max(usedAt), 0) + 1 FROM instanceMonth")) ?? 1
            let monthsOfWay: [any DatabaseValueConvertible] =
                [calendar] + way.arguments + [months.lowerBound, months.upperBound]
            let behind = try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM instanceMonth WHERE calendarID = ? AND viewerZone = ?
                    AND applyWRTimeZone = ? AND zones = ? AND month BETWEEN ? AND ? AND usedAt < ?)
                    """, arguments: StatementArguments(monthsOfWay + [tick - 1]))
            if behind == true {
                try db.execute(
                    sql: """
                        UPDATE instanceMonth SET usedAt = ? WHERE calendarID = ? AND viewerZone = ?
                        AND applyWRTimeZone = ? AND zones = ? AND month BETWEEN ? AND ?
                        """, arguments: StatementArguments([tick] + monthsOfWay))
            }
            try drop(
                db,
                months: Int64.fetchAll(
                    db,
                    sql: """
                        SELECT id FROM instanceMonth WHERE calendarID = ? AND viewerZone = ? AND applyWRTimeZone = ?
                        AND zones = ? ORDER BY usedAt DESC, month LIMIT -1 OFFSET ?
                        """, arguments: StatementArguments([calendar] + way.arguments + [monthLimit])))
        }
    }

    private static func drop(_ db: Database, months: [Int64]) throws {
        guard !months.isEmpty else { return }
        for id in months {
            try db.execute(sql: "DELETE FROM instance WHERE monthID = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM instanceMonth WHERE id = ?", arguments: [id])
        }
        try db.execute(sql: "DELETE FROM instanceItem WHERE itemID NOT IN (SELECT itemID FROM instance)")
    }

    /// Expands again, in every kept month of their calendar, the UIDs whose items changed since the last listing.
    private static func refreshStale(_ db: Database) throws {
        guard let through = try Int64.fetchOne(db, sql: "SELECT builtThrough FROM instanceState") else { return }
        // Written only when something changed: a listing of an unchanged store writes nothing (no commit to sync).
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
            guard !months.isEmpty else { continue }
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
                    db, parsed, calendar: calendar, monthID: month[0], month: month[1],
                    way: Way(row: month, from: 2))
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

    /// Expands the items of `text` (a calendar's header, VTIMEZONEs and items) over the month and keeps each series'
    /// instances; when expanding said something, the month is marked to be expanded where it is listed instead.
    private static func keep(
        _ db: Database, _ parsed: ICalendar, calendar: Int64, monthID: Int64, month: Int, way: Way
    ) throws {
        let window = range(of: month)
        let series = parsed.occurrencesBySeries(
            from: Date(timeIntervalSince1970: TimeInterval(window.lowerBound)),
            to: Date(timeIntervalSince1970: TimeInterval(window.upperBound)), options: way.options)
        func expandsWhereListed() throws {
            try db.execute(sql: "DELETE FROM instance WHERE monthID = ?", arguments: [monthID])
            try db.execute(sql: "UPDATE instanceMonth SET expands = 1 WHERE id = ?", arguments: [monthID])
        }
        guard !series.contains(where: \.hasDiagnostics) else { return try expandsWhereListed() }
        // The store's rows of these series' components, by UID and RECURRENCE-ID.
        var items: [String: (id: Int64, kind: String, content: String)] = [:]
        for slice in CalendarStore.slices(of: Set(series.compactMap(\.uid))) {
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT uid, recurrenceID, id, kind, content FROM item
                    WHERE calendarID = ? AND uid IN (\(slice.marks))
                    """,
                arguments: StatementArguments([calendar] + slice.uids))
            {
                items[(row[0] as String) + "\u{1F}" + (row[1] as String)] = (row[2], row[3], row[4])
            }
        }
        // Positions go on from the month's last: a UID expanded again follows the instances already kept.
        var position =
            try Int.fetchOne(
                db, sql: "SELECT coalesce(max(position), 0) FROM instance WHERE monthID = ?", arguments: [monthID]) ?? 0
        var arguments: [StatementArguments] = []
        var used: [String: (id: Int64, kind: String, content: String, item: Occurrence.Item)] = [:]
        var longest: Int64 = 0
        let time = CalendarTime(calendar: parsed, viewerZone: way.viewerZone)
        var forms: [String: Int64] = [:]
        func formID(_ date: CalendarDate) throws -> Int64 {
            let text = form(date)
            if let id = forms[text] { return id }
            try db.execute(sql: "INSERT OR IGNORE INTO instanceForm (form) VALUES (?)", arguments: [text])
            let id = try Int64.fetchOne(db, sql: "SELECT id FROM instanceForm WHERE form = ?", arguments: [text]) ?? 0
            forms[text] = id
            return id
        }
        for expansion in series {
            let uid = expansion.uid ?? ""
            for occurrence in expansion.occurrences {
                let key = uid + "\u{1F}" + (occurrence.core.recurrenceID?.date.icsValue ?? "")
                guard occurrence.core.uid == uid, let item = items[key] else { return try expandsWhereListed() }
                position += 1
                arguments.append(
                    try row(occurrence, monthID: monthID, itemID: item.id, position: position, time: time, form: formID)
                )
                if used[key] == nil { used[key] = (item.id, item.kind, item.content, occurrence.item) }
                longest = max(longest, seconds(occurrence.endDate) - seconds(occurrence.startDate))
            }
        }
        // Each item's listed fields as bytes; the brief text (what reminders parse) only for items with alarms.
        let keepItem = try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO instanceItem (itemID, kind, uid, recurrenceID, brief, listing)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
        for (key, item) in used {
            let parts = key.split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let listing = ListedItem.encode(item.item)
            let brief = listing[2] & 1 != 0 ? brief(item.content) : []
            try keepItem.execute(arguments: [item.id, item.kind, parts[0], parts[1], Data(brief), Data(listing)])
        }
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO instance (monthID, itemID, uid, position, startUTC, endUTC, startWall, startForm, endWall,
                    endForm, recurrenceUTC, recurrenceWall, recurrenceForm, floating, hasAlarm, alarmFirst, alarmLast)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for row in arguments { try insert.execute(arguments: row) }
        try db.execute(
            sql: "UPDATE instanceMonth SET longest = max(longest, ?) WHERE id = ?", arguments: [longest, monthID])
    }

    /// An instance's row. Its alarms' times are kept as a span a day wider on each side than they are here (a
    /// reminder reads the item again, whose times X-WR-TIMEZONE may not have moved), so that `remind` reads only
    /// the instances whose alarms can go off in its window.
    private static func row(
        _ occurrence: Occurrence, monthID: Int64, itemID: Int64, position: Int, time: CalendarTime,
        form: (CalendarDate) throws -> Int64
    ) throws -> StatementArguments {
        let firings = occurrence.alarmFirings(time: time).map { seconds($0.fires) }
        let recurrence = occurrence.recurrenceID
        return [
            monthID, itemID, occurrence.uid ?? "", position, seconds(occurrence.startDate),
            seconds(occurrence.endDate), occurrence.start.wall.wallSeconds, try form(occurrence.start),
            occurrence.end.wall.wallSeconds, try form(occurrence.end), occurrence.recurrenceDate.map(seconds),
            recurrence?.wall.wallSeconds, try recurrence.map(form), occurrence.isFloating, occurrence.hasAlarms,
            firings.min().map { $0 - 86_400 }, firings.max().map { $0 + 86_400 },
        ]
    }

    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    /// `D` a date, `F` floating, `U` UTC, `Z` and the TZID zoned.
    static func form(_ date: CalendarDate) -> String {
        switch date.form {
        case .date: "D"
        case .floating: "F"
        case .utc: "U"
        case .zoned(let tzid): "Z" + tzid
        }
    }

    static func date(wall: Int64, form: String) -> CalendarDate {
        CalendarDate(wall: LocalDateTime(wallSeconds: wall), form: Self.form(form))
    }

    /// The form `form(_: CalendarDate)` wrote.
    static func form(_ text: String) -> CalendarDate.Form {
        switch text.first {
        case "D": .date
        case "U": .utc
        case "Z": .zoned(tzid: String(text.dropFirst()))
        default: .floating
        }
    }
}

extension CalendarStore {
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
        var calendar = header.flatMap { ICS.read(Array($0.utf8)).calendars.first } ?? ICalendar()
        calendar.productID = ICS.productID
        calendar.version = "2.0"
        if calendar.name == nil { calendar.name = name }
        if let color, color != calendar.color { calendar.color = color }
        calendar.components = ICS.read(Array(text.utf8)).calendars.flatMap(\.components)
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

// MARK: Listing

/// How much of each item kept instances carry.
public enum KeptDetail: Sendable {
    /// The whole item, as stored.
    case whole
    /// What a listing shows, read without parsing: UID, summary, status, place, categories, colour, organizer and
    /// attendees, RECURRENCE-ID, COMPLETED and whether it has alarms (not the alarms; no description, times of
    /// the item itself, rules or X- properties).
    case listing
    /// What a reminder needs: that and the alarms, and the item's own times (DTSTART, DTEND, DUE, DURATION).
    case alarms
}

/// The instances of a window as the store keeps them: each calendar's, sorted as an expansion sorts them, and what
/// expanding the series it does not keep said.
public struct KeptInstances: Sendable {
    /// Each calendar's instances, calendars by name, with the calendar itself without its items (its own
    /// properties and VTIMEZONEs: what places an alarm's absolute trigger).
    public var calendars: [(name: String, occurrences: [Occurrence], frame: ICalendar)] = []
    /// What the series expanded anew said.
    public var diagnostics: [Diagnostic] = []
    /// When asked for, the short handle of each instance's UID (`CalendarStore.shortHandles(for:)`): each
    /// calendar's as its `occurrences` are; else empty.
    public var handles: [[String?]] = []
}

extension CalendarStore {
    /// The instances of [from, to) of these calendars (all: none named), from the months the store keeps, which are
    /// made or brought up to date first: what `occurrences(from:to:options:)` of each `loadCalendars` calendar
    /// gives, without expanding every series. `options.components` choose instances, and `alarmsFiring` (when
    /// given) those of items with alarms that can go off in it (a few more: whoever asks decides which do);
    /// `options.budget` is not applied. Nil for a window of more than `InstanceCache.windowLimit` months (3): a
    /// listing of years is expanded. `detail` says how much of each item the instances carry; `handles` asks for
    /// the short handles of their UIDs; without `frames` a kept calendar's frame is left empty. Nil for a store
    /// opened read-only.
    public func keptInstances(
        from: Date, to: Date, calendars names: [String] = [], options: ExpansionOptions,
        alarmsFiring: Range<Date>? = nil, detail: KeptDetail = .whole, handles: Bool = false, frames: Bool = true
    ) throws -> KeptInstances? {
        let window = Occurrence.seconds(from: from, to: to)
        let months =
            InstanceCache.month(of: max(window.lowerBound, window.upperBound - 1))
            - InstanceCache.month(of: window.lowerBound) + 1
        guard !isReadOnly, months <= InstanceCache.windowLimit else { return nil }
        let way = InstanceCache.Way(options)
        return try database.write { db in
            let calendars = try Row.fetchAll(db, sql: "SELECT id, name FROM calendar ORDER BY name").map {
                (id: $0[0] as Int64, name: $0[1] as String)
            }.filter { names.isEmpty || names.contains($0.name) }
            try InstanceCache.prepare(db, calendars: calendars.map(\.id), way: way, window: window)
            var kept = KeptInstances()
            var expandedUIDs: Set<String> = []
            for calendar in calendars {
                if try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM instanceMonth WHERE calendarID = ? AND viewerZone = ?
                        AND applyWRTimeZone = ? AND zones = ? AND month BETWEEN ? AND ? AND expands)
                        """,
                    arguments: StatementArguments([calendar.id] + way.arguments + InstanceCache.monthBounds(window)))
                    == true
                {
                    // Expanded here, as every calendar would be without kept instances.
                    let parsed = try Self.storedCalendar(
                        db, calendar: calendar.id,
                        window: Int64(from.timeIntervalSince1970)..<Int64(to.timeIntervalSince1970))
                    let expansion = parsed.occurrences(from: from, to: to, options: options, file: path)
                    kept.diagnostics += expansion.diagnostics
                    kept.calendars.append((calendar.name, expansion.occurrences, parsed))
                    if handles {
                        kept.handles.append([])  // filled below
                        expandedUIDs.formUnion(expansion.occurrences.compactMap(\.uid))
                    }
                    continue
                }
                let (listed, listedHandles) = try InstanceCache.kept(
                    db, calendar: calendar.id, way: way, window: window, kinds: options.components,
                    firing: alarmsFiring.map { Occurrence.seconds(from: $0.lowerBound, to: $0.upperBound) },
                    detail: detail, handles: handles)
                if handles { kept.handles.append(listedHandles) }
                kept.calendars.append(
                    (
                        calendar.name, listed,
                        frames ? try Self.storedCalendar(db, calendar: calendar.id) : ICalendar()
                    ))
            }
            if !expandedUIDs.isEmpty {
                let found = try Self.shortHandles(db, for: expandedUIDs)
                for (place, calendar) in kept.calendars.enumerated() where kept.handles[place].isEmpty {
                    kept.handles[place] = calendar.occurrences.map { $0.uid.flatMap { found[$0] } }
                }
            }
            return kept
        }
    }
}

extension InstanceCache {
    static func monthBounds(_ window: Range<Int64>) -> [any DatabaseValueConvertible] {
        [month(of: window.lowerBound), month(of: max(window.lowerBound, window.upperBound - 1))]
    }

    /// One calendar's kept instances that overlap the window, each once, with the item that describes it, sorted
    /// as an expansion sorts them: by start, then UID and kind, position in its month and order of reading (items
    /// in the order first read, then rows: how they were gathered before). With `handles`, the short handle of
    /// each one's UID, as kept beside its item (made and kept for an item that has none yet); else none.
    static func kept(
        _ db: Database, calendar: Int64, way: Way, window: Range<Int64>, kinds: Set<String>, firing: Range<Int64>?,
        detail: KeptDetail, handles: Bool
    ) throws -> (listed: [Occurrence], handles: [String?]) {
        let statement = try keptRows(
            db, calendar: calendar, way: way, window: window, kinds: kinds, firing: firing, detail: detail)
        struct Key: Hashable {
            var item: Int64
            var start: Int64
            var recurrence: Int64?
        }
        var seen: Set<Key> = []
        let oneMonth = month(of: window.lowerBound) == month(of: max(window.lowerBound, window.upperBound - 1))
        // Rows as numbers (times are made for the instances listed, once); items by ordinal (the order first
        // read): their ids, and what describes their instances.
        var rows: [KeptRow] = []
        var ordinals: [Int64: Int] = [:]
        var order: [Int64] = []
        // Items' listed fields, copied as they come and decoded after the rows (on every core when many).
        var listings = ListedItem.Batch()
        var itemHandles: [String?] = []
        var unhandled: [(id: Int64, uid: String, ordinal: Int)] = []
        try DirectRows.forEach(statement) { row in
            let (item, start, end) = (row.int64(0), row.int64(2), row.int64(3))
            // An instance over the end of a month is kept in both: read once (one month holds each once).
            guard Occurrence.overlaps(start: start, end: end, window: window),
                oneMonth || seen.insert(Key(item: item, start: start, recurrence: row.optionalInt64(8))).inserted
            else { return }
            let ordinal: Int
            if let known = ordinals[item] {
                ordinal = known
            } else {
                ordinal = order.count
                ordinals[item] = ordinal
                order.append(item)
                if handles {
                    let handle = row.text(13)
                    itemHandles.append(handle)
                    if handle == nil { unhandled.append((item, row.text(14) ?? "", ordinal)) }
                }
                if detail == .listing {
                    row.withBytes(12) { listings.append($0) } ?? listings.appendNone()
                } else {
                    listings.appendNone()
                }
            }
            rows.append(KeptRow(row, ordinal: ordinal))
        }
        var items = listings.decoded()
        // The items not read from their listed fields: their brief texts or their content.
        let unread = order.indices.filter { items[$0] == nil }.map { order[$0] }
        if !unread.isEmpty {
            for (id, item) in try parsedItems(db, ids: unread, brief: detail == .alarms) {
                if let ordinal = ordinals[id] { items[ordinal] = Occurrence.Shared(item) }
            }
        }
        if !unhandled.isEmpty {
            let found = try keepHandles(db, of: unhandled.map { ($0.id, $0.uid) })
            for item in unhandled { itemHandles[item.ordinal] = found[item.uid] }
        }
        let forms = try keptForms(db)
        let listed = sortedAsExpanded(rows, items: items)
        return (
            listed.map { read in Occurrence(items[rows[read].ordinal]!, rows[read].timing(forms)) },
            handles ? listed.map { itemHandles[rows[$0].ordinal] } : []
        )
    }

    /// A kept instance's row as numbers: what its times are made of, the ordinal of its item, and its position in
    /// its month.
    private struct KeptRow {
        var start, end, startWall, endWall, recurrenceWall: Int64
        var recurrence: Int64?
        /// Form numbers; -1 for a RECURRENCE-ID the instance has not.
        var startForm, endForm, recurrenceForm: Int32
        var floating: Bool
        var ordinal: Int
        var position: Int

        init(_ row: DirectRow, ordinal: Int) {
            (start, end, startWall, endWall) = (row.int64(2), row.int64(3), row.int64(4), row.int64(6))
            (startForm, endForm) = (Int32(truncatingIfNeeded: row.int(5)), Int32(truncatingIfNeeded: row.int(7)))
            (recurrence, recurrenceWall) = (row.optionalInt64(8), row.int64(9))
            recurrenceForm = row.isNull(10) ? -1 : Int32(truncatingIfNeeded: max(0, row.int(10)))
            floating = row.bool(11)
            self.ordinal = ordinal
            position = row.int(1)
        }

        /// Its times; `forms` names the forms by number (another is floating).
        func timing(_ forms: [CalendarDate.Form]) -> Occurrence.Timing {
            func date(_ wall: Int64, _ id: Int) -> CalendarDate {
                CalendarDate(
                    wall: LocalDateTime(wallSeconds: wall), form: forms.indices.contains(id) ? forms[id] : .floating)
            }
            return Occurrence.Timing(
                recurrenceID: recurrenceForm < 0 ? nil : date(recurrenceWall, Int(recurrenceForm)),
                start: date(startWall, Int(startForm)), end: date(endWall, Int(endForm)),
                startDate: Date(timeIntervalSince1970: TimeInterval(start)),
                endDate: Date(timeIntervalSince1970: TimeInterval(end)),
                recurrenceDate: recurrence.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                isFloating: floating)
        }
    }

    /// The rows' indices in the order an expansion gives their instances: by start, then UID and kind, position in
    /// the month and order of reading (the item's, then the row's). Rows mostly come by start (a month's are kept
    /// so): only rows that share a start are compared further, UIDs by their first 16 bytes as numbers where they
    /// can be (`orderedPrefix`).
    private static func sortedAsExpanded(_ rows: [KeptRow], items: [Occurrence.Shared?]) -> [Int] {
        var order = rows.indices.filter { items[rows[$0].ordinal] != nil }
        if !zip(order, order.dropFirst()).allSatisfy({ rows[$0].start <= rows[$1].start }) {
            order.sort { (rows[$0].start, $0) < (rows[$1].start, $1) }
        }
        let prefixes = items.map { $0.flatMap { orderedPrefix($0.uid ?? "") } }
        /// Whether item `a`'s UID and kind come before `b`'s; nil when they are the same.
        func precedes(_ a: Int, _ b: Int) -> Bool? {
            if a == b { return nil }
            if let x = prefixes[a], let y = prefixes[b], x != y { return x < y }
            let (first, second) = (items[a]!, items[b]!)
            let (x, y) = ((first.uid ?? "", first.componentName), (second.uid ?? "", second.componentName))
            return x == y ? nil : x < y
        }
        var low = 0
        while low < order.count {
            var high = low + 1
            while high < order.count, rows[order[high]].start == rows[order[low]].start { high += 1 }
            if high - low > 1 {
                order[low..<high].sort { a, b in
                    let (x, y) = (rows[a], rows[b])
                    if let before = precedes(x.ordinal, y.ordinal) { return before }
                    return (x.position, x.ordinal, a) < (y.position, y.ordinal, b)
                }
            }
            low = high
        }
        return order
    }

    /// An ASCII UID's first 16 bytes as two numbers that order as the text does (bytes after its end count as 0,
    /// which no UID holds), so most UIDs are ordered without comparing texts; nil for another UID, which is
    /// compared as text (Unicode's order is not its bytes').
    static func orderedPrefix(_ uid: String) -> (UInt64, UInt64)? {
        var words: (UInt64, UInt64) = (0, 0)
        var index = 0
        for byte in uid.utf8 {
            guard byte < 0x80 else { return nil }
            if index < 8 {
                words.0 |= UInt64(byte) << (56 - 8 * index)
            } else if index < 16 {
                words.1 |= UInt64(byte) << (56 - 8 * (index - 8))
            }
            index += 1
        }
        return words
    }

    /// The statement of the rows of one calendar's kept instances that can overlap the window, with their items'
    /// listed fields (`detail` .listing), handles and UIDs, its arguments set.
    private static func keptRows(
        _ db: Database, calendar: Int64, way: Way, window: Range<Int64>, kinds: Set<String>, firing: Range<Int64>?,
        detail: KeptDetail
    ) throws -> Statement {
        let kindList = kinds.sorted()
        // `startUTC >= from - longest` bounds the index range from below: an instance that overlaps the window
        // starts at most the month's longest instance before it. An item's listed fields come with each row
        // (the join looks the item up anyway) and are read at its first.
        let statement = try db.makeStatement(
            sql: """
                SELECT n.itemID, n.position, n.startUTC, n.endUTC, n.startWall, n.startForm, n.endWall, n.endForm,
                       n.recurrenceUTC, n.recurrenceWall, n.recurrenceForm, n.floating,
                       \(detail == .listing ? "i.listing" : "NULL"), i.handle, i.uid
                FROM instanceMonth m JOIN instance n ON n.monthID = m.id JOIN instanceItem i ON i.itemID = n.itemID
                WHERE m.calendarID = ? AND m.viewerZone = ? AND m.applyWRTimeZone = ? AND m.zones = ?
                AND m.month BETWEEN ? AND ? AND n.startUTC < ? AND n.startUTC >= ? - m.longest
                AND n.endUTC >= ? \(firing == nil ? "" : "AND n.hasAlarm AND n.alarmLast >= ? AND n.alarmFirst < ?")
                AND i.kind IN (\(Array(repeating: "?", count: kindList.count).joined(separator: ", ")))
                """)
        try statement.setArguments(
            StatementArguments(
                [calendar] + way.arguments + monthBounds(window)
                    + [window.upperBound, window.lowerBound, window.lowerBound]
                    + (firing.map { [$0.lowerBound, $0.upperBound] } ?? []) + kindList))
        return statement
    }

    /// The forms kept times name by number (`instanceForm`), by number.
    private static func keptForms(_ db: Database) throws -> [CalendarDate.Form] {
        var forms: [CalendarDate.Form] = []
        for row in try Row.fetchAll(db, sql: "SELECT id, form FROM instanceForm ORDER BY id") {
            let id: Int = row[0]
            guard id >= 0, id < 1 << 20 else { continue }
            while forms.count <= id { forms.append(.floating) }
            forms[id] = Self.form(row[1] as String)
        }
        return forms
    }

    /// Kept handles are forgotten when a UID may have come or gone since they were made.
    static func forgetHandlesIfUIDsChanged(_ db: Database) throws {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT uidEpoch, handlesKey, (SELECT coalesce(max(id), 0) FROM item) FROM instanceState")
        else { return }
        let key = "\(row[0] as Int64):\(row[2] as Int64)"
        guard key != row[1] as String else { return }
        try db.execute(sql: "UPDATE instanceItem SET handle = NULL WHERE handle IS NOT NULL")
        try db.execute(sql: "UPDATE instanceState SET handlesKey = ?", arguments: [key])
    }

    /// The short handles (`CalendarStore.shortHandles`) of the UIDs of kept items that have none yet, found and
    /// kept beside them.
    static func keepHandles(_ db: Database, of items: [(id: Int64, uid: String)]) throws -> [String: String] {
        guard !items.isEmpty else { return [:] }
        let found = try CalendarStore.shortHandles(db, for: Set(items.map(\.uid)))
        let keep = try db.cachedStatement(sql: "UPDATE instanceItem SET handle = ? WHERE itemID = ?")
        for item in items {
            guard let handle = found[item.uid] else { continue }
            try keep.execute(arguments: [handle, item.id])
        }
        return found
    }

    /// The items of these rows, read from their content or (`brief`) their brief text: as one calendar, which
    /// ICS.read decodes on every core.
    static func parsedItems(_ db: Database, ids: [Int64], brief: Bool) throws -> [Int64: Occurrence.Item] {
        var read: [(id: Int64, uid: String)] = []
        read.reserveCapacity(ids.count)
        var joined = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ICSKit//kept//EN\r\n".utf8)
        let sql =
            brief
            // Brief texts are kept for items with alarms; another is read whole.
            ? """
            SELECT i.itemID, i.uid, CASE WHEN length(i.brief) > 0 THEN i.brief ELSE CAST(t.content AS BLOB) END
            FROM instanceItem i JOIN item t ON t.id = i.itemID WHERE i.itemID IN
            """
            : "SELECT id, uid, CAST(content AS BLOB) FROM item WHERE id IN "
        for start in stride(from: 0, to: ids.count, by: 500) {
            let slice = ids[start..<min(start + 500, ids.count)]
            let rows = try Row.fetchCursor(db, sql: sql + "(\(slice.map { String($0) }.joined(separator: ",")))")
            while let row = try rows.next() {
                read.append((row[0], row[1]))
                try row.withUnsafeData(atIndex: 2) { data in
                    if let data { joined.append(contentsOf: data) }
                }
                if joined.last != 0x0A { joined += [0x0D, 0x0A] }
            }
        }
        joined += Array("END:VCALENDAR\r\n".utf8)
        let components = ICS.read(joined).calendars.first?.components ?? []
        var items: [Int64: Occurrence.Item] = [:]
        items.reserveCapacity(read.count)
        // Each text is one component, in order; a UID out of step would mean one was not read: those are looked
        // up by UID and RECURRENCE-ID instead.
        let inStep =
            components.count == read.count
            && zip(components, read).allSatisfy { $0.core?.uid == $1.uid }
        var byKey: [String: Int64] = [:]
        if !inStep {
            for row in try Row.fetchAll(
                db,
                sql:
                    "SELECT id, uid, recurrenceID FROM item WHERE id IN (\(ids.map { String($0) }.joined(separator: ",")))"
            ) {
                byKey[(row[1] as String) + "\u{1F}" + (row[2] as String)] = row[0]
            }
        }
        for (index, component) in components.enumerated() {
            guard let core = component.core else { continue }
            let id: Int64?
            if inStep {
                id = read[index].id
            } else {
                id = byKey[(core.uid ?? "") + "\u{1F}" + (core.recurrenceID?.date.icsValue ?? "")]
            }
            guard let id else { continue }
            switch component {
            case .event(let event): items[id] = .event(event)
            case .todo(let todo): items[id] = .todo(todo)
            case .journal(let journal): items[id] = .journal(journal)
            default: break
            }
        }
        return items
    }

    /// The properties a brief item keeps (`KeptDetail.alarms`); every line of a component inside it (an alarm)
    /// is kept.
    static let briefNames: Set<[UInt8]> = Set(
        [
            "BEGIN", "END", "UID", "DTSTAMP", "SUMMARY", "STATUS", "LOCATION", "CATEGORIES", "COLOR", "ORGANIZER",
            "ATTENDEE",
            "COMPLETED", "PERCENT-COMPLETE", "RECURRENCE-ID", "DTSTART", "DTEND", "DUE", "DURATION", "PRIORITY",
        ].map { Array($0.utf8) })

    /// A stored component's text with only the lines `briefNames` names (and their folded continuations).
    static func brief(_ content: String) -> [UInt8] {
        let beginName = Array("BEGIN".utf8), endName = Array("END".utf8)
        var bytes: [UInt8] = []
        var content = content
        content.withUTF8 { text in
            bytes.reserveCapacity(text.count / 2)
            var depth = 0
            var keeping = false
            var start = 0
            while start < text.count {
                var end = start
                while end < text.count, text[end] != 0x0A { end += 1 }
                let line = text[start..<min(end + 1, text.count)]
                if let first = line.first, first == 0x20 || first == 0x09 {
                    if keeping { bytes += line }
                } else {
                    var nameEnd = start
                    while nameEnd < end, text[nameEnd] != 0x3A, text[nameEnd] != 0x3B { nameEnd += 1 }
                    let name = text[start..<nameEnd].map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
                    keeping = depth > 1 || briefNames.contains(name)
                    if name == beginName { depth += 1 }
                    if name == endName { depth -= 1 }
                    if keeping { bytes += line }
                }
                start = end + 1
            }
        }
        return bytes
    }
}
