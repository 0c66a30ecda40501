import CalendarModel
import Foundation
internal import GRDB

/// A todo's subtask as the store keeps it: which todo, and whether it is done.
public struct Subtask: Sendable, Hashable {
    /// Its UID.
    public var uid: String
    /// Its SUMMARY.
    public var summary: String?
    /// The store calendar it is in.
    public var calendar: String
    /// Completed or cancelled (for a repeating subtask: the whole series).
    public var isDone: Bool
    /// How many RELATED-TO steps below the todo asked about (1: a child).
    public var depth: Int
}

extension CalendarStore {
    /// The todos below `uid` (RELATED-TO;RELTYPE=PARENT naming it, or RELTYPE=CHILD on it), children first, then
    /// theirs: each once, so a cycle of relations ends (the todo asked about is never its own subtask).
    public func subtasks(of uid: String) throws -> [Subtask] {
        try database.read { db in
            var found: [Subtask] = []
            var seen: Set<String> = [uid]
            var level = [uid]
            var depth = 1
            while !level.isEmpty {
                var next: [String] = []
                for parent in level {
                    for child in try Self.children(db, of: parent) where seen.insert(child.uid).inserted {
                        found.append(
                            Subtask(
                                uid: child.uid, summary: child.summary, calendar: child.calendar, isDone: child.isDone,
                                depth: depth))
                        next.append(child.uid)
                    }
                }
                (level, depth) = (next, depth + 1)
            }
            return found
        }
    }

    /// The UIDs of items whose RELATED-TO names `uid` with RELTYPE `type` (`SIBLING`: the completed copies a todo
    /// that repeats from completion leaves).
    public func related(to uid: String, type: String) throws -> [String] {
        try database.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT i.uid FROM relation r JOIN item i ON i.id = r.itemID
                    WHERE r.relatedUID = ? AND r.relationType = ? ORDER BY i.uid
                    """, arguments: [uid, type.uppercased()])
        }
    }

    /// The todos one step below `uid`: those naming it their parent, and those it names its children.
    private static func children(_ db: Database, of uid: String) throws -> [Subtask] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT DISTINCT i.uid, i.summary, c.name,
                    (i.status IN ('COMPLETED', 'CANCELLED') OR i.completedUTC IS NOT NULL) AS done
                FROM item i JOIN calendar c ON c.id = i.calendarID
                WHERE i.kind = 'VTODO' AND i.recurrenceID = '' AND (
                    i.id IN (SELECT itemID FROM relation WHERE relatedUID = ?1 AND relationType = 'PARENT')
                    OR i.uid IN (SELECT r.relatedUID FROM relation r JOIN item p ON p.id = r.itemID
                        WHERE p.uid = ?1 AND r.relationType = 'CHILD'))
                ORDER BY i.summary, i.uid
                """, arguments: [uid]
        ).map { row in
            Subtask(uid: row[0], summary: row[1], calendar: row[2], isDone: row[3], depth: 1)
        }
    }
}
