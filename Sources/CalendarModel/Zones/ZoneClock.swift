import Foundation

/// A tzdata time zone for placing and showing instants: `ZoneClock(identifier: "Europe/Berlin")`.
/// Not thread-safe (libical fills a zone's tables lazily): one per thread. Each clock has its own copy of the zone.
package final class ZoneClock {
    private let zone: LibicalZone
    /// The IANA name of the zone.
    package let identifier: String

    /// nil when the name is no zone known here; Windows and prefixed names are mapped to IANA as TZIDs are.
    package init?(identifier: String) {
        guard let name = TimeZoneResolver.ianaName(for: identifier)?.iana, let zone = LibicalZone.privateCopy(name)
        else {
            return nil
        }
        self.zone = zone
        self.identifier = name
    }

    /// The system's zone: `TZ`, else /etc/localtime, else UTC.
    package static func system() -> ZoneClock {
        ZoneClock(identifier: systemName) ?? ZoneClock(identifier: "UTC")!
    }

    /// The name of the system's zone: `TZ` (without a leading `:`), else Foundation's current zone.
    static var systemName: String {
        ProcessInfo.processInfo.environment["TZ"].map { $0.hasPrefix(":") ? String($0.dropFirst()) : $0 }
            ?? TimeZone.current.identifier
    }

    /// The wall clock at an instant.
    package func wallClock(at date: Date) -> LocalDateTime {
        zone.local(atUTC: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// The instant of a wall-clock time (first occurrence in an overlap, shifted past a gap: RFC 5545 §3.3.5).
    package func date(of wall: LocalDateTime) -> Date {
        Date(timeIntervalSince1970: TimeInterval(zone.utcSeconds(of: wall)))
    }

    /// Seconds east of UTC at an instant.
    package func offset(at date: Date) -> Int { zone.offset(atUTC: Int64(date.timeIntervalSince1970.rounded(.down))) }

    /// ISO 8601 in this zone: `2026-11-23T09:00:00+01:00`, or `…Z` when the zone is UTC.
    package func iso8601(_ date: Date) -> String {
        var bytes: [UInt8] = []
        appendISO8601(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the ISO 8601 text of an instant in this zone as bytes.
    package func appendISO8601(_ date: Date, to bytes: inout [UInt8]) {
        let offset = self.offset(at: date)
        LocalDateTime(wallSeconds: Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(offset))
            .appendISO8601(to: &bytes, withTime: true)
        if identifier == "UTC" || identifier == "Etc/UTC" { return bytes.append(UInt8(ascii: "Z")) }
        let magnitude = abs(offset)
        bytes.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        LocalDateTime.appendDigits(magnitude / 3600, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        LocalDateTime.appendDigits(magnitude / 60 % 60, width: 2, to: &bytes)
    }
}

extension LocalDateTime {
    /// `2026-11-23T09:00:00`, no offset (a floating time).
    package var iso8601: String {
        var bytes: [UInt8] = []
        appendISO8601(to: &bytes, withTime: true)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `2026-11-23 09:00`: a time as a person reads it in a listing, to the minute.
    package var minuteText: String { String(iso8601.prefix(16)).replacingOccurrences(of: "T", with: " ") }

    /// `2026-11-23`.
    package var isoDate: String {
        var bytes: [UInt8] = []
        appendISO8601(to: &bytes, withTime: false)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `2026-11-23` or `2026-11-23T09:00:00` as bytes: agendas write hundreds of thousands of these.
    package func appendISO8601(to bytes: inout [UInt8], withTime: Bool) {
        Self.appendDigits(year, width: max(4, year.digitCount), to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        Self.appendDigits(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        Self.appendDigits(day, width: 2, to: &bytes)
        guard withTime else { return }
        bytes.append(UInt8(ascii: "T"))
        Self.appendDigits(hour, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.appendDigits(minute, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.appendDigits(second, width: 2, to: &bytes)
    }

    static func appendDigits(_ number: Int, width: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<max(1, width) { divisor *= 10 }
        let value = abs(number)
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// Monday = 1 … Sunday = 7 (ISO 8601).
    package var isoWeekday: Int { (RecurrenceEngine.weekday(dayNumber) + 6) % 7 + 1 }

    /// The Monday of ISO week `week` of `year` (`2026-W48`).
    package static func mondayOf(isoWeek week: Int, year: Int) -> LocalDateTime {
        let jan4 = LocalDateTime(year: year, month: 1, day: 4)
        return jan4.adding(days: 1 - jan4.isoWeekday + (week - 1) * 7)
    }

    /// The ISO week-year and week of this date.
    package var isoWeek: (year: Int, week: Int) {
        let thursday = adding(days: 4 - isoWeekday)
        let jan1 = LocalDateTime(year: thursday.year, month: 1, day: 1)
        return (thursday.year, (thursday.dayNumber - jan1.dayNumber) / 7 + 1)
    }
}

extension Int {
    var digitCount: Int {
        var count = 1, rest = abs(self)
        while rest >= 10 { rest /= 10; count += 1 }
        return count
    }
}
