import CalendarMerge
import CalendarModel
import Foundation
import GRDB

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

    /// An empty report for a calendar.
    public init(calendar: String) { self.calendar = calendar }
}

extension CalendarStore {
    /// Imports the events, todos and journals of calendars into a store calendar (created if missing), in one
    /// transaction (X-WR-TIMEZONE resolved into the events). An item already there (same UID and RECURRENCE-ID) is
    /// updated when it differs; importing the same file again changes nothing. Items without UID get one derived
    /// from their content. A helper thread derives the rows; its time zones are its own copies. `progress` hears
    /// (items done, items in all) every 500 items and at the end, on the calling thread.
    public func importCalendars(
        _ calendars: [ICalendar], into name: String, file: String?,
        viewerZone: String = "UTC", progress: ((Int, Int) -> Void)? = nil
    ) throws -> ImportReport {
        var report = ImportReport(calendar: name)
        // Google's X-WR-TIMEZONE is resolved into the items (as the x-wr-timezone tool does), so each stored item
        // means the same whichever calendar it lands in and whatever else is imported beside it.
        let resolved = calendars.map { $0.resolvingWRTimeZone() }
        let (skipped, notes) = Self.supersededVersions(in: resolved, file: file)
        report.skipped += skipped.count
        report.diagnostics += notes
        // Deriving each item's columns (times through its zones, the text to keep, its fingerprint) runs on a
        // second thread while this one writes the rows before it. Its CalendarTime has its own copies of the zones.
        let rows = RowPipeline()
        Thread.detachNewThread {
            var position = 0
            for calendar in resolved {
                let time = CalendarTime(calendar: calendar, viewerZone: viewerZone, file: file)
                var batch: [(row: ItemRow, line: Int)] = []
                for component in calendar.components where component.isItem && component.isComplete {
                    defer { position += 1 }
                    guard !skipped.contains(position), let row = ItemRow(component, time: time) else { continue }
                    batch.append((row, component.line))
                    if batch.count == 256 { rows.put(batch); batch = [] }
                }
                rows.put(batch)
            }
            rows.finish()
        }
        // An item the file ends inside of may be cut short: it must not replace a complete version.
        for component in resolved.flatMap(\.components) where component.isItem && !component.isComplete {
            report.skipped += 1
            report.diagnostics.append(
                Diagnostic(
                    .warning, file: file, line: component.line,
                    "\(component.name) is cut short by the end of the file; not imported"))
        }
        var seen: [MergeKey: Int] = [:]
        let total =
            progress == nil ? 0 : resolved.reduce(0) { $0 + $1.components.count { $0.isItem && $0.isComplete } }
        var done = 0
        try database.write { db in
            let writer = StoreWriter(db)
            let calendarID = try writer.calendarID(named: name, create: true)!
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
            for property in resolved.flatMap(\.otherProperties) where property.name == CategoryColor.propertyName {
                guard let name = property.parameters.first(where: { $0.name == CategoryColor.parameterName })?.value,
                    !name.isEmpty, CategoryColor.isHex(property.value)
                else { continue }
                try db.execute(
                    sql: """
                        INSERT INTO category (name, color) VALUES (?, ?)
                        ON CONFLICT(name) DO UPDATE SET color = coalesce(category.color, excluded.color)
                        """, arguments: [name, property.value])
            }
            try writer.saveTimeZones(resolved.flatMap(\.timeZones), calendarID: calendarID)
            try writer.saveCalendarParts(of: resolved, calendarID: calendarID)
            var existing: [MergeKey: String] = [:]
            let cursor = try BaseRecord.fetchCursor(
                db,
                sql: "SELECT uid, recurrenceID, fingerprint FROM item "
                    + "WHERE calendarID = ?", arguments: [calendarID])
            while let entry = try cursor.next() { existing[entry.key] = entry.fingerprint }
            while let batch = rows.take() {
                defer {
                    if let progress {
                        let before = done
                        done += batch.count
                        if done / 500 != before / 500 { progress(done, total) }
                    }
                }
                for (row, line) in batch {
                    if let first = seen[row.key] {
                        report.skipped += 1
                        let which = row.recurrenceID.isEmpty ? "" : " with the same RECURRENCE-ID"
                        report.diagnostics.append(
                            Diagnostic(
                                .warning, file: file, line: line,
                                "duplicate UID \"\(row.uid)\"\(which) (first at line \(first)); this one is skipped"))
                        continue
                    }
                    seen[row.key] = line
                    let previous = existing[row.key]
                    switch previous {
                    case nil: report.added += 1
                    case row.fingerprint?:
                        report.unchanged += 1
                        continue
                    default: report.updated += 1
                    }
                    try writer.save(row, calendarID: calendarID, isNew: previous == nil)
                }
            }
        }
        progress?(total, total)
        return report
    }
}

