import CalendarModel
import Foundation
internal import GRDB

/// What `icskit undo` takes back: each command's changes to the store, recorded as the SQL that reverses them.
///
/// Every write transaction goes through `CalendarStore.write` (or `changing`), which makes the transaction part
/// of this process's step: one step per command, named by its command line. Triggers on every table the user's
/// data lives in (items, time zones, merge bases, sync state, subscriptions, category colours …) write, for each
/// row the step changes or deletes, the statement that puts it back.
///
/// Rows the step creates are not logged one by one (a trigger on a bulk insert makes SQLite keep a statement
/// journal for every row: an import took half as long again): a transaction notes each table's highest rowid
/// when it begins (its mark), and undo deletes what lies above it, and the rows of `WITHOUT ROWID` tables whose
/// parent row lies above it; so an import of 100,000 new items logs a few lines. SQLite gives a new row the
/// highest rowid plus one, so a row below the mark can be made only after the highest row was deleted: that
/// deletion also logs the removal of every row above the new highest.
///
/// Undo runs the marks first, then the logged statements newest first, with foreign keys off (nothing cascades
/// that the log does not say), checks the foreign keys, and commits, or changes nothing. Derived data is not
/// logged: an item's category and relation rows are made again from its content, and the rows undo puts back
/// are marked for the search index.
enum UndoLog {
    /// How many commands can be taken back; older steps are forgotten when a new one begins.
    static let keptSteps = 20
    /// How many bytes of statements the older steps may hold together: beyond it the oldest are forgotten (a
    /// re-import that changed 100,000 items logs their old rows, about 100 MB). The newest step is always kept.
    static let keptBytes: Int64 = 256 << 20

    /// A table the log covers, as its triggers and marks need it.
    struct Table {
        var name: String
        var columns: [String]
        var primaryKey: [String]
        var hasRowID: Bool
        /// Foreign keys to the rowid of another covered table: (column, parent table).
        var parents: [(column: String, table: String)]
        /// What a sync partner holds (`remoteMirror`): not logged, gone only with its calendar.
        var isMirror: Bool
    }

    /// What a sync partner (a CalDAV collection, a vdir) holds, as the last sync left it: undo leaves it as it is,
    /// so that the next sync finds the items undo put back differing from the partner and carries the undo there
    /// (restoring it would make the next sync fetch the partner's side again). Rows of a calendar the undo removes
    /// go with it. The partner's merge base in `syncState` and `syncBase` (rows whose source is a partner's) is
    /// left alike; the bases of files and feeds are restored.
    static let remoteMirror: Set<String> = ["syncResource", "syncPartner", "syncRefusal"]

    /// Tables that hold the merge bases of every source, partners included: the column that names the source.
    static let baseSources = ["syncState": "source", "syncBase": "partner"]

    /// An SQL condition: `row` (`old`, `new`, or the table's name in a statement on it) is not a sync partner's
    /// row; nil for tables that hold none.
    static func notPartners(_ table: Table, row: String) -> String? {
        baseSources[table.name].map { source in
            "NOT EXISTS (SELECT 1 FROM syncPartner p WHERE p.calendarID = \(row).calendarID "
                + "AND p.partner = \(row).\(source))"
        }
    }

    /// An SQL condition on a `calendar` row: no sync partner is bound to it.
    static let unbound = "NOT EXISTS (SELECT 1 FROM syncPartner p WHERE p.calendarID = main.calendar.rowid)"

    /// Columns that count changes, by table: a calendar's generation, which moves on with every change of its
    /// items, zones or own properties, so that a shared feed is built again when it may have changed. Undo does not
    /// put a counter back (the changes undo makes move it on, through the same triggers), and an update of nothing
    /// but a counter is not logged: a merge that changed 20,000 items of an existing calendar logged its row 20,000
    /// times.
    static let counters: [String: String] = ["calendar": "generation"]

    /// Tables made from the items' content (`rederive` makes them again), kept apart from what the log covers.
    static let derived: Set<String> = ["itemCategory", "relation"]

