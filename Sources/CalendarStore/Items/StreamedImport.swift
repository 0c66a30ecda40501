import CalendarMerge
import CalendarModel
import Foundation
internal import GRDB

extension CalendarStore {
    /// Imports one iCalendar file streamed (`ICS.stream`), in memory bounded by the runs in flight and what the
    /// import keeps per item (its key and version), not by the file: the same items, report and store as
    /// `importCalendars` of the whole file. Two passes: the first reads the calendar's own part, its time zones and
    /// every item's version (so an iTIP stream's older versions can be left out, as a whole import does); the
    /// second derives the rows on every core and writes them in one transaction. `name` picks the store calendar
    /// from the file's own properties. Nil, with nothing done, for a file streaming does not take (read it whole).
    public func importStreaming(
        contentsOf path: String, file: String, name: (ICalendar) -> String,
        viewerZone: String = "UTC", listingChanges: Bool = false, progress: ((Int, Int) -> Void)? = nil
    ) throws -> (report: ImportReport, diagnostics: [Diagnostic])? {
        guard let (header, versions, parts, itemsBefore, read) = try Self.firstPass(path, file: file) else {
            return nil
        }
        let calendar = name(header)
        // Into a calendar that holds items, an import is a merge (`mergeImport`), of the file read whole.
        if try hasHistory(calendar: calendar) { return nil }
        var whole = header
        whole.components = parts
        let resolved = whole.resolvingWRTimeZone()
        let total = versions.count
        let firstItems = itemsBefore, opened = header, chosen = versions
        var notes: [Diagnostic] = []
        var report = ImportReport(calendar: calendar)
        report.listsChanges = listingChanges
        try importWrite(items: total, isLarge: true) { db in
            // A page cache of 16 MB rather than the store's 64: the rows of a large file are written once, and the
            // cache would otherwise hold the largest share of the import's memory.
            try db.execute(sql: "PRAGMA cache_size = -16384")
            defer { try? db.execute(sql: "PRAGMA cache_size = \(CalendarStore.pageCacheSize)") }
            var writer = try ImportWriter(db, calendar: calendar, report: report, file: file)
            try writer.saveCalendarParts(of: [resolved])
            // Second pass: each run's rows, its items' times placed through the calendar's zones, older versions
            // left out.
            _ = try ICS.stream(
                contentsOf: path, file: file, opening: { _ in },
                transform: { components, run in
                    let time = CalendarTime(calendar: resolved.withZonesOnly, viewerZone: viewerZone, file: file)
                    let left = chosen.leftOut(of: ItemVersions.Run(components, start: firstItems[run]), file: file)
                    return (
                        Self.rows(components, in: opened, time: time, skipping: Set(left.map(\.index))),
                        left.map(\.note)
                    )
                },
                consume: { rows, left in
                    notes += left
                    try writer.write(rows, total: total, progress: progress)
                })
            try writer.finish()
            report = writer.report
        }
        report.skipped += notes.count
        report.diagnostics = notes.sorted { $0.line < $1.line } + report.diagnostics
        progress?(total, total)
        return (report, read.diagnostics)
    }

    /// The first pass of a streamed import: the calendar's header, the newest version of each item, the time zones
    /// and other components (VAVAILABILITY, X-), and how many items come before each run; nil for a file streaming
    /// does not take.
    private static func firstPass(_ path: String, file: String) throws -> (
        header: ICalendar, versions: ItemVersions, parts: [CalendarComponent], itemsBefore: [Int],
        read: ICS.StreamedRead
    )? {
        var header = ICalendar()
        var versions = ItemVersions()
        var parts: [CalendarComponent] = []
        var itemsBefore: [Int] = []
        let read = try ICS.stream(
            contentsOf: path, file: file, opening: { header = $0 },
            transform: { components, _ in (ItemVersions.Run(components), components.filter { !$0.isItem }) },
            consume: { run, kept in
                itemsBefore.append(versions.count)
                var run = run
                run.start = versions.count
                versions.add(run)
                parts += kept
            })
        guard let read else { return nil }
        return (header, versions, parts, itemsBefore, read)
    }

    /// The rows of one run of components (in the calendar `header`, X-WR-TIMEZONE applied); the items at `skipping`
    /// (their place among the run's items: older versions) left out.
    private static func rows(
        _ components: [CalendarComponent], in header: ICalendar, time: CalendarTime, skipping: Set<Int>
    ) -> [ItemRow] {
        var items = header
        items.components = components
        var rows: [ItemRow] = []
        var index = 0
        for component in items.resolvingWRTimeZone().components where component.isItem && component.isComplete {
            defer { index += 1 }
            guard !skipping.contains(index), let row = ItemRow(component, time: time) else { continue }
            rows.append(row)
        }
        return rows
    }
}
