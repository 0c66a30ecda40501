import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `--store PATH`: the store to use (default `$ICSKIT_STORE`, else `$XDG_DATA_HOME/icskit/store.sqlite`).
struct StoreOption: ParsableArguments {
    @Option(name: .customLong("store"), help: "The store file (default: $ICSKIT_STORE or $XDG_DATA_HOME/icskit/store.sqlite).")
    var path: String?

    func open() throws -> CalendarStore {
        let path = path ?? CalendarStore.defaultPath()
        do {
            return try CalendarStore(path: path)
        } catch {
            throw ValidationError("cannot open the store \(path): \(error)")
        }
    }
}
