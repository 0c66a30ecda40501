import Foundation

/// Where one version of an item stands among the versions of the same item (one UID and RECURRENCE-ID): the one
/// answer to "which version is newer" that reading, import, export, invitations, repair and merge share.
///
/// The higher SEQUENCE is newer — it counts the organizer's significant changes, so a stale copy never wins over a
/// reschedule — and at the same SEQUENCE the later DTSTAMP (RFC 5546 §2.1.5); recurring-ical-events and python
/// icalendar's readers take the highest SEQUENCE too. A version without DTSTAMP is the oldest of its SEQUENCE. Merge
/// asks a second question first, when both sides changed a field: whose change came later (`ItemVersion.isNewer`).
public struct Revision: Comparable, Hashable, Sendable, Codable {
    /// SEQUENCE (0 when absent).
    public var sequence: Int
    /// DTSTAMP in seconds since 1970.
    public var stamp: Int64?

    /// A revision from its parts.
    public init(sequence: Int = 0, stamp: Int64? = nil) {
        self.sequence = sequence
        self.stamp = stamp
    }

    /// What is compared, in order.
    private var key: (Int, Int64) { (sequence, stamp ?? .min) }

    /// Whether `lhs` is the older version.
    public static func < (lhs: Revision, rhs: Revision) -> Bool { lhs.key < rhs.key }
    /// Whether nothing tells the two apart (no DTSTAMP counts as the earliest).
    public static func == (lhs: Revision, rhs: Revision) -> Bool { lhs.key == rhs.key }
    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key.0)
        hasher.combine(key.1)
    }
}

extension ItemCore {
    /// This version's place among versions of the same item, DTSTAMP read by its wall clock (UTC as RFC 5545
    /// writes it): see `Revision`.
    public var revision: Revision {
        Revision(sequence: sequence ?? 0, stamp: stamp.map { LocalDateTime($0).wallSeconds })
    }
}
