internal import GRDB
internal import GRDBSQLite

/// Rows read straight from a prepared statement with SQLite's own calls: a listing reads tens of thousands of kept
/// instances, and GRDB's `Row` decodes each column through a generic conversion (a third of the reading). The
/// statement's arguments are set by GRDB (`setArguments`, which binds them at once); the rows are stepped here and the
/// statement reset at the end. Only inside a transaction GRDB opened.
enum DirectRows {
    /// Steps `statement` to its end, calling `body` with each row; an SQLite error is thrown with its message.
    static func forEach(_ statement: Statement, _ body: (DirectRow) throws -> Void) throws {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                let message = String(cString: sqlite3_errmsg(sqlite3_db_handle(handle)))
                throw StoreError("SQLite: \(message) (\(String(cString: sqlite3_sql(handle))))")
            }
            try body(DirectRow(statement: handle))
        }
    }
}

/// The current row of a statement `DirectRows` steps; valid only inside its `body`.
struct DirectRow {
    fileprivate let statement: SQLiteStatement

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

    func bool(_ column: Int32) -> Bool { sqlite3_column_int64(statement, column) != 0 }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    /// The column as text (its UTF-8 bytes, repaired as `String(decoding:)` does), nil for NULL.
    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column's bytes, nil for NULL (an empty BLOB is an empty buffer). The buffer is SQLite's, valid only
    /// inside `body`.
    func withBytes<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T? {
        guard !isNull(column) else { return nil }
        let base = sqlite3_column_blob(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        return try body(UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : count))
    }
}
