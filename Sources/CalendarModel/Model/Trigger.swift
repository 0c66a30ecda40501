/// When an alarm goes off: relative to the start (or end) of its component, or at a fixed UTC time.
///
/// ```
/// trigger = "TRIGGER" (trigrel ":" dur-value / trigabs ":" date-time) CRLF   ; RFC 5545 §3.8.6.3
/// ```
public enum Trigger: Sendable, Hashable, Codable {
    /// This long before (negative) or after the start, or the end when `relatedToEnd` (RELATED=END).
    case relative(CalendarDuration, relatedToEnd: Bool)
    /// At this UTC time (VALUE=DATE-TIME).
    case absolute(CalendarDate)
}