    /// Tables that hold derived or bookkeeping data: not logged, not restored.
    static func isCovered(_ name: String) -> Bool {
        !derived.contains(name)
            && !["sqlite_", "grdb_", "undo", "itemSearch", "instance", "bulkInsert"].contains { name.hasPrefix($0) }
    }

    static func tables(_ db: Database) throws -> [Table] {
        let rows = try Row.fetchAll(
            db, sql: "SELECT name, sql FROM main.sqlite_master WHERE type = 'table' ORDER BY name")
        var tables: [Table] = []
        for row in rows {
            let name: String = row[0]
            let sql: String = row[1] ?? ""
            guard isCovered(name), !sql.uppercased().hasPrefix("CREATE VIRTUAL") else { continue }
            let info = try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(name.quotedDatabaseIdentifier))")
            let keyed = info.filter { ($0["pk"] as Int) > 0 }.sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }
            let foreign = try Row.fetchAll(
                db, sql: "PRAGMA main.foreign_key_list(\(name.quotedDatabaseIdentifier))")
            tables.append(
                Table(
                    name: name, columns: info.map { $0["name"] }, primaryKey: keyed.map { $0["name"] },
                    hasRowID: !sql.uppercased().contains("WITHOUT ROWID"),
                    parents: foreign.map { ($0["from"], $0["table"]) }, isMirror: remoteMirror.contains(name)))
        }
        return tables
    }

    // MARK: Recording

    /// One process's recording: its step, and the current transaction's marks (read by the triggers through SQL
    /// functions, so a transaction that changes nothing writes nothing).
    final class Session: @unchecked Sendable {
        private let lock = NSLock()
        private var name: String
        private var marks: [String: Int64] = [:]
        private var current: (step: Int64, txn: Int64)?
        /// The step this process made last, so a command's later transactions join it.
        private var ownStep: Int64?
        /// The schema the triggers were made for, and its tables (read again only when the schema changes).
        var schemaVersion: Int64?
        var tables: [Table] = []
        var functionsAdded = false

        init(label: String) { name = label }

        var label: String { lock.withLock { name } }
        var processStep: Int64? {
            get { lock.withLock { ownStep } }
            set { lock.withLock { ownStep = newValue } }
        }

        func beginStep(label: String?) {
            lock.withLock {
                ownStep = nil
                if let label { name = label }
            }
        }

        static let processTag = "\(ProcessInfo.processInfo.processIdentifier)@\(Date().timeIntervalSince1970)"

        func mark(_ table: String) -> Int64? { lock.withLock { current == nil ? nil : marks[table] } }
        var step: Int64? { lock.withLock { current?.step } }
        var txn: Int64? { lock.withLock { current?.txn } }

        func start(step: Int64, txn: Int64, marks: [String: Int64]) {
            lock.withLock {
                current = (step, txn)
                self.marks = marks
            }
        }

        func stop() { lock.withLock { current = nil } }
    }

    /// Begins recording a transaction of `session`'s step; returns what `end` needs.
    static func begin(_ db: Database, _ session: Session) throws -> (tables: [Table], changes: Int) {
        if !session.functionsAdded {
            db.add(
                function: DatabaseFunction("icskit_undo_mark", argumentCount: 1) { values in
                    String.fromDatabaseValue(values[0]).flatMap { session.mark($0) }
                })
            db.add(function: DatabaseFunction("icskit_undo_step", argumentCount: 0) { _ in session.step })
            db.add(function: DatabaseFunction("icskit_undo_txn", argumentCount: 0) { _ in session.txn })
            session.functionsAdded = true
        }
        let version = try Int64.fetchOne(db, sql: "PRAGMA main.schema_version") ?? 0
        if session.schemaVersion != version {
            session.tables = try tables(db)
            try installTriggers(db, session.tables)
            session.schemaVersion = version
        }
        let tables = session.tables
        let last = try Row.fetchOne(db, sql: "SELECT id, process FROM undoStep ORDER BY id DESC LIMIT 1")
        let lastID: Int64 = last?[0] ?? 0
        let step =
            session.processStep == lastID && last?[1] == Session.processTag && lastID != 0 ? lastID : lastID + 1
        let txn = (try Int64.fetchOne(db, sql: "SELECT max(seq) FROM undoLog") ?? 0) + 1
        var marks: [String: Int64] = [:]
        for table in tables where table.hasRowID {
            marks[table.name] =
                try Int64.fetchOne(db, sql: "SELECT coalesce(max(rowid), 0) FROM main.\(table.quoted)") ?? 0
        }
        session.start(step: step, txn: txn, marks: marks)
        return (tables, db.totalChangesCount)
    }

    /// Ends the transaction's recording: when it changed anything, its step and marks are written.
    static func end(_ db: Database, _ session: Session, _ begun: (tables: [Table], changes: Int)) throws {
        guard let step = session.step, let txn = session.txn else { return }
        let marks = begun.tables.filter(\.hasRowID).map { ($0.name, session.mark($0.name) ?? 0) }
        session.stop()
        guard db.totalChangesCount != begun.changes else { return }
        if try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM undoStep WHERE id = ?)", arguments: [step])! {
            try db.execute(
                sql: "INSERT INTO undoStep (id, label, at, process) VALUES (?, ?, ?, ?)",
                arguments: [step, session.label, Int64(Date().timeIntervalSince1970), Session.processTag])
            try db.execute(sql: "DELETE FROM undoLog WHERE step <= ?", arguments: [step - Int64(keptSteps)])
            try db.execute(sql: "DELETE FROM undoStep WHERE id <= ?", arguments: [step - Int64(keptSteps)])
        }
        session.processStep = step
        let markOf = Dictionary(uniqueKeysWithValues: marks)
        var statements: [(String, String, Int64?)] = []
        for table in begun.tables {
            if table.hasRowID, !table.isMirror {
                // A partner's rows above the mark stay, unless their calendar goes (the parent's mark below); a
                // calendar bound to a partner stays, so that the next sync carries the undo there.
                let mark = markOf[table.name]!
                let notPartners =
                    (notPartners(table, row: table.quoted) ?? (table.name == "calendar" ? Self.unbound : nil))
                    .map { " AND " + $0 } ?? ""
                statements.append(
                    (table.name, "DELETE FROM main.\(table.quoted) WHERE rowid > \(mark)\(notPartners)", mark))
            }
            if !table.hasRowID || table.isMirror || baseSources[table.name] != nil {
                for parent in table.parents {
                    guard let mark = markOf[parent.table] else { continue }
                    let column = parent.column.quotedDatabaseIdentifier
                    // The rows of a calendar that stays (bound to a partner) stay with it.
                    let kept =
                        parent.table == "calendar"
                        ? " AND \(column) NOT IN (SELECT calendarID FROM main.syncPartner)" : ""
                    statements.append(
                        (table.name, "DELETE FROM main.\(table.quoted) WHERE \(column) > \(mark)\(kept)", nil))
                }
            }
        }
        let insert = try db.makeStatement(
            sql: "INSERT INTO undoLog (step, txn, tableName, kind, statement, rowID) VALUES (?, ?, ?, 'mark', ?, ?)")
        for (table, statement, mark) in statements {
            try insert.execute(arguments: [step, txn, table, statement, mark])
        }
        try db.execute(
            sql: """
                UPDATE undoStep SET bytes = bytes + (SELECT coalesce(sum(length(statement)), 0) FROM undoLog
                                                     WHERE step = ?1 AND txn = ?2)
                WHERE id = ?1
                """, arguments: [step, txn])
        try forgetBeyondSize(db, newest: step)
    }

    /// Forgets the oldest steps while those before `newest` hold more than `cap` bytes.
    static func forgetBeyondSize(_ db: Database, newest: Int64, cap: Int64 = keptBytes) throws {
        var older = try Row.fetchAll(
            db, sql: "SELECT id, bytes FROM undoStep WHERE id < ? ORDER BY id", arguments: [newest]
        ).map { (id: $0[0] as Int64, bytes: $0[1] as Int64) }
        var total = older.reduce(0) { $0 + $1.bytes }
        while total > cap, let oldest = older.first {
            try db.execute(sql: "DELETE FROM undoLog WHERE step = ?", arguments: [oldest.id])
            try db.execute(sql: "DELETE FROM undoStep WHERE id = ?", arguments: [oldest.id])
            total -= oldest.bytes
            older.removeFirst()
        }
    }

    /// The temporary triggers of this connection, made anew when the schema changed.
    static func installTriggers(_ db: Database, _ tables: [Table]) throws {
        for name in try String.fetchAll(
            db, sql: "SELECT name FROM temp.sqlite_master WHERE type = 'trigger' AND name LIKE 'icskit_undo_%'")
        {
            try db.execute(sql: "DROP TRIGGER temp.\(name.quotedDatabaseIdentifier)")
        }
        for table in tables where !table.isMirror {
            for (event, sql) in triggers(table) {
                try db.execute(
                    sql: """
                        CREATE TEMP TRIGGER \("icskit_undo_\(table.name)_\(event)".quotedDatabaseIdentifier)
                        \(sql) END
                        """)
            }
        }
    }

    /// `INSERT INTO undoLog …` for a trigger: `statement` is an SQL expression of the statement to log.
    private static func log(_ table: Table, _ kind: String, _ statement: String, rowID: String = "NULL") -> String {
        """
        INSERT INTO undoLog (step, txn, tableName, kind, statement, rowID)
        VALUES (icskit_undo_step(), icskit_undo_txn(), '\(table.name)', '\(kind)', \(statement), \(rowID));
        """
    }

    private static let recording = "icskit_undo_step() IS NOT NULL"

    /// An SQL expression that writes `row`'s values (`old`, `new`) as SQL literals, comma-separated.
    private static func values(_ table: Table, _ row: String) -> String {
        table.columns.map { "quote(\(row).\($0.quotedDatabaseIdentifier))" }.joined(separator: " || ', ' || ")
    }

    /// The triggers of a table: (event, `AFTER … ON … WHEN … BEGIN …` without its END).
    static func triggers(_ table: Table) -> [(String, String)] {
        table.hasRowID ? rowIDTriggers(table) : keyedTriggers(table)
    }

    /// A rowid table's: no insert trigger (new rows lie above the mark, or above the highest row after a deletion
    /// that logged their removal: the second statement of the delete trigger).
    private static func rowIDTriggers(_ table: Table) -> [(String, String)] {
        let name = "main.\(table.quoted)"
        let columnList = table.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let restored = table.columns.filter { counters[table.name] != $0 }
        let assignments = restored.map {
            "'\($0.quotedDatabaseIdentifier) = ' || quote(old.\($0.quotedDatabaseIdentifier))"
        }.joined(separator: " || ', ' || ")
        // An update of a counter alone is not logged; the test comes first, so such an update calls no function.
        let changed =
            restored.count == table.columns.count
            ? ""
            : "("
                + restored.map { "old.\($0.quotedDatabaseIdentifier) IS NOT new.\($0.quotedDatabaseIdentifier)" }
                .joined(separator: " OR ") + ") AND "
        func old(_ row: String) -> String { "\(row).rowid <= icskit_undo_mark('\(table.name)')" }
        // A partner's rows are left as they are, also by the removal of the rows above a deletion.
        let oldNotPartners = Self.notPartners(table, row: "old").map { " AND " + $0 } ?? ""
        let above: String = Self.notPartners(table, row: table.quoted).map { " AND " + $0 } ?? ""
        let aboveText = above.replacingOccurrences(of: "'", with: "''")
        return [
            (
                "update",
                "AFTER UPDATE ON \(name) WHEN \(changed)\(recording) AND \(old("old"))\(oldNotPartners) BEGIN "
                    + log(
                        table, "update",
                        "'UPDATE \(name) SET rowid = ' || old.rowid || ', ' || \(assignments)"
                            + " || ' WHERE rowid = ' || new.rowid", rowID: "old.rowid")
            ),
            (
                "delete",
                "AFTER DELETE ON \(name) WHEN \(recording) AND \(old("old")) BEGIN "
                    + "INSERT INTO undoLog (step, txn, tableName, kind, statement, rowID) "
                    + "SELECT icskit_undo_step(), icskit_undo_txn(), '\(table.name)', 'delete', "
                    + "'INSERT OR REPLACE INTO \(name) (rowid, \(columnList)) VALUES (' || old.rowid || ', ' || "
                    + "\(values(table, "old")) || ')', old.rowid WHERE 1\(oldNotPartners);"
                    + "INSERT INTO undoLog (step, txn, tableName, kind, statement, rowID) "
                    + "SELECT icskit_undo_step(), icskit_undo_txn(), '\(table.name)', 'above', "
                    + "'DELETE FROM \(name) WHERE rowid > ' || top || '\(aboveText)', top "
                    + "FROM (SELECT coalesce(max(rowid), 0) AS top FROM \(table.quoted)) WHERE old.rowid > top;"
            ),
        ]
    }

    /// A `WITHOUT ROWID` table's: a row is logged when its parents were there before the transaction (else the
    /// mark of the parent's table takes it away).
    private static func keyedTriggers(_ table: Table) -> [(String, String)] {
        let name = "main.\(table.quoted)"
        let columnList = table.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        func parentsOld(_ row: String) -> String {
            var conditions = table.parents.map {
                "(\(row).\($0.column.quotedDatabaseIdentifier) IS NULL OR "
                    + "\(row).\($0.column.quotedDatabaseIdentifier) <= icskit_undo_mark('\($0.table)'))"
            }
            if let notPartners = notPartners(table, row: row) { conditions.append(notPartners) }
            return conditions.isEmpty ? "1" : conditions.joined(separator: " AND ")
        }
        func key(_ row: String) -> String {
            table.primaryKey.map {
                "'\($0.quotedDatabaseIdentifier) = ' || quote(\(row).\($0.quotedDatabaseIdentifier))"
            }
            .joined(separator: " || ' AND ' || ")
        }
        let insertOld = "'INSERT INTO \(name) (\(columnList)) VALUES (' || \(values(table, "old")) || ')'"
        // A merge base written in bulk is logged by its writer in one statement (`logBulkBase`); the test comes
        // first, so such a row calls no function.
        let notBulk =
            table.name == "syncState"
            ? "NOT EXISTS (SELECT 1 FROM main.bulkInsert b WHERE b.calendarID = new.calendarID) AND " : ""
        return [
            (
                "insert",
                "AFTER INSERT ON \(name) WHEN \(notBulk)\(recording) AND \(parentsOld("new")) BEGIN "
                    + log(table, "insert", "'DELETE FROM \(name) WHERE ' || \(key("new"))")
            ),
            (
                // Delete the row as it is, and put back the row as it was when that one's parents were there.
                "update",
                "AFTER UPDATE ON \(name) WHEN \(recording) AND (\(parentsOld("old")) OR \(parentsOld("new"))) BEGIN "
                    + log(
                        table, "update",
                        "'DELETE FROM \(name) WHERE ' || \(key("new")) || "
                            + "CASE WHEN \(parentsOld("old")) THEN '; ' || \(insertOld) ELSE '' END")
            ),
            (
                "delete",
                "AFTER DELETE ON \(name) WHEN \(recording) AND \(parentsOld("old")) BEGIN "
                    + log(table, "delete", insertOld)
            ),
        ]
    }
}

