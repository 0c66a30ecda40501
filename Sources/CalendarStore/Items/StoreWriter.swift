import CalendarMerge
import CalendarModel
import Foundation
internal import GRDB

/// The one way the store is written: every command's change goes through these steps, inside the one transaction
/// the caller holds (statements are cached: imports run them tens of thousands of times).
struct StoreWriter {
    let db: Database
    /// The statements a bulk import runs once per item, prepared on first use and kept for this writer (GRDB's
    /// cache would hash their SQL text on every lookup).
    private let kept = KeptStatements()

    init(_ db: Database) { self.db = db }

    /// Holds prepared statements for one writer (one transaction on one connection).
    private final class KeptStatements {
        var insertItem: Statement?
        /// By the number of rows they insert (`insertNew`).
        var insertItems: [Int: Statement] = [:]
        /// By the number of rows they insert.
        var insertCategories: [Int: Statement] = [:]
        var baseSources: [Int64: [String]] = [:]
    }

    private func insertItemStatement() throws -> Statement {
        if let statement = kept.insertItem { return statement }
        let statement = try db.cachedStatement(
            sql: "INSERT INTO item (\(Self.itemColumns)) VALUES (\(Self.placeholders))")
        kept.insertItem = statement
        return statement
    }

    /// An INSERT of `count` items with their ids (`insertNew`).
    private func insertItemsStatement(count: Int) throws -> Statement {
        try keptInsert(
            \.insertItems, "INSERT INTO item (id, \(Self.itemColumns))", row: "(?, \(Self.placeholders))", count: count)
    }

    /// An INSERT OR IGNORE of `count` category rows.
    private func insertCategoriesStatement(count: Int) throws -> Statement {
        try keptInsert(
            \.insertCategories, "INSERT OR IGNORE INTO itemCategory (itemID, name)", row: "(?, ?)", count: count)
    }

    /// `insert` with `count` rows of values, made once per count and kept in `table`.
    private func keptInsert(
        _ table: ReferenceWritableKeyPath<KeptStatements, [Int: Statement]>, _ insert: String, row: String, count: Int
    ) throws -> Statement {
        if let statement = kept[keyPath: table][count] { return statement }
        let values = Array(repeating: row, count: count).joined(separator: ", ")
        let statement = try db.makeStatement(sql: "\(insert) VALUES \(values)")
        kept[keyPath: table][count] = statement
        return statement
    }

    /// The item table's columns a row fills, in the order of `ItemRow.bind` after the calendar id.
    private static let columns = [
        "calendarID", "uid", "recurrenceID", "kind", "summary", "startUTC", "endUTC", "startValue", "startTZID",
        "dueUTC", "status", "completedUTC", "priority", "sequence", "lastModifiedUTC", "stampUTC", "isRecurring",
        "rangeEndUTC", "content", "fingerprint",
    ]
    private static let itemColumns = columns.joined(separator: ", ")
    private static let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
    /// What an upsert replaces: every column but the key.
    private static let updates = columns.dropFirst(3).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")

