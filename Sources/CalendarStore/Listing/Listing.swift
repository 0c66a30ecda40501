import CalendarModel
import Foundation
internal import GRDB

/// The instances of a window as a listing shows them: each calendar's, sorted as an expansion sorts them, and what
/// expanding said.
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
    /// The instances of [from, to) of these calendars (all: none named): what `occurrences(from:to:options:)` of
    /// each `loadCalendars` calendar gives, found through the instance index (`InstanceIndex`) instead of
    /// expanding every series, with each item read from the store. `options.components` choose instances,
    /// and `alarmsFiring` (when given) those of items with alarms that can go off in it (a few more: whoever asks
    /// decides which do); `options.budget` is not applied. Nil for a window of more than
    /// `InstanceIndex.windowLimit` months (3), which is expanded, and for a store opened read-only. With `listed`,
    /// the items carry only these properties (and their alarms: `ListedLines`), else they are whole. `handles` asks
    /// for the short handles of their UIDs; without `frames` a calendar's frame is left empty. The index is
    /// brought up to date first, in a write transaction only when something changed.
    public func keptInstances(
        from: Date, to: Date, calendars names: [String] = [], options: ExpansionOptions,
        alarmsFiring: Range<Date>? = nil, listed: Set<String>? = nil, handles: Bool = false, frames: Bool = true
    ) throws -> KeptInstances? {
        let window = Occurrence.seconds(from: from, to: to)
        guard !isReadOnly, InstanceIndex.months(window).count <= InstanceIndex.windowLimit else { return nil }
        let way = InstanceIndex.Way(options)
        let request = ListingRequest(
            from: from, to: to, window: window, way: way, options: options,
            firing: alarmsFiring.map { Occurrence.seconds(from: $0.lowerBound, to: $0.upperBound) }, listed: listed,
            handles: handles, frames: frames, path: path)
        func calendars(_ db: Database) throws -> [(id: Int64, name: String)] {
            try Row.fetchAll(db, sql: "SELECT id, name FROM calendar ORDER BY name").map {
                (id: $0[0] as Int64, name: $0[1] as String)
            }.filter { names.isEmpty || names.contains($0.name) }
        }
        let unchanged = try database.read { db -> KeptInstances? in
            let calendars = try calendars(db)
            guard
                try !InstanceIndex.needsUpkeep(
                    db, calendars: calendars.map(\.id), way: way, window: window, listed: listed)
            else { return nil }
            return try request.list(db, calendars: calendars)
        }
        if let unchanged { return unchanged }
        return try database.write { db in
            let calendars = try calendars(db)
            try InstanceIndex.prepare(db, calendars: calendars.map(\.id), way: way, window: window, listed: listed)
            return try request.list(db, calendars: calendars)
        }
    }
}

/// One listing's window and what it asks for.
private struct ListingRequest {
    var from, to: Date
    var window: Range<Int64>
    var way: InstanceIndex.Way
    var options: ExpansionOptions
    var firing: Range<Int64>?
    var listed: Set<String>?
    var handles: Bool
    var frames: Bool
    var path: String

    func list(_ db: Database, calendars: [(id: Int64, name: String)]) throws -> KeptInstances {
        var kept = KeptInstances()
        for calendar in calendars {
            let occurrences: [Occurrence]
            var frame = ICalendar()
            if try expandsWhereListed(db, calendar: calendar.id) {
                // Expanded here, as every calendar would be without the index.
                let parsed = try CalendarStore.storedCalendar(
                    db, calendar: calendar.id,
                    window: Int64(from.timeIntervalSince1970)..<Int64(to.timeIntervalSince1970))
                let expansion = parsed.occurrences(from: from, to: to, options: options, file: path)
                kept.diagnostics += expansion.diagnostics
                (occurrences, frame) = (expansion.occurrences, parsed)
            } else {
                occurrences = try indexed(db, calendar: calendar.id)
                if frames { frame = try CalendarStore.storedCalendar(db, calendar: calendar.id) }
            }
            kept.calendars.append((calendar.name, occurrences, frame))
        }
        if handles {
            let uids = Set(kept.calendars.flatMap { $0.occurrences.compactMap(\.uid) })
            let found = try CalendarStore.shortHandles(db, for: uids)
            kept.handles = kept.calendars.map { $0.occurrences.map { $0.uid.flatMap { found[$0] } } }
        }
        return kept
    }

