import CalendarModel
import Foundation
internal import GRDB

/// An item whose text matched a search: a series' master, an override, or a single item.
public struct SearchHit: Sendable, Hashable {
    public var uid: String
    /// The override's RECURRENCE-ID as stored (empty for a master or a single item).
    public var recurrenceID: String
    public var calendar: String
    /// Event, todo or journal.
    public var kind: ItemKind
    public var summary: String?
    /// The start (or due) in UTC seconds, when the item has one.
    public var when: Int64?
    /// The start's value as written (`20261127`, `20261127T090000`), which says whether it is a date.
    public var startValue: String?
    /// The start's TZID, when it has one.
    public var startTZID: String?
    public var isRecurring: Bool
}

/// What a search looks in and for (`CalendarStore.search`).
public struct SearchQuery: Sendable {
    /// The words every hit holds, each as a word or the start of one, case and accents ignored.
    public var words: [String]
    /// Only these store calendars (empty: all).
    public var calendars: [String] = []
    /// Only these kinds of item (empty: all).
    public var kinds: Set<ItemKind> = []

    public init(_ text: String) {
        words = text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }

    /// The FTS5 query: each word a quoted prefix term (so `"`, `*`, `-`, `NEAR` and `:` are text, not syntax),
    /// all of them required.
    var match: String {
        words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"*" }.joined(separator: " ")
    }
}

extension CalendarStore {
    /// The items whose summary, location, description, people (organizer and attendees, names and addresses) or
    /// categories hold every word of `query`, earliest first (items without a time last).
    ///
    /// The text index (SQLite FTS5, `unicode61` with diacritics removed) is brought up to date first: items added
    /// or changed since the last search are indexed then, not while they are written, so an import of 20,000
    /// items pays nothing for searches it may never see; the store's triggers drop what deletions and edits made
    /// stale.
    public func search(_ query: SearchQuery) throws -> [SearchHit] {
        guard !query.words.isEmpty else { return [] }
        // The index is brought up to date first. A store that takes no writes (read-only media, a full disk) has its
        // index searched as the last search left it, and the items it lacks are read and matched one by one.
        if !isReadOnly { _ = try? database.write { db in try SearchIndex.update(db) } }
        return try database.read { db in
            let indexed = try hits(db, query, condition: "itemSearch MATCH ?", argument: query.match)
            let unindexed = try hits(db, query, condition: SearchIndex.unindexed, argument: nil).filter { hit in
                query.matches(SearchIndex.text(of: hit.content))
            }
            return (indexed + unindexed).sorted(by: SearchHit.order).map(\.hit)
        }
    }

    /// The items that pass `condition` and the query's calendars and kinds, with their content.
    private func hits(
        _ db: Database, _ query: SearchQuery, condition: String, argument: (any DatabaseValueConvertible)?
    ) throws -> [(hit: SearchHit, content: String)] {
        var conditions = [condition]
        var arguments: [any DatabaseValueConvertible] = argument.map { [$0] } ?? []
        if !query.calendars.isEmpty {
            conditions.append(
                "c.name IN (\(Array(repeating: "?", count: query.calendars.count).joined(separator: ", ")))")
            arguments += query.calendars as [any DatabaseValueConvertible]
        }
        if !query.kinds.isEmpty {
            let kinds = query.kinds.sorted().map(\.rawValue)
            conditions.append("i.kind IN (\(Array(repeating: "?", count: kinds.count).joined(separator: ", ")))")
            arguments += kinds as [any DatabaseValueConvertible]
        }
        // The index's rows join only for a MATCH; the unindexed items are read without it.
        let index = argument == nil ? "item i JOIN " : "itemSearch s JOIN item i ON i.id = s.rowid JOIN "
        return try Row.fetchAll(
            db,
            sql: """
                SELECT i.uid, i.recurrenceID, c.name, i.kind, i.summary, coalesce(i.startUTC, i.dueUTC) AS at,
                       i.startValue, i.startTZID, i.isRecurring, \(argument == nil ? "i.content" : "''")
                FROM \(index)calendar c ON c.id = i.calendarID
                WHERE \(conditions.joined(separator: " AND "))
                """, arguments: StatementArguments(arguments)
        ).compactMap { row in
            // The column holds an `ItemKind`'s raw value: no other row is written.
            ItemKind(rawValue: row[3]).map { kind in
                (
                    SearchHit(
                        uid: row[0], recurrenceID: row[1], calendar: row[2], kind: kind, summary: row[4],
                        when: row[5], startValue: row[6], startTZID: row[7], isRecurring: row[8]), row[9]
                )
            }
        }
    }
}

