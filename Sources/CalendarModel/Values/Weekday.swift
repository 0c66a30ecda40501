/// A day of the week as RRULE writes it (RFC 5545 §3.3.10).
///
/// ```
/// weekday = "SU" / "MO" / "TU" / "WE" / "TH" / "FR" / "SA"
/// ```
public enum Weekday: String, Sendable, Hashable, CaseIterable {
    case sunday = "SU", monday = "MO", tuesday = "TU", wednesday = "WE", thursday = "TH", friday = "FR"
    case saturday = "SA"
}
