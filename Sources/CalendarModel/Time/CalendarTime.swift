import Foundation

/// Places the date-time values of one calendar on the timeline: zoned times through the calendar's VTIMEZONEs,
/// tzdata and the names mapped to it (`TimeZoneResolver`), UTC as it is, floating times and dates in the viewer's
/// zone. It is the one placement type: the store, merge, CSV, export, freebusy and todo lists place values
/// through it, and `Expander` expands series on top of it. Not thread-safe (its zones fill their tables lazily):
/// one per thread.
package final class CalendarTime {
    private let resolver: TimeZoneResolver
    private let viewer: LibicalZone

    /// The placement of `calendar`'s values; floating times and dates in `viewerZone`; IANA names from `zones`
    /// (`ZoneSource.preferred` unless given); `file` names warnings; `zoneWalls`, when given, are the times the
    /// calendar uses in its zones (`ZoneUsage.walls(in:)`) found already.
    package init(
        calendar: ICalendar, viewerZone: String, zones: ZoneSource = .preferred, file: String? = nil,
        zoneWalls: [String: [LocalDateTime]]? = nil
    ) {
        resolver = TimeZoneResolver(calendar: calendar, source: zones, file: file, usedWalls: zoneWalls)
        viewer = LibicalZone.privateCopy(viewerZone) ?? LibicalZone.utc()
    }

    /// The instant of a value.
    package func date(of value: CalendarDate) -> Date {
        Date(timeIntervalSince1970: TimeInterval(instant(value, line: 0)))
    }

    /// Warnings about the calendar's time zones met so far (a TZID read as floating, a VTIMEZONE not used …).
    package var diagnostics: [Diagnostic] { resolver.diagnostics }

    /// Every warning about the calendar's time zones: each TZID its items use is resolved first (placing values
    /// resolves only the zones it meets).
    package func everyZoneFinding() -> [Diagnostic] {
        resolver.resolveEveryUsedZone()
        return resolver.diagnostics
    }

    /// The UTC instant (seconds) of a value; `line` places a warning about its zone, if one is due.
    func instant(_ date: CalendarDate, line: Int) -> Int64 {
        clock(for: date.form, line: line).instant(LocalDateTime(date))
    }

    /// The clock the wall-clock values of one form are read with, its zone resolved once (a series has thousands
    /// of instances).
    func clock(for form: CalendarDate.Form, line: Int) -> Clock {
        switch form {
        case .utc: return Clock(zone: nil)
        case .zoned(let tzid):
            if let zone = resolver.zone(for: tzid.name, line: line) { return Clock(zone: zone) }
            return Clock(zone: viewer, isFloating: true)  // a TZID nothing explains: floating time
        case .floating, .date: return Clock(zone: viewer, isFloating: true)
        }
    }

    /// Whether values of this form are floating: placed in the viewer's zone because they have none of their own
    /// (floating times, dates, and TZIDs nothing explains).
    package func isFloating(_ value: CalendarDate) -> Bool { clock(for: value.form, line: 0).isFloating }

    /// Wall clock ⇄ instant in one zone (nil: UTC).
    struct Clock {
        let zone: LibicalZone?
        /// Read in the viewer's zone for want of one of its own.
        var isFloating = false

        func instant(_ wall: LocalDateTime) -> Int64 { zone?.utcSeconds(of: wall) ?? wall.wallSeconds }
        func wall(_ instant: Int64) -> LocalDateTime {
            zone?.local(atUTC: instant) ?? LocalDateTime(wallSeconds: instant)
        }
    }
}