extension UndoLog {
    /// The derived rows of the items an undo put back or changed back, made again from their content, and
    /// none for items it removed.
    static func rederive(_ db: Database, step: Int64) throws {
        let ids = try Int64.fetchAll(
            db,
            sql: """
                SELECT DISTINCT rowID FROM undoLog WHERE step = ? AND tableName = 'item' AND kind IN ('update', 'delete')
                ORDER BY rowID
                """, arguments: [step])
        let insertCategory = try db.makeStatement(
            sql: "INSERT OR IGNORE INTO itemCategory (itemID, name) VALUES (?, ?)")
        let insertRelation = try db.makeStatement(
            sql: "INSERT INTO relation (itemID, relatedUID, relationType) VALUES (?, ?, ?)")
        for id in ids {
            try db.execute(sql: "DELETE FROM itemCategory WHERE itemID = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM relation WHERE itemID = ?", arguments: [id])
            guard let content = try String.fetchOne(db, sql: "SELECT content FROM item WHERE id = ?", arguments: [id]),
                let core = ICS.read(Array(content.utf8)).calendars.first?.components.first?.core
            else { continue }
            for name in core.categories.map(\.name) { try insertCategory.execute(arguments: [id, name]) }
            for relation in core.relatedTo { try insertRelation.execute(arguments: [id, relation.uid, relation.type]) }
        }
        try db.execute(sql: "DELETE FROM itemCategory WHERE itemID NOT IN (SELECT id FROM item)")
        try db.execute(sql: "DELETE FROM relation WHERE itemID NOT IN (SELECT id FROM item)")
    }
}

