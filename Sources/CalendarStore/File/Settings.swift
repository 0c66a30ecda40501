import Foundation
internal import GRDB

/// What the user tells the store about themselves (`icskit config`): kept in the store, so that every command and
/// every machine the store travels to knows it.
extension CalendarStore {
    /// The addresses that are the user (`icskit config me`), as given; empty when none were set.
    public func myAddresses() throws -> [String] {
        try database.read { db in
            guard try db.tableExists("setting") else { return [] }
            let value = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE name = 'me'") ?? ""
            return value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    /// Sets the addresses that are the user (none: forgets them), as one change of the undo log.
    public func setMyAddresses(_ addresses: [String]) throws {
        try write { db in
            if addresses.isEmpty {
                try db.execute(sql: "DELETE FROM setting WHERE name = 'me'")
            } else {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO setting (name, value) VALUES ('me', ?)",
                    arguments: [addresses.joined(separator: ",")])
            }
        }
    }
}