extension CalendarStore {
    /// The items an import leaves out because the input holds a newer version of them (by position among the
    /// complete items of `calendars`), with a warning each. An iTIP stream sends an event again with every update:
    /// the version with the highest SEQUENCE is kept, then the one with the latest DTSTAMP, then the first, so a
    /// second import of the same stream changes nothing.
    static func supersededVersions(in calendars: [ICalendar], file: String?) -> (Set<Int>, [Diagnostic]) {
        struct Version {
            var position: Int
            var line: Int
            var sequence: Int
            var stamp: Int64
            func isNewer(than other: Version) -> Bool { (sequence, stamp) > (other.sequence, other.stamp) }
        }
        var chosen: [MergeKey: Version] = [:]
        var all: [(key: MergeKey, version: Version)] = []
        var position = 0
        for calendar in calendars {
            for component in calendar.components where component.isItem && component.isComplete {
                defer { position += 1 }
                guard let core = component.core else { continue }
                let identity = component.identity
                let key = MergeKey(uid: identity.uid ?? component.keyed.uid, recurrenceID: identity.recurrenceID)
                let version = Version(
                    position: position, line: component.line, sequence: core.sequence ?? 0,
                    stamp: core.stamp.map { LocalDateTime($0).wallSeconds } ?? .min)
                all.append((key, version))
                if let current = chosen[key], !version.isNewer(than: current) { continue }
                chosen[key] = version
            }
        }
        var skipped: Set<Int> = []
        var notes: [Diagnostic] = []
        for (key, version) in all {
            guard let kept = chosen[key], kept.position != version.position else { continue }
            skipped.insert(version.position)
            let which = key.recurrenceID.isEmpty ? "" : " with the same RECURRENCE-ID"
            notes.append(
                Diagnostic(
                    .warning, file: file, line: version.line,
                    !kept.isNewer(than: version)
                        ? "duplicate UID \"\(key.uid)\"\(which) (first at line \(kept.line)); this one is skipped"
                        : "UID \"\(key.uid)\"\(which) has a newer version at line \(kept.line) (a higher SEQUENCE or "
                            + "a later DTSTAMP), which is imported; this one is skipped"))
        }
        return (skipped, notes.sorted { $0.line < $1.line })
    }
}

/// How a category's colour travels in a calendar file: `X-ICSKIT-CATEGORY-COLOR;X-CATEGORY=Work:#3366FF`.
public enum CategoryColor {
    /// The calendar property an export carries each category colour in: `X-ICSKIT-CATEGORY-COLOR;X-CATEGORY=Home:#00AA00`.
    public static let propertyName = "X-ICSKIT-CATEGORY-COLOR"
    /// The parameter that names the category.
    public static let parameterName = "X-CATEGORY"

    /// Whether the text is a `#RRGGBB` colour.
    public static func isHex(_ text: String) -> Bool {
        text.utf8.count == 7 && text.hasPrefix("#") && text.dropFirst().allSatisfy(\.isHexDigit)
    }
}

/// Rows handed from the thread that derives them to the one that writes them, in order. `@unchecked Sendable`:
/// every access goes through `condition`.
private final class RowPipeline: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [[(row: ItemRow, line: Int)]] = []
    private var finished = false

    func put(_ batch: [(row: ItemRow, line: Int)]) {
        guard !batch.isEmpty else { return }
        condition.withLock {
            batches.append(batch)
            condition.signal()
        }
    }

    func finish() {
        condition.withLock {
            finished = true
            condition.signal()
        }
    }

    /// The next batch, waiting for it; nil once all were taken.
    func take() -> [(row: ItemRow, line: Int)]? {
        condition.withLock {
            while batches.isEmpty && !finished { condition.wait() }
            return batches.isEmpty ? nil : batches.removeFirst()
        }
    }
}
