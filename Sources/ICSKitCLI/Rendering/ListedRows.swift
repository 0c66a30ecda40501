import CalendarModel
import Foundation

/// The instances a listing shows: each calendar's as its expansion (or the store's kept months) gave them, and the
/// order they are listed in, by start and then calendar name, ties as given. The instances stay where they were
/// made (a week of a large store holds tens of thousands; copying them into rows cost more than listing them).
struct ListedRows {
    /// One calendar's instances (a calendar may have several segments: one per file it came from).
    typealias Segment = (name: String, occurrences: [Occurrence])

    let segments: [Segment]
    /// (segment, index) of each instance, in the order listed.
    let order: [(segment: Int, index: Int)]

    init(_ segments: [Segment]) {
        self.segments = segments
        var order: [(segment: Int, index: Int)] = []
        order.reserveCapacity(segments.reduce(0) { $0 + $1.occurrences.count })
        for (segment, content) in segments.enumerated() {
            for index in content.occurrences.indices { order.append((segment, index)) }
        }
        // Calendar names ranked once; most listings are one calendar, already in order, and checked so in one pass.
        let names = Array(Set(segments.map(\.name))).sorted()
        let rank = segments.map { segment in names.firstIndex(of: segment.name) ?? 0 }
        func key(_ place: (segment: Int, index: Int)) -> (Date, Int) {
            (segments[place.segment].occurrences[place.index].startDate, rank[place.segment])
        }
        if !zip(order, order.dropFirst()).allSatisfy({ key($0) <= key($1) }) {
            order.sort { key($0) < key($1) }  // stable: ties keep the order given
        }
        self.order = order
    }

    /// Rows of (instance, calendar), consecutive rows of one calendar made one segment.
    init(rows: [(occurrence: Occurrence, calendar: String)]) {
        var segments: [Segment] = []
        for row in rows {
            if let last = segments.indices.last, segments[last].name == row.calendar {
                segments[last].occurrences.append(row.occurrence)
            } else {
                segments.append((row.calendar, [row.occurrence]))
            }
        }
        self.init(segments)
    }

    var count: Int { order.count }
    var isEmpty: Bool { order.isEmpty }

    /// Every instance's UID.
    var uids: Set<String> {
        Set(segments.lazy.flatMap { $0.occurrences.lazy.compactMap(\.uid) })
    }
}

/// Each listed instance's short handle (`id:…`): by UID, or as each segment's instances are (the store's kept
/// instances come with theirs).
enum ListedHandles {
    case byUID([String: String])
    case bySegment([[String?]])

    func handle(_ segment: Int, _ index: Int, of occurrence: Occurrence) -> String? {
        switch self {
        case .byUID(let handles): return handles.isEmpty ? nil : occurrence.uid.flatMap { handles[$0] }
        case .bySegment(let handles): return handles[segment][index]
        }
    }
}
