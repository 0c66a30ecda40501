import CalendarModel
import Foundation
internal import GRDB

/// What a listing asks the instance index (`CalendarStore.indexedInstances(_:)`).
public struct InstanceQuery: Sendable {
    /// The window, [from, to).
    public var from, to: Date
    /// The calendars by name; none: all.
    public var calendars: [String] = []
    /// Which instances (`components`) and how they are expanded; `budget` is not applied.
    public var options: ExpansionOptions
    /// When given, only the instances of items with alarms that can go off in it (a few more: whoever asks decides
    /// which do).
    public var alarmsFiring: Range<Date>?
    /// Whether to give the short handle of each instance's UID (`IndexedInstances.handles`).
    public var handles = false
    /// Whether to give each calendar's frame (its own properties and VTIMEZONEs); else it is left empty.
    public var frames = true

    /// A query of [from, to), expanded with `options`.
    public init(from: Date, to: Date, options: ExpansionOptions) {
        (self.from, self.to, self.options) = (from, to, options)
    }
}

/// The instances of a window as a listing shows them: each calendar's, sorted as an expansion sorts them, and what
/// expanding said.
public struct IndexedInstances: Sendable {
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
    /// The instances `query` asks for: what `occurrences(from:to:options:)` of each `loadCalendars` calendar gives,
    /// found through the instance index (`InstanceIndex`) instead of expanding every series, each item read whole
    /// from the store. Nil for a window of more than `InstanceIndex.windowLimit` months (3), which is expanded, and
    /// for a store opened read-only. The index is brought up to date first, in a write transaction only when
    /// something changed.
    public func indexedInstances(_ query: InstanceQuery) throws -> IndexedInstances? {
        let window = Occurrence.seconds(from: query.from, to: query.to)
        guard !isReadOnly, InstanceIndex.months(window).count <= InstanceIndex.windowLimit else { return nil }
        let request = IndexRequest(
            query: query, window: window, way: InstanceIndex.Way(query.options),
            firing: query.alarmsFiring.map { Occurrence.seconds(from: $0.lowerBound, to: $0.upperBound) }, path: path)
        func calendars(_ db: Database) throws -> [(id: Int64, name: String)] {
            try Row.fetchAll(db, sql: "SELECT id, name FROM calendar ORDER BY name").map {
                (id: $0[0] as Int64, name: $0[1] as String)
            }.filter { query.calendars.isEmpty || query.calendars.contains($0.name) }
        }
        let unchanged = try database.read { db -> IndexedInstances? in
            let calendars = try calendars(db)
            guard
                try !InstanceIndex.needsUpkeep(db, calendars: calendars.map(\.id), way: request.way, window: window)
            else { return nil }
            return try request.list(db, calendars: calendars)
        }
        if let unchanged { return unchanged }
        return try database.write { db in
            let calendars = try calendars(db)
            try InstanceIndex.prepare(db, calendars: calendars.map(\.id), way: request.way, window: window)
            return try request.list(db, calendars: calendars)
        }
    }
}

/// One query, its window in seconds and its way of expanding.
private struct IndexRequest {
    var query: InstanceQuery
    var window: Range<Int64>
    var way: InstanceIndex.Way
    var firing: Range<Int64>?
    var path: String

    func list(_ db: Database, calendars: [(id: Int64, name: String)]) throws -> IndexedInstances {
        let (from, to, options) = (query.from, query.to, query.options)
        var listing = IndexedInstances()
        for calendar in calendars {
            let occurrences: [Occurrence]
            var frame = ICalendar()
            if try expandsWhereListed(db, calendar: calendar.id) {
                // Expanded here, as every calendar would be without the index.
                let parsed = try CalendarStore.storedCalendar(
                    db, calendar: calendar.id,
                    window: Int64(from.timeIntervalSince1970)..<Int64(to.timeIntervalSince1970))
                let expansion = parsed.occurrences(from: from, to: to, options: options, file: path)
                listing.diagnostics += expansion.diagnostics
                (occurrences, frame) = (expansion.occurrences, parsed)
            } else {
                occurrences = try indexed(db, calendar: calendar.id)
                if query.frames { frame = try CalendarStore.storedCalendar(db, calendar: calendar.id) }
            }
            listing.calendars.append((calendar.name, occurrences, frame))
        }
        if query.handles {
            let uids = Set(listing.calendars.flatMap { $0.occurrences.compactMap(\.uid) })
            let found = try CalendarStore.shortHandles(db, for: uids)
            listing.handles = listing.calendars.map { $0.occurrences.map { $0.uid.flatMap { found[$0] } } }
        }
        return listing
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
            db, calendar: calendar, way: way, window: window, kinds: query.options.components, firing: firing)
        // Items by ordinal (the order first met); each instance's item's ordinal.
        var ordinals: [Int64: Int] = [:]
        var ids: [Int64] = []
        let ordinalOf = instances.map { instance in
            if let known = ordinals[instance.itemID] { return known }
            ordinals[instance.itemID] = ids.count
            ids.append(instance.itemID)
            return ids.count - 1
        }
        let items = try CalendarStore.items(db, ids: ids)
        let found = items.indices.map { if case .none = items[$0] { false } else { true } }
        let order = Self.sortedIndices(of: instances).filter { found[ordinalOf[$0]] }
        let timings = order.map { (ordinalOf[$0], instances[$0].timing) }
        return Occurrence.instances(of: items, at: timings)
    }

    /// The instances' places in the order an expansion sorts them: by start, then UID and kind, then their place
    /// in the month. UIDs and kinds are ranked once, so that sorting compares numbers.
    static func sortedIndices(of instances: [InstanceIndex.Instance]) -> [Int] {
        func ranks(_ texts: [String]) -> [Int] {
            let rank = Dictionary(
                Set(texts).sorted().enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            return texts.map { rank[$0] ?? 0 }
        }
        let uids = ranks(instances.map(\.uid)), kinds = ranks(instances.map(\.kind))
        let keys = instances.indices.map { index in
            (
                start: instances[index].timing.startDate, uid: uids[index], kind: kinds[index],
                position: instances[index].position, index: index
            )
        }
        return keys.sorted { x, y in
            if x.start != y.start { return x.start < y.start }
            return (x.uid, x.kind, x.position, x.index) < (y.uid, y.kind, y.position, y.index)
        }.map(\.index)
    }
}
