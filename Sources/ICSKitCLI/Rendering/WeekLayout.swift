import CalendarModel
import Foundation

/// Where a week's instances go in a week view: timed instances in the day columns (one piece per day they touch, so
/// a meeting from Tuesday 13:00 to Wednesday 23:00 is drawn on both days), overlapping pieces side by side in lanes;
/// all-day instances as bars across the day columns; and what a Gantt chart shows: the instances that cover more
/// than one day, and the groups of timed instances that really overlap. Times are wall-clock times in the viewer's
/// zone.
struct WeekLayout: Sendable {
    /// One instance with its wall-clock start and end in the viewer's zone.
    struct Entry: Sendable {
        /// The position of the instance in the occurrences the layout was made from.
        var index: Int
        var occurrence: Occurrence
        var start: LocalDateTime
        var end: LocalDateTime
        /// All-day: drawn as a bar across days; every timed instance goes in the grid.
        var isAllDay: Bool
        /// The first and last week days (0 = Monday, may lie outside 0...6) the instance covers; an end at
        /// midnight belongs to the day before.
        var firstDay: Int
        var lastDay: Int
        var coversSeveralDays: Bool { lastDay > firstDay }
    }

    /// A timed instance's piece within one day column, in minutes from that day's midnight.
    struct Block: Sendable, Equatable {
        var entry: Int
        var day: Int
        var startMinute: Int
        var endMinute: Int
        /// Its lane among the blocks it overlaps, and how many lanes that group needs.
        var lane: Int
        var lanes: Int
        var continuesBefore: Bool
        var continuesAfter: Bool
    }

    /// An all-day or multi-day instance across day columns `firstDay...lastDay`, on a row of the bar strip.
    struct Bar: Sendable, Equatable {
        var entry: Int
        var firstDay: Int
        var lastDay: Int
        var row: Int
        var continuesBefore: Bool
        var continuesAfter: Bool
    }

    var weekStart: LocalDateTime
    var entries: [Entry]
    var blocks: [Block]
    var bars: [Bar]
    /// The Gantt chart's instances that cover more than one day, by start.
    var multiDay: [Int]
    /// Groups of timed instances (each within a day or so) whose times really overlap, by start; each group by
    /// start, at least two.
    var overlapGroups: [[Int]]
    /// The hours the time grid shows: 08–18 at least, widened to where every timed block begins and ends.
    var firstHour: Int
    var lastHour: Int

    init(occurrences: [Occurrence], weekStart: LocalDateTime, zone: ZoneClock) {
        self.weekStart = weekStart
        let weekEnd = weekStart.adding(days: 7)
        entries = occurrences.enumerated().compactMap { index, occurrence in
            let span = Self.span(of: occurrence, zone: zone, from: weekStart)
            guard span.end > weekStart || (span.end == span.start && span.start >= weekStart), span.start < weekEnd
            else { return nil }
            return Entry(
                index: index, occurrence: occurrence, start: span.start, end: span.end, isAllDay: occurrence.isAllDay,
                firstDay: span.firstDay, lastDay: span.lastDay)
        }
        blocks = []
        bars = []
        multiDay = []
        overlapGroups = []
        (firstHour, lastHour) = (8, 18)
        let entries = self.entries
        var barRanges: [(entry: Int, first: Int, last: Int)] = []
        for (index, entry) in entries.enumerated() {
            if entry.isAllDay {
                barRanges.append((index, max(entry.firstDay, 0), min(entry.lastDay, 6)))
                continue
            }
            for day in max(entry.firstDay, 0)...min(entry.lastDay, 6) {
                let dayStart = weekStart.adding(days: day)
                let from = max(entry.start, dayStart), until = min(entry.end, dayStart.adding(days: 1))
                let startMinute = Int(from.wallSeconds - dayStart.wallSeconds) / 60
                let endMinute = max(Int(until.wallSeconds - dayStart.wallSeconds) / 60, startMinute + 15)
                blocks.append(
                    Block(
                        entry: index, day: day, startMinute: startMinute, endMinute: min(endMinute, 1440),
                        lane: 0, lanes: 1, continuesBefore: entry.start < dayStart,
                        continuesAfter: entry.end > dayStart.adding(days: 1)))
            }
        }
        Self.placeInLanes(&blocks)
        let rows = Self.lanes(barRanges.map { ($0.first, $0.last + 1) })
        for (range, placement) in zip(barRanges, rows) {
            let entry = entries[range.entry]
            bars.append(
                Bar(
                    entry: range.entry, firstDay: range.first, lastDay: range.last, row: placement.lane,
                    continuesBefore: entry.start < weekStart, continuesAfter: entry.end > weekEnd))
        }
        self.multiDay = entries.indices.filter { entries[$0].coversSeveralDays }
            .sorted { (entries[$0].start, $0) < (entries[$1].start, $1) }
        self.overlapGroups = Self.overlapGroups(entries)
        // The grid follows where events begin and end; a piece that runs on from or into another day is cut at
        // the grid's edge rather than stretching it to midnight.
        firstHour = min(8, blocks.filter { !$0.continuesBefore }.map { $0.startMinute / 60 }.min() ?? 8)
        lastHour = max(18, blocks.filter { !$0.continuesAfter }.map { ($0.endMinute + 59) / 60 }.max() ?? 18)
    }