extension SearchHit {
    /// Earliest first, items without a time last; then by calendar, UID and instance.
    static func order(_ a: (hit: SearchHit, content: String), _ b: (hit: SearchHit, content: String)) -> Bool {
        let (x, y) = (a.hit, b.hit)
        if (x.when == nil) != (y.when == nil) { return y.when == nil }
        if let p = x.when, let q = y.when, p != q { return p < q }
        return (x.calendar, x.uid, x.recurrenceID) < (y.calendar, y.uid, y.recurrenceID)
    }
}

extension SearchQuery {
    /// Whether an item's text holds every word as the index would find it: as a word or the start of one (the last
    /// token of a word with punctuation in it; the ones before it whole and in a row), case and accents ignored.
    func matches(_ text: SearchIndex.Text) -> Bool {
        let tokens = Self.tokens(
            [text.summary, text.location, text.description, text.people, text.categories].joined(separator: "\n"))
        return words.allSatisfy { word in
            let wanted = Self.tokens(word)
            guard let last = wanted.last else { return true }
            let whole = wanted.dropLast()
            return tokens.indices.contains { start in
                let end = start + whole.count
                guard end < tokens.count else { return false }
                return Array(tokens[start..<end]) == Array(whole) && tokens[end].hasPrefix(last)
            }
        }
    }

    /// Words as FTS5's unicode61 tokenizer with `remove_diacritics 2` cuts them: letters and digits, folded.
    static func tokens(_ text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }
}

/// The store's full-text index of item text (schema v13): `itemSearch` holds a row per indexed item, keyed by the
/// item's id. Items with ids up to `itemSearchState.indexedThrough` are indexed but for those in `itemSearchStale`
/// (changed since); the triggers keep that true when items change or go, and `update` indexes the rest.
enum SearchIndex {
    /// Indexes the items added or changed since the last update.
    static func update(_ db: Database) throws {
        guard let through = try Int64.fetchOne(db, sql: "SELECT indexedThrough FROM itemSearchState") else { return }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT id, content FROM item WHERE id > ?
                UNION ALL SELECT i.id, i.content FROM itemSearchStale s JOIN item i ON i.id = s.itemID
                """, arguments: [through])
        let insert = try db.makeStatement(
            sql: """
                INSERT OR REPLACE INTO itemSearch (rowid, summary, location, description, people, categories)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
        while let row = try rows.next() {
            let id: Int64 = row[0]
            let content: String = row[1]
            let text = Self.text(of: content)
            try insert.execute(arguments: [
                id, text.summary, text.location, text.description, text.people, text.categories,
            ])
        }
        try db.execute(sql: "DELETE FROM itemSearchStale")
        try db.execute(sql: "UPDATE itemSearchState SET indexedThrough = (SELECT coalesce(max(id), 0) FROM item)")
    }

    /// The items the index does not hold as they are: added after it was last brought up to date, or changed since.
    static let unindexed = """
        (i.id > (SELECT indexedThrough FROM itemSearchState) OR i.id IN (SELECT itemID FROM itemSearchStale))
        """

    /// What a search looks in.
    typealias Text = (summary: String, location: String, description: String, people: String, categories: String)

    /// The text of one stored component that a search looks in.
    static func text(of content: String) -> Text {
        let component = ICS.read(Array(content.utf8)).calendars.first?.components.first
        guard let core = component?.core else { return ("", "", "", "", "") }
        var people: [String] = []
        for user in (core.organizer.map { [$0] } ?? []) + core.attendees {
            if let name = user.commonName { people.append(name) }
            people.append(user.email ?? user.address)
        }
        return (
            core.summary ?? "", core.location ?? "", core.description ?? "", people.joined(separator: "\n"),
            core.categories.map(\.name).joined(separator: "\n")
        )
    }
}
