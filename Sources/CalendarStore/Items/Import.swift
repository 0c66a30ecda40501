import CalendarMerge
import CalendarModel
import Foundation
internal import GRDB

/// One item an import added or updated (`ImportReport.changes`).
public struct ImportedItem: Sendable, Equatable {
    /// Whether the item is new to the calendar or replaced an older version.
    public var isNew: Bool
    /// Its UID and RECURRENCE-ID ("" for a master or single item).
    public var key: MergeKey
    /// Its SUMMARY.
    public var summary: String?
}

/// What an import did, item by item counted.
public struct ImportReport: Sendable {
    /// The store calendar imported into.
    public var calendar: String
    /// Items new to the calendar.
    public var added = 0
    /// Items that replaced an older version (a higher SEQUENCE or a later change).
    public var updated = 0
    /// Items the calendar already held as they are.
    public var unchanged = 0
    /// Items left out: a repeated UID, or an item the file ends inside of.
    public var skipped = 0
    /// Why items were skipped, with their lines.
    public var diagnostics: [Diagnostic] = []
    /// Whether `changes` is kept (`import --verbose`): a large import keeps nothing per item unless asked.
    public var listsChanges = false
    /// Each item added or updated, in the order written, when `listsChanges`.
    public var changes: [ImportedItem] = []

    /// An empty report for a calendar.
    public init(calendar: String) { self.calendar = calendar }
}

extension CalendarStore {
    /// Imports the events, todos and journals of calendars into a store calendar (created if missing), in one
    /// transaction (X-WR-TIMEZONE resolved into the events). An item already there (same UID and RECURRENCE-ID) is
    /// updated when it differs; importing the same file again changes nothing. Items without UID get one derived
    /// from their content. Helper threads derive the rows; their time zones are their own copies. `progress` hears
    /// (items done, items in all) every 500 items and at the end, on the calling thread.
    public func importCalendars(
        _ calendars: [ICalendar], into name: String, file: String?,
        viewerZone: String = "UTC", listingChanges: Bool = false, progress: ((Int, Int) -> Void)? = nil
    ) throws -> ImportReport {
        if try hasHistory(calendar: name) {
            return try mergeImport(calendars, into: name, file: file, listingChanges: listingChanges)
        }
        var report = ImportReport(calendar: name)
        report.listsChanges = listingChanges
        // Google's X-WR-TIMEZONE is resolved into the items (as the x-wr-timezone tool does), so each stored item
        // means the same whichever calendar it lands in and whatever else is imported beside it.
        let resolved = calendars.map { $0.resolvingWRTimeZone() }
        let (skipped, notes) = Self.supersededVersions(in: resolved, file: file)
        report.skipped += skipped.count
        report.diagnostics += notes
        let cut = Self.cutShortItems(in: resolved, file: file)
        report.skipped += cut.count
        report.diagnostics += cut
        // Deriving each item's columns (times through its zones, the text to keep, its fingerprint) runs on helper
        // threads, one per core but this one, while this one writes the rows in order; when the next batch to write
        // is not ready, this thread derives one itself rather than wait (on two cores deriving and writing take
        // about as long each). Each thread has its own CalendarTime per calendar, with its own copies of the zones
        // (libical's zones are not shared across threads).
        var work: [(calendar: Int, component: Int)] = []
        var position = 0
        for (calendarIndex, calendar) in resolved.enumerated() {
            for (index, component) in calendar.components.enumerated() where component.isItem && component.isComplete {
                defer { position += 1 }
                if !skipped.contains(position) { work.append((calendarIndex, index)) }
            }
        }
        let rows = ParallelParts.Batches<[ItemRow]>(items: work.count, batchSize: 256)
        for _ in 0..<max(1, min(ProcessInfo.processInfo.activeProcessorCount - 1, rows.count)) {
            Thread.detachNewThread { [work] in
                var deriver = RowDeriver(calendars: resolved, work: work, viewerZone: viewerZone, file: file)
                while let batch = rows.claim() { rows.put(deriver.rows(batch), for: batch) }
            }
        }
        let total = position
        try importWrite(items: work.count) { db in
            var writer = try ImportWriter(db, calendar: name, report: report, file: file)
            try writer.saveCalendarParts(of: resolved)
            var deriver = RowDeriver(calendars: resolved, work: work, viewerZone: viewerZone, file: file)
            while let batch = rows.take(deriving: { deriver.rows($0) }) {
                try writer.write(batch, total: total, progress: progress)
            }
            try writer.finish()
            report = writer.report
        }
        progress?(total, total)
        return report
    }
}

