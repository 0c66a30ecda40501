internal import GRDB

/// Undo entries a writer logs itself, where the triggers would log a row at a time or not at all.
extension UndoLog {
    /// The merge base an import writes for `source` into a calendar listed in `bulkInsert`, logged for undo in one
    /// statement rather than a row per item (the insert trigger leaves such rows alone): the calendar had no base
    /// before (an import writes in bulk only into a calendar with no history), so undo deletes the source's rows.
    /// Nothing is logged for a calendar the transaction made: the calendar's mark takes its rows away.
    static func logBulkBase(_ db: Database, calendarID: Int64, source: String) throws {
        try db.execute(
            sql: """
                INSERT INTO undoLog (step, txn, tableName, kind, statement, rowID)
                SELECT icskit_undo_step(), icskit_undo_txn(), 'syncState', 'above',
                       'DELETE FROM main."syncState" WHERE calendarID = ' || ?1 || ' AND source = ' || quote(?2), NULL
                WHERE icskit_undo_step() IS NOT NULL AND ?1 <= icskit_undo_mark('calendar')
                """, arguments: [calendarID, source])
    }

    /// The calendar's sync bindings, logged for undo ahead of its removal (the undo log leaves what mirrors a
    /// partner alone, so without this an undo gave the calendar back unbound): undo puts the calendar back first,
    /// then these. The partner's resources and merge base stay gone; the next sync pairs the items again by UID.
    static func logBindings(_ db: Database, calendarID: Int64) throws {
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(syncPartner)").map { $0["name"] as String }
        let names = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let values = columns.map { "quote(\($0.quotedDatabaseIdentifier))" }.joined(separator: " || ', ' || ")
        try db.execute(
            sql: """
                INSERT INTO undoLog (step, txn, tableName, kind, statement, rowID)
                SELECT icskit_undo_step(), icskit_undo_txn(), 'syncPartner', 'delete',
                       'INSERT OR IGNORE INTO main.syncPartner (\(names)) VALUES (' || \(values) || ')', NULL
                FROM syncPartner WHERE calendarID = ? AND icskit_undo_step() IS NOT NULL
                """, arguments: [calendarID])
    }
}
