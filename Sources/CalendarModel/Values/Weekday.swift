/// A day of the week as RRULE writes it (RFC 5545 §3.3.10).
///
/// ```
/// weekday = "SU" / "MO" / "TU" / "WE" / "TH" / "FR" / "SA"
/// ```
public enum Weekday: String, Sendable, Hashable, CaseIterable, Codable {
    /// `SU`.
    case sunday = "SU"
    /// `MO`.
    case monday = "MO"
    /// `TU`.
    case tuesday = "TU"
    /// `WE`.
    case wednesday = "WE"
    /// `TH`.
    case thursday = "TH"
    /// `FR`.
    case friday = "FR"
    /// `SA`.
    case saturday = "SA"
}
