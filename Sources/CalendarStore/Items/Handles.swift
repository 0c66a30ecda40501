import CalendarModel
import Foundation
internal import GRDB

/// An item a handle names: what `done`, `rm`, `log` and `edit` show when they list candidates.
public struct HandleMatch: Sendable, Hashable {
    public var uid: String
    public var calendar: String
    /// Event, todo or journal.
    public var kind: ItemKind
    public var summary: String?
    /// The master's start (or due) in UTC seconds, when it has one.
    public var when: Int64?

    /// An item of a calendar, by UID.
    public init(uid: String, calendar: String, kind: ItemKind, summary: String? = nil, when: Int64? = nil) {
        (self.uid, self.calendar, self.kind, self.summary, self.when) = (uid, calendar, kind, summary, when)
    }
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
    /// A UID of changed instances only (no series) is an item like any other, named by its first instance.
    public func resolve(handle: String, calendar: String? = nil, kind: ItemKind? = nil) throws -> HandleResolution {
        let folded = handle.lowercased()
        // Each rule is a query of its own, so a handle that is a whole UID costs an index lookup and the others one
        // pass of SQLite over the items, not a read of every item into Swift (a store of 100,000 items answered
        // `show` in 0.5 s that way). Letters are folded as Swift folds them (`icskit_fold`), not only ASCII ones.
        let rules: [(condition: String, argument: String)] = [
            ("i.uid = ?3", handle),
            ("substr(icskit_fold(i.uid), 1, length(?3)) = ?3", folded),
            ("icskit_fold(i.summary) = ?3", folded),
            ("instr(icskit_fold(i.summary), ?3) > 0", folded),
        ]
        let fold = DatabaseFunction("icskit_fold", argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0])?.lowercased()
        }
        return try database.read { db in
            db.add(function: fold)
            defer { db.remove(function: fold) }
            for rule in rules {
                // Each UID once per calendar: its master's row, else its first changed instance's.
                let matches = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT uid, name, kind, summary, at FROM (
                            SELECT i.uid, c.name, i.kind, i.summary, coalesce(i.startUTC, i.dueUTC) AS at,
                                   row_number() OVER (PARTITION BY i.calendarID, i.uid
                                                      ORDER BY i.recurrenceID != '', i.recurrenceID) AS rank
                            FROM item i JOIN calendar c ON c.id = i.calendarID
                            WHERE (?1 IS NULL OR c.name = ?1) AND (?2 IS NULL OR i.kind = ?2)
                                AND i.uid IN (SELECT i.uid FROM item i WHERE \(rule.condition))
                        ) WHERE rank = 1
                        ORDER BY name, at, uid
                        """, arguments: [calendar, kind?.rawValue, rule.argument]
                ).compactMap { row in
                    ItemKind(rawValue: row[2]).map {
                        HandleMatch(uid: row[0], calendar: row[1], kind: $0, summary: row[3], when: row[4])
                    }
                }
                guard !matches.isEmpty else { continue }
                // One UID in several calendars is one item to act on (as `done` and `rm` have always treated it).
                if Set(matches.map(\.uid)).count == 1 { return .found(matches[0]) }
                return .ambiguous(matches)
            }
            return .none
        }
    }

    /// A short handle for every UID in the store (or only for `uids`, when given): its shortest prefix of at least
    /// `minimum` characters that no other UID starts with (the whole UID when no prefix is unique), as git
    /// abbreviates commits.
    public func shortHandles(for uids: Set<String>? = nil, minimum: Int = 6) throws -> [String: String] {
        try database.read { db in
            if let uids { return try Self.shortHandles(db, for: uids, minimum: minimum) }
            var handles: [String: String] = [:]
            let all = try String.fetchAll(db, sql: "SELECT DISTINCT uid FROM item ORDER BY uid")
            for (index, uid) in all.enumerated() {
                handles[uid] = Self.handle(
                    uid, neighbours: [index - 1, index + 1].filter(all.indices.contains).map { all[$0] },
                    minimum: minimum)
            }
            return handles
        }
    }

    /// `shortHandles(for:)` of some UIDs of many (an agenda's week of a large store): each one's neighbours
    /// through the index, in one statement.
    static func shortHandles(_ db: Database, for uids: Set<String>, minimum: Int = 6) throws -> [String: String] {
        guard !uids.isEmpty else { return [:] }
        var json = JSONWriter()
        json.beginArray()
        for uid in uids { json.string(uid) }
        json.endArray()
        let list = String(decoding: json.takeBytes(), as: UTF8.self)
        var handles: [String: String] = [:]
        handles.reserveCapacity(uids.count)
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT j.value, (SELECT max(uid) FROM item WHERE uid < j.value),
                       (SELECT min(uid) FROM item WHERE uid > j.value)
                FROM json_each(?) j
                """, arguments: [list])
        while let row = try rows.next() {
            let uid: String = row[0]
            handles[uid] = handle(
                uid, neighbours: [row[1] as String?, row[2] as String?].compactMap { $0 }, minimum: minimum)
        }
        return handles
    }

    /// In sorted order a UID shares its longest prefix with a neighbour: one character more is unique.
    static func handle(_ uid: String, neighbours: [String], minimum: Int) -> String {
        // Bytes when both are ASCII (UIDs nearly always are), characters otherwise; a CR (which joins a following
        // LF into one character) sends a UID the character way.
        let isASCII = uid.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
        func common(_ other: String) -> Int {
            if isASCII, other.utf8.allSatisfy({ $0 < 0x80 }) { return Self.sharedPrefix(uid.utf8, other.utf8) }
            return Self.sharedPrefix(uid, other)
        }
        let shared = neighbours.map(common).max() ?? 0
        let length = max(minimum, shared + 1)
        if isASCII {
            return length >= uid.utf8.count ? uid : String(decoding: uid.utf8.prefix(length), as: UTF8.self)
        }
        return length >= uid.count ? uid : String(uid.prefix(length))
    }

    /// How many elements two sequences share from their start (counted, not collected).
    private static func sharedPrefix<Elements: Sequence>(_ one: Elements, _ other: Elements) -> Int
    where Elements.Element: Equatable {
        var count = 0
        var left = one.makeIterator(), right = other.makeIterator()
        while let next = left.next(), next == right.next() { count += 1 }
        return count
    }
}
