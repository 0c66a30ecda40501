internal import GRDB

/// What a sync partner refused to store, as the store keeps it: the UID, the fingerprint of its items as they were
/// sent, and the partner's reason. A sync leaves a refused UID alone while its items are unchanged, so a server
/// that cannot take one item is not asked again on every sync.
public struct RefusalRecord: Sendable, Hashable {
    /// The UID the partner refused (its resource holds its items).
    public var uid: String
    /// The fingerprints of the UID's items when they were refused, in one string.
    public var fingerprint: String
    /// What the partner said (its status and reason).
    public var reason: String

    public init(uid: String, fingerprint: String, reason: String) {
        (self.uid, self.fingerprint, self.reason) = (uid, fingerprint, reason)
    }
}

extension CalendarStore {
    /// The UIDs the partner refused, and how they were when it did, by UID.
    public func refusalRecords(calendar: String, partner: String) throws -> [String: RefusalRecord] {
        try database.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT uid, fingerprint, reason FROM syncRefusal
                    WHERE calendarID = (SELECT id FROM calendar WHERE name = ?) AND partner = ?
                    """, arguments: [calendar, partner])
            return Dictionary(
                rows.map { ($0[0], RefusalRecord(uid: $0[0], fingerprint: $0[1], reason: $0[2])) },
                uniquingKeysWith: { first, _ in first })
        }
    }

    /// Records refusals and forgets those of `accepted` UIDs (written since, or gone), in one transaction.
    public func recordRefusals(
        calendar: String, partner: String, refused: [RefusalRecord], accepted: [String]
    ) throws {
        guard !refused.isEmpty || !accepted.isEmpty else { return }
        try write { db in
            guard let id = try StoreWriter(db).calendarID(named: calendar, create: false) else { return }
            for uid in accepted {
                try db.execute(
                    sql: "DELETE FROM syncRefusal WHERE calendarID = ? AND partner = ? AND uid = ?",
                    arguments: [id, partner, uid])
            }
            for refusal in refused {
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO syncRefusal (calendarID, partner, uid, fingerprint, reason)
                        VALUES (?, ?, ?, ?, ?)
                        """, arguments: [id, partner, refusal.uid, refusal.fingerprint, refusal.reason])
            }
        }
    }
}
