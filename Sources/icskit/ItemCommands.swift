import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `icskit done UID`: mark a todo in the store completed.
struct DoneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done", abstract: "Mark a todo in the store completed.",
        discussion: "Example:\n  icskit done 7f3c-…@example.com")

    @Argument(help: "The todo's UID.")
    var uid: String

    @OptionGroup var store: StoreOption

    func run() throws {
        let changed = try store.open().complete(uid: uid)
        guard changed > 0 else { throw ValidationError("no todo with UID \(uid) in the store") }
        print("done: \(uid)")
    }
}

/// `icskit rm UID`: delete an item (a series with its overrides) from the store.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete an item from the store; merges keep it deleted.",
        discussion: "Example:\n  icskit rm 7f3c-…@example.com")

    @Argument(help: "The item's UID.")
    var uid: String

    @Option(help: "Only in this store calendar.")
    var calendar: String?

    @OptionGroup var store: StoreOption

    func run() throws {
        let removed = try store.open().delete(uid: uid, calendar: calendar)
        guard removed > 0 else { throw ValidationError("no item with UID \(uid) in the store") }
        print("removed: \(uid) (\(removed) component\(removed == 1 ? "" : "s"))")
    }
}

/// `icskit check-store`: SQLite's integrity check and what the store holds.
struct CheckStoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-store", abstract: "Check the store file's integrity and list its calendars.")

    @OptionGroup var store: StoreOption

    func run() throws {
        let opened = try store.open()
        let problems = try opened.integrityCheck()
        print("store: \(opened.path)")
        print("integrity: \(problems.joined(separator: "; "))")
        for calendar in try opened.calendars() {
            print("  \(calendar.name): \(calendar.itemCount) items\(calendar.color.map { "  \($0)" } ?? "")")
        }
        if problems != ["ok"] { throw ExitCode(1) }
    }
}
