/// A PERIOD value (RFC 5545 §3.3.9): a start and either an end or a duration.
///
/// ```
/// period          = period-explicit / period-start
/// period-explicit = date-time "/" date-time
/// period-start    = date-time "/" dur-value
/// ```
public struct Period: Sendable, Hashable, Codable {
    /// How a period ends: at a time, or after a duration.
    public enum End: Sendable, Hashable, Codable {
        /// At this date-time (`start/end`).
        case date(CalendarDate)
        /// After this long (`start/duration`).
        case duration(CalendarDuration)
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

    /// Reads an RFC 5545 period; times without Z are in `zone` when given.
    public static func parse(_ text: String, zone: TimeZoneID? = nil) -> Result<Period, ValueError> {
        parse(text, tzid: zone?.name)
    }

    /// Reads a period as a file writes it, with its TZID parameter as written.
    package static func parse(_ text: String, tzid: String?) -> Result<Period, ValueError> {
        let halves = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2, case .success(let start) = CalendarDate.parse(String(halves[0]), tzid: tzid) else {
            return .failure(ValueError("\"\(text)\" is not a PERIOD"))
        }
        let second = String(halves[1])
        if case .success(let end) = CalendarDate.parse(second, tzid: tzid) {
            return .success(Period(start: start, end: .date(end)))
        }
        if case .success(let duration) = CalendarDuration.parse(second) {
            return .success(Period(start: start, end: .duration(duration)))
        }
        return .failure(ValueError("\"\(text)\" is not a PERIOD"))
    }
}
