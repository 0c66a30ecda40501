import Foundation
internal import GRDB

extension StoreError {
    /// A failure of SQLite under the store as one line a person can act on: what failed and what to do, with no
    /// SQL and no SQLite text. Nil for errors that are not SQLite's.
    ///
    /// Every write is one transaction, so whatever failed changed nothing.
    public init?(translating error: any Error, store path: String? = nil) {
        guard let error = error as? DatabaseError else { return nil }
        let store = path.map { "the store \($0)" } ?? "the store"
        switch error.resultCode.primaryResultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self.init("\(store) is busy: another icskit is writing it; nothing was changed; try again in a moment")
        case .SQLITE_FULL:
            self.init("the disk holding \(store) is full; nothing was changed; free some space and try again")
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN, .SQLITE_AUTH:
            self.init(
                "\(store) cannot be written (read-only media or no permission); nothing was changed; "
                    + "check the file's permissions or use --store")
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            self.init("\(store) is damaged; restore it from a backup, or export what icskit check-store still reads")
        case .SQLITE_IOERR, .SQLITE_NOMEM, .SQLITE_NOLFS:
            self.init("\(store) could not be read or written (the disk or memory failed); nothing was changed")
        default:
            let code = error.resultCode.primaryResultCode.rawValue
            self.init(
                "\(store) refused a change ICSKit did not expect (result \(code)); nothing was changed; "
                    + "run icskit check-store, and please report the command that failed")
        }
    }
}