extension UndoLog {
    /// An item undo took away that a sync partner's merge base still holds is deleted here as `rm` deletes (a
    /// tombstone): the next sync deletes it there, and a dry run says so (without it, the sync read the partner's
    /// copy as one never deleted here).
    static func rememberDeletionsForPartners(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO tombstone (calendarID, uid, recurrenceID, deletedAt)
                SELECT s.calendarID, s.uid, s.recurrenceID, ?
                FROM syncState s JOIN syncPartner p ON p.calendarID = s.calendarID AND p.partner = s.source
                WHERE NOT EXISTS (SELECT 1 FROM item i WHERE i.calendarID = s.calendarID AND i.uid = s.uid
                                  AND i.recurrenceID = s.recurrenceID)
                """, arguments: [Int64(Date().timeIntervalSince1970)])
    }
}

extension UndoLog.Table {
    var quoted: String { name.quotedDatabaseIdentifier }
}

/// A command `undo` can take back.
public struct UndoStep: Sendable, Equatable {
    public var id: Int64
    /// The command line that made it (URLs without their user information).
    public var label: String
    public var at: Date
}

/// What an undo did (or, dry, would do) to the store's items (each master and override a row).
public struct UndoResult: Sendable, Equatable {
    public var step: UndoStep
    /// Items the command had added, now gone.
    public var removed = 0
    /// Items the command had deleted, now back.
    public var restored = 0
    /// Items the command had changed, now as they were.
    public var reverted = 0
    /// Rows of other tables (merge bases, time zones, calendars, categories …) put back.
    public var otherRows = 0
    /// The sync partners of calendars whose items changed: the next sync carries the undo there.
    public var partners: [Partner] = []

    /// A calendar and the sync partner it is bound to.
    public struct Partner: Sendable, Equatable {
        public var calendar: String
        public var partner: String
    }
}

extension CalendarStore {
    /// Makes the next change the first of a new undo step, named `label` (else as the store was opened): for a
    /// program that keeps the store open across several commands of its own. The CLI needs none (one step a
    /// process).
    public func beginUndoStep(_ label: String? = nil) {
        undoSession.beginStep(label: label)
    }

    /// The commands `undo` can take back, newest first.
    public func undoSteps() throws -> [UndoStep] {
        try database.read { db in try Self.undoSteps(db) }
    }

    /// The newest `limit` steps (all without one), newest first.
    private static func undoSteps(_ db: Database, limit: Int = -1) throws -> [UndoStep] {
        try Row.fetchAll(db, sql: "SELECT id, label, at FROM undoStep ORDER BY id DESC LIMIT ?", arguments: [limit])
            .map { UndoStep(id: $0[0], label: $0[1], at: Date(timeIntervalSince1970: TimeInterval($0[2] as Int64))) }
    }

    /// Takes back the newest step: every row it added, changed or deleted is as it was before, in one
    /// transaction; `dryRun` rolls it back and says what it would do. Nil when there is nothing to undo.
    public func undo(dryRun: Bool = false) throws -> UndoResult? {
        undoSession.stop()
        return try database.writeWithoutTransaction { db in
            // Nothing may cascade: the log says every row to put back or take away.
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
            var result: UndoResult?
            try db.inTransaction(.immediate) {
                guard let step = try Self.undoSteps(db, limit: 1).first else { return .rollback }
                var done = UndoResult(step: step)
                let touched = try Self.touchedCalendars(db, step: step.id)
                try Self.runUndo(db, step: step.id, into: &done)
                done.partners = try Self.partners(db, of: touched.union(try Self.touchedCalendars(db, step: step.id)))
                try UndoLog.rederive(db, step: step.id)
                try UndoLog.rememberDeletionsForPartners(db)
                let broken = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
                if !broken.isEmpty {
                    throw StoreError(
                        "cannot undo \"\(step.label)\": the store would hold \(broken.count) rows whose parent is gone "
                            + "(a change the undo log did not see); nothing was changed")
                }
                try db.execute(sql: "DELETE FROM undoLog WHERE step = ?", arguments: [step.id])
                try db.execute(sql: "DELETE FROM undoStep WHERE id = ?", arguments: [step.id])
                // Rows put back keep their old ids, which the kept instances cannot tell from unchanged ones.
                try InstanceIndex.clear(db)
                // The rows put back are searched again (the index is derived, not logged).
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO itemSearchStale (itemID)
                        SELECT id FROM item WHERE id <= (SELECT indexedThrough FROM itemSearchState)
                        AND id NOT IN (SELECT rowid FROM itemSearch)
                        """)
                result = done
                return dryRun ? .rollback : .commit
            }
            return result
        }
    }

    /// The calendars of the items the step changed or made (as they stand now).
    private static func touchedCalendars(_ db: Database, step: Int64) throws -> Set<Int64> {
        Set(
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT calendarID FROM item WHERE id IN (
                        SELECT rowID FROM undoLog WHERE step = ?1 AND tableName = 'item' AND kind IN ('update', 'delete'))
                    OR id > (SELECT min(rowID) FROM undoLog WHERE step = ?1 AND tableName = 'item'
                             AND kind IN ('mark', 'above'))
                    """, arguments: [step]))
    }

    private static func partners(_ db: Database, of calendars: Set<Int64>) throws -> [UndoResult.Partner] {
        guard !calendars.isEmpty else { return [] }
        return try Row.fetchAll(
            db,
            sql: """
                SELECT c.name, p.partner FROM syncPartner p JOIN calendar c ON c.id = p.calendarID
                WHERE p.calendarID IN (\(calendars.sorted().map(String.init).joined(separator: ", ")))
                ORDER BY c.name, p.partner
                """
        ).map { UndoResult.Partner(calendar: $0[0], partner: $0[1]) }
    }

    /// The step's transactions newest first; in each, the rows above its marks go first, then the logged
    /// statements newest first.
    private static func runUndo(_ db: Database, step: Int64, into result: inout UndoResult) throws {
        let transactions = try Int64.fetchAll(
            db, sql: "SELECT DISTINCT txn FROM undoLog WHERE step = ? ORDER BY txn DESC", arguments: [step])
        for txn in transactions {
            let entries = try Row.fetchAll(
                db,
                sql: """
                    SELECT tableName, kind, statement FROM undoLog WHERE step = ? AND txn = ?
                    ORDER BY kind = 'mark' DESC, seq DESC
                    """, arguments: [step, txn])
            for entry in entries {
                let table: String = entry[0], kind: String = entry[1]
                try db.execute(sql: entry[2])
                let rows = kind == "mark" || kind == "above" ? db.changesCount : 1
                guard table == "item" else {
                    result.otherRows += rows
                    continue
                }
                switch kind {
                case "mark", "above": result.removed += rows
                case "delete": result.restored += rows
                default: result.reverted += rows
                }
            }
        }
    }
}
