import Foundation
internal import GRDB

/// An item a handle names: what `done`, `rm`, `log` and `edit` show when they list candidates.
public struct HandleMatch: Sendable, Hashable {
    public var uid: String
    public var calendar: String
    /// The component's name (VEVENT, VTODO, VJOURNAL).
    public var kind: String
    public var summary: String?
    /// The master's start (or due) in UTC seconds, when it has one.
    public var when: Int64?
}

/// What a handle names in the store.
public enum HandleResolution: Sendable, Equatable {
    /// One item (a UID: a series with its overrides).
    case found(HandleMatch)
    /// Several: the handle must say more.
    case ambiguous([HandleMatch])
    case none
}

extension CalendarStore {
    /// The item a handle names, as todoman and git read theirs: a whole UID; else a UID prefix that one UID has;
    /// else a summary equal to the handle (case ignored); else one that contains it. The first of these that
    /// names anything decides: one UID is found, several are ambiguous. `calendar` and `kind` narrow the search.
    public func resolve(handle: String, calendar: String? = nil, kind: String? = nil) throws -> HandleResolution {
        let candidates = try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT i.uid, c.name, i.kind, i.summary, coalesce(i.startUTC, i.dueUTC) AS at
                    FROM item i JOIN calendar c ON c.id = i.calendarID
                    WHERE i.recurrenceID = '' AND (?1 IS NULL OR c.name = ?1) AND (?2 IS NULL OR i.kind = ?2)
                    ORDER BY c.name, at, i.uid
                    """, arguments: [calendar, kind]
            ).map { row in
                HandleMatch(uid: row[0], calendar: row[1], kind: row[2], summary: row[3], when: row[4])
            }
        }
        let folded = handle.lowercased()
        let rules: [(HandleMatch) -> Bool] = [
            { $0.uid == handle },
            { $0.uid.lowercased().hasPrefix(folded) },
            { $0.summary?.lowercased() == folded },
            { $0.summary?.lowercased().contains(folded) ?? false },
        ]
        for rule in rules {
            let matches = candidates.filter(rule)
            guard !matches.isEmpty else { continue }
            // One UID in several calendars is one item to act on (as `done` and `rm` have always treated it).
            if Set(matches.map(\.uid)).count == 1 { return .found(matches[0]) }
            return .ambiguous(matches)
        }
        return .none
    }

    /// A short handle for every UID in the store: its shortest prefix of at least `minimum` characters that no
    /// other UID starts with (the whole UID when no prefix is unique), as git abbreviates commits.
    public func shortHandles(minimum: Int = 6) throws -> [String: String] {
        let uids = try database.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT uid FROM item ORDER BY uid")
        }
        // In sorted order a UID shares its longest prefix with a neighbour: one character more is unique.
        var handles: [String: String] = [:]
        for (index, uid) in uids.enumerated() {
            var shared = 0
            for neighbour in [index - 1, index + 1] where uids.indices.contains(neighbour) {
                shared = max(shared, zip(uid, uids[neighbour]).prefix { $0 == $1 }.count)
            }
            let length = max(minimum, shared + 1)
            handles[uid] = length >= uid.count ? uid : String(uid.prefix(length))
        }
        return handles
    }
}
