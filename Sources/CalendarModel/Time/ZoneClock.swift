import Foundation

/// A tzdata time zone for placing and showing instants: `ZoneClock(identifier: "Europe/Berlin")`.
/// Not thread-safe (libical fills a zone's tables lazily): one per thread.
public final class ZoneClock {
    private let zone: LibicalZone
    public let identifier: String

    /// nil when the name is no zone known here; Windows and prefixed names are mapped to IANA as TZIDs are.
    public init?(identifier: String) {
        guard let name = TimeZoneResolver.ianaName(for: identifier)?.iana, let zone = LibicalZone.builtin(name) else {
            return nil
        }
        self.zone = zone
        self.identifier = name
    }

    /// The system's zone: `TZ`, else /etc/localtime, else UTC.
    public static func system() -> ZoneClock {
        let name = ProcessInfo.processInfo.environment["TZ"].map { $0.hasPrefix(":") ? String($0.dropFirst()) : $0 }
            ?? TimeZone.current.identifier
        return ZoneClock(identifier: name) ?? ZoneClock(identifier: "UTC")!
    }

    /// The wall clock at an instant.
    public func wallClock(at date: Date) -> LocalDateTime {
        zone.local(atUTC: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// The instant of a wall-clock time (first occurrence in an overlap, shifted past a gap: RFC 5545 §3.3.5).
    public func date(of wall: LocalDateTime) -> Date {
        Date(timeIntervalSince1970: TimeInterval(zone.utcSeconds(of: wall)))
    }

    /// Seconds east of UTC at an instant.
    public func offset(at date: Date) -> Int { zone.offset(atUTC: Int64(date.timeIntervalSince1970.rounded(.down))) }

    /// ISO 8601 in this zone: `2026-11-23T09:00:00+01:00`, or `…Z` when the zone is UTC.
    public func iso8601(_ date: Date) -> String {
        let wall = wallClock(at: date)
        let offset = self.offset(at: date)
        let suffix: String
        if identifier == "UTC" || identifier == "Etc/UTC" {
            suffix = "Z"
        } else {
            let magnitude = abs(offset)
            suffix = (offset < 0 ? "-" : "+") + CalendarDate.pad(magnitude / 3600, 2) + ":"
                + CalendarDate.pad(magnitude / 60 % 60, 2)
        }
        return wall.iso8601 + suffix
    }
}

extension LocalDateTime {
    /// `2026-11-23T09:00:00`, no offset (a floating time).
    public var iso8601: String { isoDate + "T" + CalendarDate.pad(hour, 2) + ":" + CalendarDate.pad(minute, 2) + ":"
        + CalendarDate.pad(second, 2) }

    /// `2026-11-23`.
    public var isoDate: String {
        CalendarDate.pad(year, 4) + "-" + CalendarDate.pad(month, 2) + "-" + CalendarDate.pad(day, 2)
    }

    /// Monday = 1 … Sunday = 7 (ISO 8601).
    public var isoWeekday: Int { (RecurrenceEngine.weekday(dayNumber) + 6) % 7 + 1 }

    /// The Monday of ISO week `week` of `year` (`2026-W48`).
    public static func mondayOf(isoWeek week: Int, year: Int) -> LocalDateTime {
        let jan4 = LocalDateTime(year: year, month: 1, day: 4)
        return jan4.adding(days: 1 - jan4.isoWeekday + (week - 1) * 7)
    }

    /// The ISO week-year and week of this date.
    public var isoWeek: (year: Int, week: Int) {
        let thursday = adding(days: 4 - isoWeekday)
        let jan1 = LocalDateTime(year: thursday.year, month: 1, day: 1)
        return (thursday.year, (thursday.dayNumber - jan1.dayNumber) / 7 + 1)
    }
}