    /// Whether a month of the window said something when it was expanded: then the calendar is expanded here.
    private func expandsWhereListed(_ db: Database, calendar: Int64) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM instanceMonth WHERE calendarID = ? AND viewerZone = ?
                AND applyWRTimeZone = ? AND zones = ? AND month BETWEEN ? AND ? AND expands)
                """,
            arguments: StatementArguments([calendar] + way.arguments + InstanceIndex.monthBounds(window))) == true
    }

    /// One calendar's instances from the index, each with its item read from the store, sorted as an expansion
    /// sorts them: by start, then UID and kind, then their place in the month.
    private func indexed(_ db: Database, calendar: Int64) throws -> [Occurrence] {
        let instances = try InstanceIndex.instances(
            db, calendar: calendar, way: way, window: window, kinds: options.components, firing: firing)
        // Items by ordinal (the order first met); each instance's item's ordinal.
        var ordinals: [Int64: Int] = [:]
        var ids: [Int64] = []
        let ordinalOf = instances.map { instance in
            if let known = ordinals[instance.itemID] { return known }
            ordinals[instance.itemID] = ids.count
            ids.append(instance.itemID)
            return ids.count - 1
        }
        let items = try CalendarStore.items(db, ids: ids, listedLines: listed != nil)
        let order = instances.indices.filter { items[ordinalOf[$0]] != nil }.sorted { a, b in
            let (x, y) = (instances[a], instances[b])
            if x.timing.startDate != y.timing.startDate { return x.timing.startDate < y.timing.startDate }
            return (x.uid, x.kind, x.position, a) < (y.uid, y.kind, y.position, b)
        }
        return Occurrence.instances(of: items, at: order.map { (ordinalOf[$0], instances[$0].timing) })
    }
}

extension CalendarStore {
    /// The events, todos and journals of these rows, in their order, read from their content (or `listedLines`, their
    /// listed lines where the index keeps them) as one calendar (nil for a row that is none, or could not be read).
    static func items(_ db: Database, ids: [Int64], listedLines: Bool = false) throws -> [Occurrence.Item?] {
        var place: [Int64: Int] = [:]
        place.reserveCapacity(ids.count)
        for (index, id) in ids.enumerated() { place[id] = index }
        var order: [Int] = []  // the place in `ids` of each row read, in the order read
        order.reserveCapacity(ids.count)
        var text = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ICSKit//listing//EN\r\n".utf8)
        // Listed lines from their own table (the items' rows are not touched), whole contents for the rest.
        var found = Set<Int64>()
        func read(_ sql: String, _ ids: [Int64]) throws {
            for start in stride(from: 0, to: ids.count, by: 500) {
                let slice = ids[start..<min(start + 500, ids.count)].map { String($0) }.joined(separator: ",")
                let rows = try Row.fetchCursor(db, sql: sql + " (\(slice))")
                while let row = try rows.next() {
                    let id: Int64 = row[0]
                    found.insert(id)
                    order.append(place[id] ?? 0)
                    try row.withUnsafeData(atIndex: 1) { data in
                        if let data { text.append(contentsOf: data) }
                    }
                    if text.last != 0x0A { text += [0x0D, 0x0A] }
                }
            }
        }
        if listedLines { try read("SELECT itemID, lines FROM listedItem WHERE itemID IN", ids) }
        try read("SELECT id, CAST(content AS BLOB) FROM item WHERE id IN", ids.filter { !found.contains($0) })
        text += "END:VCALENDAR\r\n".utf8
        let components = ICS.read(text).calendars.first?.components ?? []
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
