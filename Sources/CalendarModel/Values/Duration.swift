/// A DURATION value (RFC 5545 §3.3.6): `-P1W`, `P1DT2H`, `PT15M`.
public struct Duration: Sendable, Hashable, CustomStringConvertible {
    /// A duration before (a TRIGGER of `-PT15M`).
    public var isNegative: Bool
    /// Whole weeks (a week form has nothing else).
    public var weeks: Int
    /// Days.
    public var days: Int
    /// Hours.
    public var hours: Int
    /// Minutes.
    public var minutes: Int
    /// Seconds.
    public var seconds: Int

    /// A duration from its parts.
    public init(
        isNegative: Bool = false, weeks: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0,
        seconds: Int = 0
    ) {
        self.isNegative = isNegative
        (self.weeks, self.days, self.hours, self.minutes, self.seconds) = (weeks, days, hours, minutes, seconds)
    }

    /// Nominal length in seconds (a day counted as 86,400 s; the time layer handles DST-aware days).
    public var totalSeconds: Int {
        let magnitude = ((weeks * 7 + days) * 24 + hours) * 3600 + minutes * 60 + seconds
        return isNegative ? -magnitude : magnitude
    }

    /// As iCalendar writes it: `P1W`, `-PT15M`, `P1DT2H`.
    public var icsValue: String {
        var text = isNegative ? "-P" : "P"
        if weeks != 0 { text += "\(weeks)W" }
        if days != 0 { text += "\(days)D" }
        if hours != 0 || minutes != 0 || seconds != 0 {
            text += "T"
            if hours != 0 { text += "\(hours)H" }
            if minutes != 0 { text += "\(minutes)M" }
            if seconds != 0 { text += "\(seconds)S" }
        }
        return text.count == (isNegative ? 2 : 1) ? text + "T0S" : text
    }

    /// The iCalendar value.
    public var description: String { icsValue }

    /// Reads an RFC 5545 duration.
    public static func parse(_ text: String) -> Result<Duration, ValueError> {
        let shaped = ValueSyntax.withBytes(text) { bytes in
            let body = bytes.drop { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }
            return body.first == UInt8(ascii: "P") && body.count > 1 && bytes.count - body.count <= 1
        }
        guard shaped, let parts = LibicalValues.duration(text) else {
            return .failure(ValueError("\"\(text)\" is not a DURATION"))
        }
        return .success(
            Duration(
                isNegative: parts.isNegative, weeks: parts.weeks, days: parts.days,
                hours: parts.hours, minutes: parts.minutes, seconds: parts.seconds))
    }
}

/// A PERIOD value (RFC 5545 §3.3.9): a start and either an end or a duration.
public struct Period: Sendable, Hashable {
    /// How a period ends: at a time, or after a duration.
    public enum End: Sendable, Hashable {
        case date(CalendarDate)
        case duration(Duration)
    }

    /// When the period starts.
    public var start: CalendarDate
    /// How it ends.
    public var end: End

    /// A period from its start and end.
    public init(start: CalendarDate, end: End) {
        self.start = start
        self.end = end
    }

    /// As iCalendar writes it: `start/end` or `start/duration`.
    public var icsValue: String {
        switch end {
        case .date(let date): return start.icsValue + "/" + date.icsValue
        case .duration(let duration): return start.icsValue + "/" + duration.icsValue
        }
    }

    /// Reads an RFC 5545 period; times without Z are in `tzid` when given.
    public static func parse(_ text: String, tzid: String?) -> Result<Period, ValueError> {
        let halves = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2, case .success(let start) = CalendarDate.parse(String(halves[0]), tzid: tzid) else {
            return .failure(ValueError("\"\(text)\" is not a PERIOD"))
        }
        let second = String(halves[1])
        if case .success(let end) = CalendarDate.parse(second, tzid: tzid) {
            return .success(Period(start: start, end: .date(end)))
        }
        if case .success(let duration) = Duration.parse(second) {
            return .success(Period(start: start, end: .duration(duration)))
        }
        return .failure(ValueError("\"\(text)\" is not a PERIOD"))
    }
}

/// A GEO value: latitude and longitude in degrees.
public struct Geo: Sendable, Hashable {
    /// Degrees north (negative: south).
    public var latitude: Double
    /// Degrees east (negative: west).
    public var longitude: Double

    /// A position.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// As iCalendar writes it: `latitude;longitude`.
    public var icsValue: String { "\(latitude);\(longitude)" }

    /// Reads `latitude;longitude`, each a float in range.
    public static func parse(_ text: String) -> Result<Geo, ValueError> {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ Double($0) != nil }), let geo = LibicalValues.geo(text),
            (-90...90).contains(geo.latitude), (-180...180).contains(geo.longitude)
        else {
            return .failure(ValueError("\"\(text)\" is not a GEO value (latitude;longitude)"))
        }
        return .success(Geo(latitude: geo.latitude, longitude: geo.longitude))
    }
}
