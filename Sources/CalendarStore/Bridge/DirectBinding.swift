internal import GRDB
internal import GRDBSQLite

/// Values bound straight to a prepared statement's parameters: the store's hottest statements (an item's row, a
/// sync's bookkeeping) run thousands of times per transaction, and GRDB's `StatementArguments` box every value into
/// an existential and then into a `DatabaseValue` first (an eighth of the instructions of a 5,000-item CalDAV
/// download). With `bind`, GRDB still resets, steps and observes the statement; `run`, for a bulk import's two
/// inserts, steps it here as well.
struct DirectBinding {
    private let statement: SQLiteStatement
    private var index: Int32 = 1
    /// The first value SQLite refused (a text longer than its limit), with its code.
    private var refused: (index: Int32, code: Int32)?

    /// Starts binding `statement` from its first parameter, after GRDB's bindings are cleared (`setUncheckedArguments`
    /// with none marks them as set, so `execute()` and `fetchOne` run with these).
    private init(_ statement: Statement) {
        statement.setUncheckedArguments(StatementArguments())
        self.statement = statement.sqliteStatement
    }

    /// SQLite copies the text (SQLITE_TRANSIENT) before this returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    mutating func add(_ value: String?) {
        guard var value else {
            defer { index += 1 }
            return check(sqlite3_bind_null(statement, index))
        }
        value.withUTF8 { addText($0) }
    }

    /// Binds UTF-8 bytes as TEXT without making a String of them first (the caller vouches they are UTF-8).
    mutating func addText(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { addText($0) } }

    private mutating func addText(_ bytes: UnsafeBufferPointer<UInt8>) {
        defer { index += 1 }
        // An empty buffer may have no address, which SQLite would bind as NULL: bind zero bytes of a literal.
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            return check(sqlite3_bind_text(statement, index, "", 0, Self.transient))
        }
        guard bytes.count <= Int32.max else { return check(SQLITE_TOOBIG) }
        let code = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            sqlite3_bind_text(statement, index, $0, Int32(bytes.count), Self.transient)
        }
        check(code)
    }

    mutating func add(_ value: Int64?) {
        defer { index += 1 }
        check(value.map { sqlite3_bind_int64(statement, index, $0) } ?? sqlite3_bind_null(statement, index))
    }

    private mutating func check(_ code: Int32) {
        if code != SQLITE_OK, refused == nil { refused = (index, code) }
    }

    mutating func add(_ value: Int?) { add(value.map(Int64.init)) }
    mutating func add(_ value: Bool) { add(Int64(value ? 1 : 0)) }

    /// Binds `values` and runs the statement to its end with SQLite's own calls, past GRDB's statement bookkeeping
    /// (its reset, argument check and observation broker: an eighth of a bulk import's writing). Only for statements
    /// that return no rows, inside a transaction GRDB opened, with no transaction observer registered (ICSKit
    /// registers none).
    static func run(_ statement: Statement, _ values: (inout DirectBinding) -> Void) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        var binding = DirectBinding(raw: handle)
        values(&binding)
        try binding.checkAllBound()
        var code = sqlite3_step(handle)
        while code == SQLITE_ROW { code = sqlite3_step(handle) }
        guard code == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(sqlite3_db_handle(handle)))
            sqlite3_reset(handle)
            throw StoreError("SQLite: \(message) (\(String(cString: sqlite3_sql(handle))))")
        }
        sqlite3_reset(handle)
    }

    private init(raw statement: SQLiteStatement) { self.statement = statement }

    /// Binds `values` in order and checks that they were all the statement's parameters (a mismatch is a
    /// programming error, as GRDB's unchecked arguments would be). A value SQLite refuses is an error, before the
    /// statement runs with a parameter left unbound.
    static func bind(_ statement: Statement, _ values: (inout DirectBinding) -> Void) throws {
        var binding = DirectBinding(statement)
        values(&binding)
        try binding.checkAllBound()
    }

    /// Every parameter was given a value (a mismatch is a programming error) and SQLite took each.
    private func checkAllBound() throws {
        precondition(
            index - 1 == sqlite3_bind_parameter_count(statement),
            "\(index - 1) values bound to a statement of \(sqlite3_bind_parameter_count(statement))")
        if let refused {
            throw StoreError(
                "SQLite refused value \(refused.index) of a statement: " + String(cString: sqlite3_errstr(refused.code))
            )
        }
    }
}
