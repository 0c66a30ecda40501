import Foundation

/// How long each instance of a component lasts.
enum InstanceLength {
    /// Whole days (DATE values).
    case days(Int)
    /// Wall-clock time added to the start (DTEND in the same zone, DURATION).
    case wall(Int64)
    /// Elapsed time (DTEND in another zone than DTSTART).
    case exact(Int64)
}

/// One component of a series as the expander sees it.
struct SeriesMember {
    var source: Occurrence.Source
    var start: CalendarDate?
    var length: InstanceLength
    var line: Int

    init(item: Occurrence.Item, start: CalendarDate?, length: InstanceLength, line: Int) {
        source = Occurrence.Source(item)
        self.start = start
        self.length = length
        self.line = line
    }

    var item: Occurrence.Item { source.item }
    var core: ItemCore { source.core }

    /// Whether this is a newer version of the same item than `other` (`Revision`), as `icskit import` and
    /// `convert --repair` choose. Equal ones keep the first read, as recurring-ical-events does.
    func isNewer(than other: SeriesMember) -> Bool { core.revision > other.core.revision }
}

/// A master and its overrides, sharing a UID.
struct Series {
    var master: SeriesMember?
    var overrides: [SeriesMember] = []
}

extension Expander {
    /// The calendar's components grouped into series by kind and UID; among duplicates the newest version wins
    /// (`SeriesMember.isNewer`), the first of equal ones.
    /// Linear in the number of components: a series and its overrides are found through dictionaries and grown in
    /// place (a calendar can hold tens of thousands of overrides of one UID).
    func series() -> [Series] {
        var all: [Series] = []
        struct Key: Hashable {
            var kind: ItemKind
            var uid: String
        }
        var seriesByKey: [Key: Int] = [:]
        var overrideByID: [[CalendarDate: Int]] = []
        for component in calendar.components {
            guard let member = member(component) else { continue }
            let position: Int
            let key = member.core.uid.map { Key(kind: member.item.kind, uid: $0) }
            if let key, let known = seriesByKey[key] {
                position = known
            } else {
                position = all.count
                all.append(Series())
                overrideByID.append([:])
                if let key { seriesByKey[key] = position }
            }
            guard let id = member.core.recurrenceID?.date else {
                if all[position].master.map({ member.isNewer(than: $0) }) ?? true {
                    all[position].master = member
                }
                continue
            }
            if let existing = overrideByID[position][id] {
                if member.isNewer(than: all[position].overrides[existing]) {
                    all[position].overrides[existing] = member
                }
            } else {
                overrideByID[position][id] = all[position].overrides.count
                all[position].overrides.append(member)
            }
        }
        return all
    }

    func member(_ component: CalendarComponent) -> SeriesMember? {
        switch component {
        case .event(var event) where options.components.contains(.event):
            if let wrZone, let moved = Self.applying(wrZone.tzid, wrZone.zone, to: event) { event = moved }
            let line = event.provenance.source?.line ?? 0
            return SeriesMember(
                item: .event(event), start: event.start,
                length: length(
                    from: event.start, end: event.end, duration: event.duration,
                    defaultDays: 1), line: line)
        case .todo(let todo) where options.components.contains(.todo):
            let start = todo.start ?? todo.due
            return SeriesMember(
                item: .todo(todo), start: start,
                length: length(
                    from: start, end: todo.start == nil ? nil : todo.due,
                    duration: todo.duration, defaultDays: 0),
                line: todo.provenance.source?.line ?? 0)
        case .journal(let journal) where options.components.contains(.journal):
            return SeriesMember(
                item: .journal(journal), start: journal.start,
                length: length(from: journal.start, end: nil, duration: nil, defaultDays: 1),
                line: journal.provenance.source?.line ?? 0)
        default:
            return nil
        }
    }

    func length(
        from start: CalendarDate?, end: CalendarDate?, duration: CalendarDuration?,
        defaultDays: Int
    ) -> InstanceLength {
        guard let start else { return .wall(0) }
        if let end {
            if start.isDate, end.isDate { return .days(end.dayNumber - start.dayNumber) }
            // Same zone, or one side floating or a date (read in the other's zone, as recurring-ical-events does;
            // a TZID nothing explains is floating too): the wall-clock difference. Two zones: the elapsed time.
            if start.form == end.form || time.isFloating(start) || time.isFloating(end) {
                return .wall(LocalDateTime(end).wallSeconds - LocalDateTime(start).wallSeconds)
            }
            return .exact(instant(end, line: 0) - instant(start, line: 0))
        }
        if let duration {
            return start.isDate && duration.totalSeconds % 86_400 == 0
                ? .days(duration.totalSeconds / 86_400) : .wall(Int64(duration.totalSeconds))
        }
        return start.isDate ? .days(defaultDays) : .wall(0)
    }
}