    /// Lanes per day: a group of transitively overlapping blocks shares one width.
    static func placeInLanes(_ blocks: inout [Block]) {
        for day in 0..<7 {
            let indices = blocks.indices.filter { blocks[$0].day == day }
            let placed = lanes(indices.map { (blocks[$0].startMinute, blocks[$0].endMinute) })
            for (index, placement) in zip(indices, placed) {
                blocks[index].lane = placement.lane
                blocks[index].lanes = placement.lanes
            }
        }
    }

    /// Groups of timed instances by start, of two or more: a group runs on while the next begins before all so far
    /// end. Touching (one ends as the next begins) is not overlapping; instances over several days are listed apart.
    static func overlapGroups(_ entries: [Entry]) -> [[Int]] {
        let timed = entries.indices.filter { !entries[$0].isAllDay && !entries[$0].coversSeveralDays }
            .sorted { (entries[$0].start, entries[$0].end, $0) < (entries[$1].start, entries[$1].end, $1) }
        var groups: [[Int]] = []
        var groupEnd = LocalDateTime(year: 1, month: 1, day: 1)
        for index in timed {
            let entry = entries[index]
            if let last = groups.last, !last.isEmpty, entry.start < groupEnd, entry.end > entry.start {
                groups[groups.count - 1].append(index)
                groupEnd = max(groupEnd, entry.end)
            } else {
                groups.append([index])
                groupEnd = entry.end
            }
        }
        return groups.filter { $0.count > 1 }
    }

    /// An instance's wall-clock start and end in the zone (all-day ones keep their dates and last a day at least),
    /// and the first and last days it covers, counted from `origin`'s day; an end at midnight belongs to the day
    /// before. The week and the month pages place instances by it.
    static func span(of occurrence: Occurrence, zone: ZoneClock, from origin: LocalDateTime)
        -> (start: LocalDateTime, end: LocalDateTime, firstDay: Int, lastDay: Int)
    {
        let start = occurrence.isAllDay ? LocalDateTime(occurrence.start) : zone.wallClock(at: occurrence.startDate)
        var end = occurrence.isAllDay ? LocalDateTime(occurrence.end) : zone.wallClock(at: occurrence.endDate)
        if end < start { end = start }
        if occurrence.isAllDay, end.dayNumber == start.dayNumber { end = start.adding(days: 1) }
        let firstDay = start.dayNumber - origin.dayNumber
        let lastDay = end.dayNumber - origin.dayNumber - (end == end.startOfDayValue && end > start ? 1 : 0)
        return (start, end, firstDay, max(lastDay, firstDay))
    }

    /// Interval lanes: sorted by start, each interval takes the lowest lane free at its start; a cluster of
    /// transitively overlapping intervals reports the number of lanes it uses. Returned in input order.
    static func lanes(_ intervals: [(start: Int, end: Int)]) -> [(lane: Int, lanes: Int)] {
        let order = intervals.indices.sorted {
            (intervals[$0].start, -intervals[$0].end, $0) < (intervals[$1].start, -intervals[$1].end, $1)
        }
        var result = [(lane: Int, lanes: Int)](repeating: (0, 1), count: intervals.count)
        var laneEnds: [Int] = []
        var cluster: [Int] = []
        var clusterEnd = Int.min
        func closeCluster() {
            let width = cluster.map { result[$0].lane }.max().map { $0 + 1 } ?? 1
            for index in cluster { result[index].lanes = width }
            cluster = []
            laneEnds = []
        }
        for index in order {
            let interval = intervals[index]
            if interval.start >= clusterEnd, !cluster.isEmpty { closeCluster() }
            let lane = laneEnds.firstIndex { $0 <= interval.start } ?? laneEnds.count
            if lane == laneEnds.count { laneEnds.append(interval.end) } else { laneEnds[lane] = interval.end }
            result[index].lane = lane
            cluster.append(index)
            clusterEnd = cluster.count == 1 ? interval.end : max(clusterEnd, interval.end)
        }
        closeCluster()
        return result
    }
}
