/// An RDATE entry: a date, a date-time, or a period.
///
/// ```
/// rdate    = "RDATE" rdtparam ":" rdtval *("," rdtval) CRLF   ; RFC 5545 §3.8.5.2
/// rdtval   = date-time / date / period
/// ```
public enum RecurrenceDate: Sendable, Hashable, Codable {
    /// An instance starting at this date or date-time.
    case date(CalendarDate)
    /// An instance with its own start and end (VALUE=PERIOD).
    case period(Period)

    /// When this RDATE instance starts.
    public var start: CalendarDate {
        switch self {
        case .date(let date): return date
        case .period(let period): return period.start
        }
    }
}
