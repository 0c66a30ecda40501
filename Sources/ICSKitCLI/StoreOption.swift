import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `--store PATH`: the store to use (default `$ICSKIT_STORE`, else `$XDG_DATA_HOME/icskit/store.sqlite`).
struct StoreOption: ParsableArguments {
    @Option(
        name: .customLong("store"),
        help: "The store file (default: $ICSKIT_STORE or $XDG_DATA_HOME/icskit/store.sqlite).")
    var path: String?

    /// Opens the store for a command that changes it, or (`.readOnly`) one that only reads it: that one works on
    /// read-only media too. A store that cannot be used is a runtime failure (exit 1), not a usage error.
    func open(_ access: CalendarStore.Access = .readWrite) throws -> CalendarStore {
        let path = path ?? CalendarStore.defaultPath()
        do {
            return try CalendarStore(path: path, access: access)
        } catch let error as StoreError {
            throw CommandFailure(error.description)
        } catch {
            throw CommandFailure("cannot open the store \(path): \(error)")
        }
    }
}
