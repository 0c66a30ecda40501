import CalendarModel
import Foundation
internal import GRDB

// Scheduling messages that may not change what they name (`SchedulingTrust`): kept aside, never applied, listed on
// request; an answer of someone not invited is applied once the organizer invites them.

/// A scheduling message kept aside because its sender may not change the item it names.
public struct HeldSchedulingMessage: Sendable, Hashable {
    /// The message's METHOD.
    public var method: String
    /// The item's UID.
    public var uid: String
    /// The instance's RECURRENCE-ID as written, empty for the series.
    public var recurrenceID: String
    /// The message's SUMMARY, else nil.
    public var summary: String?
    /// The store calendar it was meant for.
    public var calendar: String
    /// Why it was not applied.
    public var reason: String
    /// When it was received.
    public var received: Date
}

extension CalendarStore {
    /// The messages kept aside, oldest first.
    public func heldSchedulingMessages() throws -> [HeldSchedulingMessage] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT method, uid, recurrenceID, summary, calendar, reason, received
                    FROM heldSchedulingMessage ORDER BY id
                    """
            ).map { row in
                HeldSchedulingMessage(
                    method: row[0], uid: row[1], recurrenceID: row[2], summary: row[3], calendar: row[4],
                    reason: row[5],
                    received: Date(timeIntervalSince1970: TimeInterval(row[6] as Int64)))
            }
        }
    }

    /// The most messages kept aside for one UID, and in all: past either, the oldest are let go (SECURITY.md).
    static let heldLimits = (perItem: 1_000, total: 10_000)

    /// Keeps a refused message aside (the same message once); an answer of someone not invited waits for the
    /// organizer to invite them. Returns how many older messages were let go to stay within `heldLimits`.
    @discardableResult
    static func hold(
        _ db: Database, component: Component, outcome: SchedulingOutcome, refusal: SchedulingTrust.Refusal,
        now: Date = Date()
    ) throws -> Int {
        let content = String(decoding: ICS.write(components: [component]), as: UTF8.self)
        var hash = FNV1a()
        hash.add(content)
        try db.execute(
            sql: """
                INSERT INTO heldSchedulingMessage
                    (calendar, uid, method, recurrenceID, summary, reason, awaitsInvitation, received, content, digest)
                SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10 WHERE NOT EXISTS (SELECT 1 FROM heldSchedulingMessage
                    WHERE uid = ?2 AND method = ?3 AND digest = ?10 AND content = ?9)
                """,
            arguments: [
                outcome.calendar, outcome.uid, outcome.method, outcome.recurrenceID, outcome.summary, refusal.reason,
                refusal.rule == .notInvited, Int64(now.timeIntervalSince1970), content, hash.hex,
            ])
        guard db.changesCount > 0 else { return 0 }
        try db.execute(
            sql: """
                DELETE FROM heldSchedulingMessage WHERE uid = ?1 AND id NOT IN (
                    SELECT id FROM heldSchedulingMessage WHERE uid = ?1 ORDER BY id DESC LIMIT ?2)
                """, arguments: [outcome.uid, heldLimits.perItem])
        var dropped = db.changesCount
        try db.execute(
            sql: """
                DELETE FROM heldSchedulingMessage WHERE id <= (
                    SELECT id FROM heldSchedulingMessage ORDER BY id DESC LIMIT 1 OFFSET ?)
                """, arguments: [heldLimits.total])
        dropped += db.changesCount
        return dropped
    }

    /// The REPLYs kept aside for `uid` whose attendees the item now lists: applied, and no longer kept aside.
    static func releaseHeldReplies(_ db: Database, calendarID: Int64, uid: String) throws {
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT id, content FROM heldSchedulingMessage WHERE uid = ? AND awaitsInvitation ORDER BY id",
            arguments: [uid])
        guard !rows.isEmpty else { return }
        let name = try String.fetchOne(db, sql: "SELECT name FROM calendar WHERE id = ?", arguments: [calendarID]) ?? ""
        // Answers change no attendee list: the item's, read once, decides for every kept answer.
        let stored = try storedCalendar(db, calendar: calendarID, uids: [uid]).components.compactMap {
            $0.isItem ? $0.core : nil
        }
        for row in rows {
            guard let item = SchedulingState.item(kept: row[1]) else { continue }
            // The mail's sender was checked when it came (an unverified one does not wait): what is left is whether
            // the item lists the attendee now.
            guard
                SchedulingTrust.refusal(
                    method: "REPLY", message: item.core ?? ItemCore(), stored: stored,
                    instance: item.identity.recurrenceID, origin: .file) == nil
            else { continue }
            var outcome = SchedulingOutcome(
                kind: .ignored, method: "REPLY", uid: uid, recurrenceID: item.identity.recurrenceID,
                summary: item.core?.summary, calendar: name, detail: "")
            try receive(
                db, component: item.keyed.component, item: item, method: "REPLY", calendarID: calendarID,
                outcome: &outcome)
            try db.execute(sql: "DELETE FROM heldSchedulingMessage WHERE id = ?", arguments: [row[0] as Int64])
        }
    }
}
