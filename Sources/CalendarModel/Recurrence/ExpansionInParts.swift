import Foundation

/// A calendar of many series is expanded on every core: its series in contiguous parts, each by an expander of its
/// own (an expander and its zone clocks serve one thread), each part's instances sorted there, then merged. The
/// result is the one expansion in order gives, instance for instance and warning for warning:
///
/// - instances: the parts are in series order and each instance's place counts from its part's start, so the merge
///   meets ties as `sorted` does;
/// - warnings: the grouping's and each part's in series order, then the zones' findings, each said once and where
///   it was met first (a later part's finding of a zone an earlier part met is left out: the serial expander would
///   have met it there first);
/// - the command's budget (`InstanceBudget`): each part gets a budget of its own; when a part reaches it, or the
///   parts' instances do not all fit the command's, the calendar is expanded in order instead, so that what is
///   refused is what the serial expansion refuses.
///
/// The times the calendar uses in its zones, at which every part compares a VTIMEZONE under a tzdata name with
/// tzdata, are found once, while the series are grouped (`ZoneWallsAhead`), not by each part again.
///
/// A speed trick, measured in BENCHMARKS.md ("Speed tricks"): the year of gen_ics.py 20000 expanded in 0.22 s
/// instead of 0.27 s on two cores.
extension ICalendar {
    /// The fewest series worth the parts' set-up (an expander and its zone clocks each).
    static let seriesPerPart = 512

    /// The expansion in parts, or nil when the calendar is too small for it or the budget decides in order.
    static func expandInParts(
        _ series: [Series], by first: Expander, window: Range<Int64>, zoneWalls: ZoneWallsAhead? = nil
    ) -> Expansion? {
        let ranges = ParallelParts.ranges(series.count, from: seriesPerPart)
        guard first.options.inParts, ranges.count > 1 else { return nil }
        let (calendar, options, file) = (first.calendar, first.options, first.file)
        let walls = zoneWalls?.wait()
        let limit = options.budget.map(\.limit)
        let parts = ParallelParts.run(ranges.count) { part -> Part in
            var partOptions = options
            partOptions.budget = limit.map { InstanceBudget(limit: $0) }
            let expander = Expander(calendar: calendar, options: partOptions, file: file, zoneWalls: walls)
            let said = expander.notes.count  // what its set-up said, which the first expander said already
            let occurrences = series[ranges[part]].flatMap { expander.expand($0, window: window) }
            return Part(
                occurrences: ICalendar.sorted(occurrences), notes: Array(expander.notes.dropFirst(said)),
                zones: expander.time.diagnostics, refused: partOptions.budget?.isSpent ?? false)
        }
        // A part that reached the limit refused instances: which ones is the serial expansion's to decide.
        let total = parts.reduce(0) { $0 + $1.occurrences.count }
        if parts.contains(where: \.refused) { return nil }
        if let budget = options.budget, !budget.take(total) { return nil }
        var diagnostics = first.notes
        for part in parts { diagnostics += part.notes }
        var seen = Set<String>()
        for finding in first.time.diagnostics + parts.flatMap(\.zones)
        where seen.insert(finding.code + "\u{1F}" + finding.message).inserted {
            diagnostics.append(finding)
        }
        return Expansion(occurrences: merged(parts.map(\.occurrences)), diagnostics: diagnostics)
    }

    /// One part's instances, sorted, and what it said.
    private struct Part: Sendable {
        var occurrences: [Occurrence]
        var notes: [Diagnostic]
        var zones: [Diagnostic]
        var refused: Bool
    }

    /// Sorted runs merged in `sorted`'s order (a run's instances were made after every earlier run's).
    private static func merged(_ runs: [[Occurrence]]) -> [Occurrence] {
        var result = runs.first ?? []
        var offset = result.count
        for run in runs.dropFirst() {
            var merged: [Occurrence] = []
            merged.reserveCapacity(result.count + run.count)
            var (i, j) = (0, 0)
            // Places: `result`'s instances keep theirs, `run`'s count from `offset` (all made after them).
            while i < result.count, j < run.count {
                if isOrdered(run[j], offset + j, before: result[i], i) {
                    merged.append(run[j])
                    j += 1
                } else {
                    merged.append(result[i])
                    i += 1
                }
            }
            merged += result[i...]
            merged += run[j...]
            offset += run.count
            result = merged
        }
        return result
    }
}

/// The wall-clock times a calendar uses in its zones (`ZoneUsage.walls(in:)`), found on another thread while the
/// caller groups the calendar into series. Every part of an expansion in parts compares the calendar's VTIMEZONEs
/// with tzdata at those times; each part found them anew, at the same moment, before. Started only for a
/// calendar that may be expanded in parts and has a VTIMEZONE under a tzdata name.
/// `@unchecked Sendable`: `walls` is written once before `group` is left and read only after waiting for it.
final class ZoneWallsAhead: @unchecked Sendable {
    private let group = DispatchGroup()
    private var walls: [String: [LocalDateTime]] = [:]

    init?(_ calendar: ICalendar, options: ExpansionOptions) {
        guard options.inParts, calendar.components.count >= ICalendar.seriesPerPart,
            ProcessInfo.processInfo.activeProcessorCount > 1, TimeZoneResolver.comparesZones(in: calendar)
        else { return nil }
        group.enter()
        DispatchQueue.global().async {
            self.walls = ZoneUsage.walls(in: calendar)
            self.group.leave()
        }
    }

    /// The times, once found.
    func wait() -> [String: [LocalDateTime]] {
        group.wait()
        return walls
    }
}