    /// The id of the named calendar, creating it when asked.
    func calendarID(named name: String, create: Bool) throws -> Int64? {
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM calendar WHERE name = ?", arguments: [name]) {
            return id
        }
        guard create else { return nil }
        try db.execute(sql: "INSERT INTO calendar (name) VALUES (?)", arguments: [name])
        return db.lastInsertedRowID
    }

    /// Rows `insertNew` writes with one statement at most. SQLite inserts 16 rows with one statement in about half
    /// the time of 16 one-row statements (gen_ics.py 20000's items into a new store, from C: 0.18 s instead of 0.40),
    /// 32 in a little less again; past that the statement's text and its parameters grow for little.
    static let rowsPerInsert = 16
    /// Category rows `insertNew` writes with one statement at most: a chunk of items' categories (gen_ics.py 20000
    /// gives two an item), in statements of two values a row.
    static let categoriesPerInsert = 32

    /// Inserts items new to the calendar (no item and no tombstone of their keys), `rowsPerInsert` to a statement,
    /// with the ids `firstID`, `firstID + 1` … (the caller's: above every id in the store), then their categories
    /// (`categoriesPerInsert` to a statement) and relations.
    func insertNew(_ rows: ArraySlice<ItemRow>, calendarID: Int64, firstID: Int64) throws {
        // Rows are reached by index, not bound to names: a name copies the row (a retain of each of its strings).
        var start = rows.startIndex
        while start < rows.endIndex {
            let chunk = start..<min(start + Self.rowsPerInsert, rows.endIndex)
            let first = firstID + Int64(start - rows.startIndex)
            try DirectBinding.run(try insertItemsStatement(count: chunk.count)) { binding in
                for index in chunk {
                    binding.add(first + Int64(index - start))
                    binding.add(calendarID)
                    rows[index].bind(&binding)
                }
            }
            var categories: [(itemID: Int64, name: String)] = []
            for index in chunk {
                for name in rows[index].categories { categories.append((first + Int64(index - start), name)) }
            }
            var from = 0
            while from < categories.count {
                let part = categories[from..<min(from + Self.categoriesPerInsert, categories.count)]
                try DirectBinding.run(try insertCategoriesStatement(count: part.count)) { binding in
                    for category in part {
                        binding.add(category.itemID)
                        binding.add(category.name)
                    }
                }
                from = part.endIndex
            }
            for index in chunk where !rows[index].relations.isEmpty {
                try saveRelations(of: rows[index], itemID: first + Int64(index - start))
            }
            start = chunk.upperBound
        }
    }

    /// Inserts or replaces an item (and its categories and relations), and lifts a tombstone it had. `isNew` (the
    /// calendar has no item and no tombstone of this key) inserts without looking for a row to replace, and skips
    /// clearing what an earlier version left.
    func save(_ row: ItemRow, calendarID: Int64, isNew: Bool = false) throws {
        let itemID: Int64
        /// The calendar id and the row, for all of the item statements' placeholders (`itemColumns`).
        func rowValues(_ binding: inout DirectBinding) {
            binding.add(calendarID)
            row.bind(&binding)
        }
        if isNew {
            // No conflict to resolve and no id to read back but the rowid SQLite just gave: the cheapest statement
            // (a bulk import runs it once per item).
            try DirectBinding.run(try insertItemStatement(), rowValues)
            itemID = db.lastInsertedRowID
        } else {
            try keepBaseContent(of: row.key, calendarID: calendarID)
            let upsert = try db.cachedStatement(
                sql: """
                    INSERT INTO item (\(Self.itemColumns)) VALUES (\(Self.placeholders))
                    ON CONFLICT(calendarID, uid, recurrenceID) DO UPDATE SET \(Self.updates)
                    RETURNING id
                    """)
            try DirectBinding.bind(upsert, rowValues)
            guard let id = try Int64.fetchOne(upsert) else {
                throw StoreError("the store did not take item \(row.uid)")
            }
            itemID = id
        }
        if !isNew {
            try db.cachedStatement(sql: "DELETE FROM itemCategory WHERE itemID = ?").execute(arguments: [itemID])
            try db.cachedStatement(sql: "DELETE FROM relation WHERE itemID = ?").execute(arguments: [itemID])
            try db.cachedStatement(sql: "DELETE FROM tombstone WHERE calendarID = ? AND uid = ? AND recurrenceID = ?")
                .execute(arguments: [calendarID, row.uid, row.recurrenceID])
        }
        try saveLinks(of: row, itemID: itemID)
    }

    /// Inserts an item's categories and relations (none are stored for it yet).
    private func saveLinks(of row: ItemRow, itemID: Int64) throws {
        if !row.categories.isEmpty {
            let insert = try insertCategoriesStatement(count: 1)
            for name in row.categories {
                try DirectBinding.run(insert) {
                    $0.add(itemID)
                    $0.add(name)
                }
            }
        }
        try saveRelations(of: row, itemID: itemID)
    }

    /// Inserts an item's relations (none are stored for it yet).
    private func saveRelations(of row: ItemRow, itemID: Int64) throws {
        if !row.relations.isEmpty {
            let insert = try db.cachedStatement(
                sql: "INSERT INTO relation (itemID, relatedUID, relationType) VALUES (?, ?, ?)")
            for relation in row.relations { try insert.execute(arguments: [itemID, relation.uid, relation.type]) }
        }
    }

    /// Deletes an item; `tombstone` remembers the deletion so merges keep it deleted (a local `rm`).
    func delete(_ key: MergeKey, calendarID: Int64, tombstone: Bool) throws {
        if tombstone {
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO tombstone (calendarID, uid, recurrenceID, deletedAt) VALUES (?, ?, ?, ?)
                    """, arguments: [calendarID, key.uid, key.recurrenceID, Int64(Date().timeIntervalSince1970)])
        }
        try db.cachedStatement(sql: "DELETE FROM item WHERE calendarID = ? AND uid = ? AND recurrenceID = ?")
            .execute(arguments: [calendarID, key.uid, key.recurrenceID])
    }

    /// Keeps the VTIMEZONEs items use, for TZIDs no tzdata name explains; of several with one TZID (every resource
    /// of a CalDAV calendar carries its own copy) the last is kept, written once.
    func saveTimeZones(_ zones: [TimeZoneDefinition], calendarID: Int64) throws {
        var last: [String: Int] = [:]
        for (index, zone) in zones.enumerated() { if let tzid = zone.tzid { last[tzid] = index } }
        let replace = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO timeZone (calendarID, tzid, content) VALUES (?, ?, ?)")
        for (tzid, index) in last.sorted(by: { $0.value < $1.value }) {
            let content = String(decoding: ICS.write(components: [zones[index].component]), as: UTF8.self)
            try replace.execute(arguments: [calendarID, tzid, content])
        }
    }

    /// Keeps what export needs besides items and zones: the calendars' own properties (a property named again
    /// replaces the stored one of that name; the ICSKit category colours are kept as categories instead) and their
    /// VAVAILABILITY and unknown top-level components (one per UID, else per content).
    func saveCalendarParts(of calendars: [ICalendar], calendarID: Int64) throws {
        let incoming = calendars.flatMap(\.headerProperties).filter { $0.name != CategoryColor.propertyName }
        if !incoming.isEmpty {
            let stored = try String.fetchOne(
                db, sql: "SELECT header FROM calendar WHERE id = ?", arguments: [calendarID])
            let kept = (stored.flatMap { ICS.read(Array($0.utf8)).components.first?.properties } ?? [])
                .filter { old in !incoming.contains { $0.name == old.name } }
            let header = Component("VCALENDAR", properties: kept + Self.unrepeated(incoming))
            try db.execute(
                sql: "UPDATE calendar SET header = ? WHERE id = ?",
                arguments: [String(decoding: ICS.write(components: [header]), as: UTF8.self), calendarID])
        }
        for case .other(let component) in calendars.flatMap(\.components) {
            let content = String(decoding: ICS.write(components: [component]), as: UTF8.self)
            var hash = FNV1a()
            hash.add(content)
            let key = component.name + ":" + (component.property("UID")?.value ?? "#" + hash.hex)
            try db.execute(
                sql: "INSERT OR REPLACE INTO otherComponent (calendarID, key, content) VALUES (?, ?, ?)",
                arguments: [calendarID, key, content])
        }
    }

    /// The properties without exact repeats (several calendars of one file, an iTIP stream, repeat theirs).
    private static func unrepeated(_ properties: [Property]) -> [Property] {
        var seen: Set<String> = []
        return properties.filter { property in
            seen.insert(
                String(decoding: ICS.write(components: [Component("X", properties: [property])]), as: UTF8.self)
            )
            .inserted
        }
    }

    /// Changes a source's merge base as a merge planned it: each named entry written or (nil) dropped, with the
    /// content kept for it: dropped with its entry or when the entry's fingerprint changes, written where the merge
    /// names it (an entry whose content the kept item will not hold).
    func changeBase(
        _ changes: [MergeKey: BaseEntry?], contents: [MergeKey: Component] = [:], previous: MergeSnapshot,
        calendarID: Int64, source: String
    ) throws {
        /// Runs a statement whose first four placeholders are the calendar, the source and the key.
        func run(_ statement: Statement, _ key: MergeKey, _ more: (inout DirectBinding) -> Void = { _ in }) throws {
            try DirectBinding.bind(statement) {
                $0.add(calendarID)
                $0.add(source)
                $0.add(key.uid)
                $0.add(key.recurrenceID)
                more(&$0)
            }
            try statement.execute()
        }
        let delete = try db.cachedStatement(
            sql: "DELETE FROM syncState WHERE calendarID = ? AND source = ? AND uid = ? AND recurrenceID = ?")
        let forget = try db.cachedStatement(
            sql: "DELETE FROM syncBase WHERE calendarID = ? AND partner = ? AND uid = ? AND recurrenceID = ?")
        let insert = try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO syncState (calendarID, source, uid, recurrenceID, fingerprint, readFingerprint)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
        for (key, change) in changes {
            guard let entry = change else {
                try run(delete, key)
                try run(forget, key)
                continue
            }
            if let before = previous.base[key], before != entry.fingerprint, contents[key] == nil {
                try run(forget, key)
            }
            try run(insert, key) {
                $0.add(entry.fingerprint)
                $0.add(entry.readFingerprint)
            }
        }
        let keep = try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO syncBase (calendarID, partner, uid, recurrenceID, content) VALUES (?, ?, ?, ?, ?)
                """)
        for (key, component) in contents {
            let text = String(decoding: ICS.write(components: [component]), as: UTF8.self)
            try run(keep, key) { $0.add(text) }
        }
    }

    /// Before an item changes: for every source whose base entry says what the item says now (the base content is
    /// the item's, kept nowhere else), the content is kept as the entry's own, so a later merge with that source
    /// can still merge field by field against it.
    func keepBaseContent(of key: MergeKey, calendarID: Int64) throws {
        for source in try baseSources(calendarID) {
            try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO syncBase (calendarID, partner, uid, recurrenceID, content)
                    SELECT s.calendarID, s.source, s.uid, s.recurrenceID, i.content FROM syncState s
                    JOIN item i ON i.calendarID = s.calendarID AND i.uid = s.uid AND i.recurrenceID = s.recurrenceID
                    WHERE s.calendarID = ?1 AND s.source = ?2 AND s.uid = ?3 AND s.recurrenceID = ?4
                    AND i.fingerprint = s.fingerprint
                    """
            ).execute(arguments: [calendarID, source, key.uid, key.recurrenceID])
        }
    }

    /// The sources with a merge base in the calendar, read once per writer.
    func baseSources(_ calendarID: Int64) throws -> [String] {
        if let known = kept.baseSources[calendarID] { return known }
        let sources = try String.fetchAll(
            db, sql: "SELECT DISTINCT source FROM syncState WHERE calendarID = ?", arguments: [calendarID])
        kept.baseSources[calendarID] = sources
        return sources
    }

    /// Records (or, with nil, forgets) the digest of the bytes a source's base is exactly of.
    func setDigest(_ digest: String?, calendarID: Int64, source: String) throws {
        if let digest {
            try db.execute(
                sql: "INSERT OR REPLACE INTO syncSource (calendarID, source, digest) VALUES (?, ?, ?)",
                arguments: [calendarID, source, digest])
        } else {
            try db.execute(
                sql: "DELETE FROM syncSource WHERE calendarID = ? AND source = ?",
                arguments: [calendarID, source])
        }
    }

    func setColor(_ color: String?, ofCategory name: String) throws {
        try db.execute(
            sql: """
                INSERT INTO category (name, color) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET color = excluded.color
                """, arguments: [name, color])
    }
}