extension CalendarStore {
    /// Whether the calendar exists and holds an item, a deletion or a merge base: then an import has something
    /// to reconcile with, and is a merge.
    func hasHistory(calendar name: String) throws -> Bool {
        try database.read { db in
            guard let id = try StoreWriter(db).calendarID(named: name, create: false) else { return false }
            return try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM item WHERE calendarID = ?1)
                    OR EXISTS (SELECT 1 FROM tombstone WHERE calendarID = ?1)
                    OR EXISTS (SELECT 1 FROM syncState WHERE calendarID = ?1)
                    """, arguments: [id]) ?? false
        }
    }

    /// An import into a calendar that already holds items is a merge with the source the calendar is named after
    /// that deletes nothing (`MergeOptions.keepsAbsent`): an item changed here since that source last said what it
    /// is keeps the change, an item changed on both sides is merged field by field.
    func mergeImport(
        _ calendars: [ICalendar], into name: String, file: String?, listingChanges: Bool = false
    ) throws -> ImportReport {
        var options = MergeOptions()
        options.keepsAbsent = true
        let result = try CalendarMerger.merge(calendars, into: name, source: name, storage: self, options: options)
        var report = ImportReport(calendar: name)
        report.added = result.added
        report.updated = result.updated + result.merged
        report.unchanged = result.unchanged
        report.listsChanges = listingChanges
        if listingChanges {
            report.changes = result.actions.filter(\.changesSomething).compactMap { action in
                switch action.kind {
                case .add: return ImportedItem(isNew: true, key: action.key, summary: action.title)
                case .update, .merge: return ImportedItem(isNew: false, key: action.key, summary: action.title)
                default: return nil
                }
            }
        }
        // What the merge leaves out as the fast path does: older versions of a repeated item, items cut short.
        let resolved = calendars.map { $0.resolvingWRTimeZone() }
        let (superseded, notes) = Self.supersededVersions(in: resolved, file: file)
        let cut = Self.cutShortItems(in: resolved, file: file)
        report.skipped = superseded.count + cut.count
        report.diagnostics += notes + cut
        for action in result.actions where action.kind == .conflict || action.kind == .stayDeleted {
            report.diagnostics.append(
                Diagnostic(
                    .warning, file: file, line: 0,
                    "\(action.key): \(action.kind == .stayDeleted ? "not imported" : "left as it is") (\(action.reason))",
                    code: "import-conflict"))
        }
        return report
    }

    /// An item the file ends inside of may be cut short: it must not replace a complete version. A warning each.
    static func cutShortItems(in calendars: [ICalendar], file: String?) -> [Diagnostic] {
        calendars.flatMap { calendar in
            calendar.components.filter { $0.isItem && !$0.isComplete }.map { component in
                Diagnostic(
                    .warning, file: file, line: component.line,
                    "\(component.name) is cut short by the end of the file; not imported", code: "import-cut-short")
            }
        }
    }

    /// `database.write` for an import of `items` items. A large one into a store that holds no item yet runs with a
    /// rollback journal instead of the WAL: the pages of a new store need no journal (SQLite keeps none for pages
    /// past the file's end), so they are written once, into the database file, instead of into the WAL and again
    /// when it is checkpointed (a 20,000-event import: 0.34 s instead of 0.37). Its commit is synced in full
    /// (synchronous=FULL, as a rollback journal wants); WAL mode and synchronous=NORMAL come back afterwards. Where
    /// the mode cannot change (another connection has the store open) the import goes through the WAL as always.
    /// `isLarge`: a file large enough to be streamed, whatever its item count (one item of 100 MB was written twice).
    func importWrite(items: Int, isLarge: Bool = false, _ body: (Database) throws -> Void) throws {
        let bulk = items >= 1_000 || isLarge
        // This process's idle readers would keep the store in WAL mode.
        if bulk { (database as? DatabasePool)?.releaseMemory() }
        try database.writeWithoutTransaction { db in
            let direct =
                try bulk && !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item)")!
                && (try? String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")) == "delete"
            if direct { try db.execute(sql: "PRAGMA synchronous = FULL") }
            defer {
                if direct {
                    _ = try? String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                    try? db.execute(sql: "PRAGMA synchronous = NORMAL")
                }
            }
            try db.inTransaction {
                try changing(db, body)
                return .commit
            }
        }
    }

    /// The items an import leaves out because the input holds a newer version of them (by position among the
    /// complete items of `calendars`), with a warning each (see `ItemVersions`).
    static func supersededVersions(in calendars: [ICalendar], file: String?) -> (Set<Int>, [Diagnostic]) {
        var versions = ItemVersions()
        var runs: [ItemVersions.Run] = []
        for calendar in calendars {
            // A large calendar's versions are read in parts on every core; each part is a run of its own.
            let components = calendar.components
            let ranges = ParallelParts.ranges(components.count, from: 4096)
            let made = ParallelParts.run(ranges.count) { ItemVersions.Run(components[ranges[$0]]) }
            for var run in made {
                run.start = versions.count
                runs.append(run)
                versions.add(run)
            }
        }
        var skipped: Set<Int> = []
        var notes: [Diagnostic] = []
        for run in runs {
            for (index, note) in versions.leftOut(of: run, file: file) {
                skipped.insert(run.start + index)
                notes.append(note)
            }
        }
        return (skipped, notes.sorted { $0.line < $1.line })
    }
}

/// The versions of the items an import reads, to leave out those the input holds a newer version of. An iTIP stream
/// sends an event again with every update: the newest version (`Revision`) is kept, the first of equal ones, so a
/// second import of the same stream changes nothing. Items are taken in runs
/// (a streamed file's), positions counting the complete items from the first run's first; only the chosen version
/// of each key is kept, so the runs are read again to find what is left out.
struct ItemVersions: Sendable {
    struct Version: Sendable {
        var position: Int
        var line: Int
        var revision: Revision
        func isNewer(than other: Version) -> Bool { revision > other.revision }
    }

    /// The versions of one run's complete items, positions counted within the run (`start` places them among all).
    struct Run: Sendable {
        var versions: [(key: MergeKey, version: Version?)] = []
        /// Where the run's first item stands among all.
        var start = 0

        init(_ components: some Collection<CalendarComponent>, start: Int = 0) {
            self.start = start
            for component in components where component.isItem && component.isComplete {
                guard let revision = component.revision else {
                    versions.append((MergeKey(uid: ""), nil))
                    continue
                }
                let (uid, recurrenceID) = component.identity
                let key = MergeKey(uid: uid ?? component.keyed.uid, recurrenceID: recurrenceID)
                versions.append((key, Version(position: versions.count, line: component.line, revision: revision)))
            }
        }
    }

    private var chosen: [MergeKey: Version] = [:]
    /// Complete items so far.
    private(set) var count = 0

    /// Adds the next run (made with `start` at `count`).
    mutating func add(_ run: Run) {
        chosen.reserveCapacity(chosen.count + run.versions.count)
        for case (let key, var version?) in run.versions {
            version.position += run.start
            if let current = chosen[key], !version.isNewer(than: current) { continue }
            chosen[key] = version
        }
        count += run.versions.count
    }

    /// The items of a run (by index within it) that another version replaces, each with its warning.
    func leftOut(of run: Run, file: String?) -> [(index: Int, note: Diagnostic)] {
        var left: [(index: Int, note: Diagnostic)] = []
        for (index, entry) in run.versions.enumerated() {
            guard let version = entry.version, let kept = chosen[entry.key], kept.position != run.start + index else {
                continue
            }
            let which = entry.key.recurrenceID.isEmpty ? "" : " with the same RECURRENCE-ID"
            left.append(
                (
                    index,
                    Diagnostic(
                        .warning, file: file, line: version.line,
                        !kept.isNewer(than: version)
                            ? "duplicate UID \"\(entry.key.uid)\"\(which) (first at line \(kept.line)); this one is "
                                + "skipped"
                            : "UID \"\(entry.key.uid)\"\(which) has a newer version at line \(kept.line) (a higher "
                                + "SEQUENCE or a later DTSTAMP), which is imported; this one is skipped",
                        code: "import-duplicate-uid")
                ))
        }
        return left
    }
}

/// Writes an import's rows inside its transaction: the calendar (created if missing), its own parts, then its
/// items. Only for a calendar with nothing to reconcile with (no item, deletion or merge base: `hasHistory`), and
/// `ItemVersions` left one version of each key in: every row is new. Counts what it did in `report`.
struct ImportWriter {
    private let db: Database
    private let writer: StoreWriter
    private let calendarID: Int64
    private let file: String?
    private(set) var report: ImportReport
    private var done = 0
    /// The id the next item gets, as SQLite would choose it (one above every id in the store); nil past the largest
    /// id SQLite allows, where it picks them itself.
    private var nextID: Int64?

    init(_ db: Database, calendar name: String, report: ImportReport, file: String?) throws {
        self.db = db
        writer = StoreWriter(db)
        calendarID = try writer.calendarID(named: name, create: true)!
        self.report = report
        self.file = file
        let highest = try Int64.fetchOne(db, sql: "SELECT max(id) FROM item") ?? 0
        nextID = highest == .max ? nil : highest + 1
        source = name
        // Listed, the calendar's generation moves once, in `finish`, rather than once per item, and its merge base
        // is logged for undo there in one statement rather than a row per item (schema v26).
        try db.execute(sql: "INSERT OR IGNORE INTO bulkInsert (calendarID) VALUES (?)", arguments: [calendarID])
    }

    private let source: String

    /// Ends the import's writing: records what it wrote as the merge base of the source the calendar is named after
    /// (the one `merge FILE --into CALENDAR` uses), so a later merge of the next export deletes what that export
    /// dropped, and moves the calendar's generation once for all its items. An import writes through here only into
    /// a calendar with no items, deletions or base (`hasHistory`), so every item is the import's: one statement
    /// copies their keys and fingerprints.
    func finish() throws {
        try UndoLog.logBulkBase(db, calendarID: calendarID, source: source)
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO syncState (calendarID, source, uid, recurrenceID, fingerprint)
                SELECT calendarID, ?, uid, recurrenceID, fingerprint FROM item WHERE calendarID = ?
                """, arguments: [source, calendarID])
        try db.execute(sql: "DELETE FROM bulkInsert WHERE calendarID = ?", arguments: [calendarID])
        if report.added > 0 {
            try db.execute(
                sql: "UPDATE calendar SET generation = generation + 1 WHERE id = ?", arguments: [calendarID])
        }
    }

    /// The calendars' PRODID, colour, category colours, time zones, own properties and other components.
    func saveCalendarParts(of resolved: [ICalendar]) throws {
        if let product = resolved.first?.productID {
            try db.execute(
                sql: "UPDATE calendar SET productID = ?, source = coalesce(source, ?) WHERE id = ?",
                arguments: [product, file, calendarID])
        }
        if let color = resolved.first?.color {
            try db.execute(
                sql: "UPDATE calendar SET color = coalesce(color, ?) WHERE id = ?",
                arguments: [color, calendarID])
        }
        // Category colours another icskit store exported (the store's own choice stays when it has one).
        for (name, value) in resolved.flatMap({ CategoryColor.colors(in: $0.otherProperties) }) {
            try db.execute(
                sql: """
                    INSERT INTO category (name, color) VALUES (?, ?)
                    ON CONFLICT(name) DO UPDATE SET color = coalesce(category.color, excluded.color)
                    """, arguments: [name, value])
        }
        try writer.saveTimeZones(resolved.flatMap(\.timeZones), calendarID: calendarID)
        try writer.saveCalendarParts(of: resolved, calendarID: calendarID)
    }

    /// Writes a batch of rows; `progress` hears (items done, `total`) every 500 items.
    mutating func write(_ rows: [ItemRow], total: Int, progress: ((Int, Int) -> Void)?) throws {
        defer {
            if let progress {
                let before = done
                done += rows.count
                if done / 500 != before / 500 { progress(done, total) }
            }
        }
        report.added += rows.count
        if report.listsChanges {
            report.changes += rows.map { ImportedItem(isNew: true, key: $0.key, summary: $0.summary) }
        }
        guard let first = nextID, case let (next, false) = first.addingReportingOverflow(Int64(rows.count)) else {
            nextID = nil
            for index in rows.indices { try writer.save(rows[index], calendarID: calendarID, isNew: true) }
            return
        }
        try writer.insertNew(rows[...], calendarID: calendarID, firstID: first)
        nextID = next
    }
}

/// Derives the rows of an import's items, on one thread: each thread makes its own deriver, which keeps its own
/// CalendarTime per calendar.
private struct RowDeriver {
    let calendars: [ICalendar]
    /// The items to derive, by calendar and component index; batches are ranges of this.
    let work: [(calendar: Int, component: Int)]
    let viewerZone: String
    let file: String?
    var times: [Int: CalendarTime] = [:]

    /// The rows of a batch of `work`.
    mutating func rows(_ batch: Range<Int>) -> [ItemRow] {
        var made: [ItemRow] = []
        for (calendarIndex, index) in work[batch] {
            let calendar = calendars[calendarIndex]
            let time =
                times[calendarIndex]
                ?? CalendarTime(calendar: calendar.withZonesOnly, viewerZone: viewerZone, file: file)
            times[calendarIndex] = time
            let component = calendar.components[index]
            if let row = ItemRow(component, time: time) { made.append(row) }
        }
        return made
    }
}
