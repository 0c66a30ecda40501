import Foundation

/// Where the rules of a TZID that is a real IANA name come from when the file also carries a VTIMEZONE for it.
///
/// Files often carry stale or damaged blocks under real names: a New York block that only describes 2007, a Paris
/// block with unsigned offsets and no onsets, a Berlin block with shifted rules. The program that wrote the file
/// meant the real zone, and python icalendar and Google Calendar read such names from tzdata; so does ICSKit by
/// default. Either way, a block that disagrees with tzdata on the dates the file uses is reported with both offsets.
/// A TZID that is not an IANA name (`Eastern Standard Time`, a custom name) always uses the file's VTIMEZONE.
package enum ZoneSource: String, Sendable, CaseIterable {
    /// tzdata for IANA names (the default, as python icalendar and Google do).
    case tzdata
    /// The file's VTIMEZONE, when it has a usable one (libical's reading, RFC 5545's letter).
    case file

    private static let lock = NSLock()
    nonisolated(unsafe) private static var chosen = ZoneSource.tzdata

    /// The choice a program makes once (`icskit --zones`), used by every placement that is not given one:
    /// `tzdata` unless set.
    package static var preferred: ZoneSource {
        get { lock.withLock { chosen } }
        set { lock.withLock { chosen = newValue } }
    }
}

/// The wall-clock times a calendar uses in each zone, for comparing a VTIMEZONE with tzdata on the dates that
/// matter: every zoned DTSTART, DTEND, DUE, RECURRENCE-ID, RDATE and EXDATE, and, over the years its series run (to
/// their UNTIL, else to next year), every fourth day at their most common times of day: rules that differ for a
/// week or more (a shifted change, a stale block) show, at a bounded cost.
enum ZoneUsage {
    /// At most this many times are compared per zone (spread over the whole set).
    static let sampleLimit = 20_000

    /// The wall-clock times the calendar uses in one zone (`walls(in:)`).
    static func walls(for tzid: String, in calendar: ICalendar) -> [LocalDateTime] {
        walls(in: calendar)[tzid] ?? []
    }

    /// The wall-clock times the calendar uses in each zone it names: every start, end, due, RECURRENCE-ID, RDATE
    /// and EXDATE, and for the series a time of day every fourth day over the years they run (the four most used
    /// times of day), at most `sampleLimit` per zone. One pass over the items for all zones.
    static func walls(in calendar: ICalendar) -> [String: [LocalDateTime]] {
        struct Zone {
            var walls: Set<LocalDateTime> = []
            var years: ClosedRange<Int>?
            var timesOfDay: [Int: Int] = [:]  // minute of the day → how many series start then
        }
        var zones: [String: Zone] = [:]
        func add(_ value: CalendarDate) {
            guard case .zoned(let name) = value.form else { return }
            zones[name.name, default: Zone()].walls.insert(LocalDateTime(value))
        }
        for component in calendar.components {
            component.forEachDate(add)
            guard let (start, rules) = component.seriesStart, case .zoned(let tzid) = start.form else { continue }
            let wall = LocalDateTime(start)
            let until = rules.compactMap(\.until).map { LocalDateTime($0).year }.max()
            let last = max(wall.year, until ?? max(wall.year, TimeZoneResolver.currentYear) + 1)
            let name = tzid.name
            let years = zones[name]?.years
            zones[name]?.years = min(years?.lowerBound ?? wall.year, wall.year)...max(years?.upperBound ?? last, last)
            zones[name]?.timesOfDay[wall.hour * 60 + wall.minute, default: 0] += 1
        }
        return zones.mapValues { zone in
            var walls = zone.walls
            if let years = zone.years {
                let first = max(years.lowerBound, years.upperBound - 60)
                let times = zone.timesOfDay.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(4).map(\.key)
                var day = LocalDateTime(year: first, month: 1, day: 1)
                let end = LocalDateTime(year: years.upperBound + 1, month: 1, day: 1)
                while day < end {
                    for minute in times { walls.insert(day.adding(seconds: Int64(minute) * 60)) }
                    day = day.adding(days: 4)
                }
            }
            // In `<`'s order (by wall-clock seconds), each key computed once rather than at every comparison.
            let sorted = walls.map { (key: $0.wallSeconds, wall: $0) }.sorted { $0.key < $1.key }.map(\.wall)
            guard sorted.count > sampleLimit else { return sorted }
            let step = Double(sorted.count) / Double(sampleLimit)
            return (0..<sampleLimit).map { sorted[Int(Double($0) * step)] }
        }
    }
}
