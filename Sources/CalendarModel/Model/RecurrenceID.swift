/// RECURRENCE-ID: which instance of a series an override replaces, and whether it also replaces the later ones.
///
/// ```
/// recurid = "RECURRENCE-ID" ridparam ":" ridval CRLF  ; RFC 5545 §3.8.4.4, ridval = date-time / date
/// ```
public struct RecurrenceID: Sendable, Hashable, Codable {
    /// The original start of the instance this override replaces.
    public var date: CalendarDate
    /// RANGE=THISANDFUTURE.
    public var thisAndFuture: Bool

    /// A recurrence ID, for one instance or (RANGE=THISANDFUTURE) it and those after it.
    public init(_ date: CalendarDate, thisAndFuture: Bool = false) {
        self.date = date
        self.thisAndFuture = thisAndFuture
    }
}
