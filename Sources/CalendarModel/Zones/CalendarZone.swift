import Foundation

/// A time zone ICSKit knows by name: an IANA zone of the system's tzdata, or a name Outlook and Exchange write
/// for one (a Windows zone ID such as `W. Europe Standard Time`, a display name such as `(UTC+01:00) Amsterdam,
/// Berlin, Bern, Rome, Stockholm, Vienna`, a prefixed name such as `/freeassociation.sourceforge.net/Europe/Berlin`),
/// mapped to its IANA zone as ICSKit maps a TZID. A name it does not know is an error, never UTC:
///
/// ```swift
/// let berlin = try CalendarZone("W. Europe Standard Time")   // berlin.identifier == "Europe/Berlin"
/// let typo = try? CalendarZone("Europe/Berln")               // nil
/// ```
public struct CalendarZone: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The IANA name: `Europe/Berlin`, `UTC`.
    public let identifier: String

    /// The zone a name stands for; throws when the name is no zone tzdata or the Windows/Outlook mapping knows.
    public init(_ name: String) throws {
        guard let iana = TimeZoneResolver.ianaName(for: name)?.iana else {
            throw ValueError("\"\(name)\" is no time zone known here (an IANA name such as Europe/Berlin)")
        }
        identifier = iana
    }

    /// Foundation's zone as a calendar zone; nil for a zone with no IANA name (`TimeZone(secondsFromGMT:)`).
    public init?(_ timeZone: TimeZone) {
        guard let zone = try? CalendarZone(timeZone.identifier) else { return nil }
        self = zone
    }

    private init(verified identifier: String) { self.identifier = identifier }

    /// Coordinated Universal Time.
    public static let utc = CalendarZone(verified: "UTC")

    /// The zone of this machine's user: `TZ` when set, else the system's zone; UTC when that names no zone (as
    /// the CLI's default zone).
    public static var current: CalendarZone { (try? CalendarZone(ZoneClock.systemName)) ?? .utc }

    /// Foundation's zone of the same name (UTC when Foundation does not know it).
    public var timeZone: TimeZone { TimeZone(identifier: identifier) ?? TimeZone(identifier: "UTC")! }

    /// The IANA name.
    public var description: String { identifier }

    /// Decodes the name as one JSON string and checks it as `init(_:)` does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = try CalendarZone(try container.decode(String.self))
    }

    /// Encodes the IANA name as one JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }

    /// A zone the caller already checked (the CLI's zones, a TZID tzdata knows).
    package init(known identifier: String) { self.identifier = identifier }

    /// Runs `body` with this zone's clock. libical's zones are not thread-safe, so one clock per zone is kept for
    /// the process and used under a lock: conversions of single values, not of whole calendars (those build
    /// their own `CalendarTime`).
    func withClock<Result>(_ body: (ZoneClock) -> Result) -> Result {
        ZoneClocks.shared.lock.withLock {
            if let clock = ZoneClocks.shared.clocks[identifier] { return body(clock) }
            let clock = ZoneClock(identifier: identifier) ?? ZoneClock(identifier: "UTC")!
            ZoneClocks.shared.clocks[identifier] = clock
            return body(clock)
        }
    }
}

/// The clocks of `CalendarZone.withClock`, one per zone used.
private final class ZoneClocks: @unchecked Sendable {
    // `@unchecked Sendable`: `clocks` is only touched under `lock`.
    static let shared = ZoneClocks()
    let lock = NSLock()
    var clocks: [String: ZoneClock] = [:]
}

extension CalendarDate {
    /// The wall-clock time of an instant in a zone: a UTC value for UTC, else a time with the zone's TZID.
    public init(_ date: Date, in zone: CalendarZone) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        if zone == .utc {
            self.init(wall: LocalDateTime(wallSeconds: seconds), form: .utc)
        } else {
            self.init(wall: zone.withClock { $0.wallClock(at: date) }, form: .zoned(tzid: TimeZoneID(zone)))
        }
    }

    /// The wall-clock time of an instant in Foundation's zone (`init(_:in:)` with its `CalendarZone`). Throws for a
    /// zone with no IANA name (`TimeZone(secondsFromGMT:)`, `TimeZone(abbreviation:)` of no region): iCalendar
    /// names zones, and a fixed offset is none (it used to become UTC, hours off, without a word).
    public init(_ date: Date, in timeZone: TimeZone) throws {
        guard let zone = CalendarZone(timeZone) else {
            throw ValueError(
                "the time zone \(timeZone.identifier) has no IANA name (such as Europe/Berlin): iCalendar cannot "
                    + "name it; use a CalendarZone")
        }
        self.init(date, in: zone)
    }

    /// The all-day date on which an instant falls in a zone.
    public static func day(of date: Date, in zone: CalendarZone) -> CalendarDate {
        let wall = CalendarDate(date, in: zone).wall
        return CalendarDate(unchecked: wall.year, month: wall.month, day: wall.day)
    }

    /// The zone of a UTC or zoned value (nil for dates, floating times and TZIDs that only the file defines).
    public var zone: CalendarZone? {
        switch form {
        case .utc: return .utc
        case .zoned(let tzid): return tzid.zone
        case .date, .floating: return nil
        }
    }

    /// The instant this value stands for: UTC as written, a zoned time in its zone (a skipped time moved past the
    /// gap, a repeated one taken the first time, as RFC 5545 §3.3.5 says), and dates (their midnight) and
    /// floating times in `viewer`, the zone of whoever looks. Nil for a TZID that is no known zone (one only its
    /// file defines: expand the calendar, whose occurrences carry their instants).
    public func date(in viewer: CalendarZone = .current) -> Date? {
        switch form {
        case .utc: return Date(timeIntervalSince1970: TimeInterval(wall.wallSeconds))
        case .zoned(let tzid):
            guard let zone = tzid.zone else { return nil }
            return zone.withClock { $0.date(of: wall) }
        case .date, .floating: return viewer.withClock { $0.date(of: wall) }
        }
    }

    /// `date(in:)` with Foundation's zone for dates and floating times. Nil for a date or floating time when the zone
    /// has no IANA name (`TimeZone(secondsFromGMT:)`), rather than a UTC guess.
    public func date(in viewer: TimeZone) -> Date? {
        guard let zone = CalendarZone(viewer) else { return form == .utc || tzid != nil ? date(in: .utc) : nil }
        return date(in: zone)
    }

    /// Whether this value's written wall-clock time comes before `other`'s, whatever their zones: 09:00 in Berlin
    /// is before 10:00 UTC here, though it is the later instant. `<` compares instants.
    public func isWallClockBefore(_ other: CalendarDate) -> Bool { wall < other.wall }
}

extension CalendarDate: Comparable {
    /// Orders by instant: 09:00Z before 09:30 in Berlin (08:30Z); dates, floating times and TZIDs no zone
    /// database knows are placed as if in UTC. Values at the same instant are neither `<` nor `==` when their
    /// forms differ. For the order of written times, `isWallClockBefore(_:)`.
    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        lhs.orderingInstant < rhs.orderingInstant
    }

    /// Seconds since 1970 of the instant `<` compares.
    private var orderingInstant: Double {
        if case .zoned = form, let instant = date(in: .utc) { return instant.timeIntervalSince1970 }
        return Double(wall.wallSeconds)
    }
}
