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
        Output.print("done: \(uid)")
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
        let opened = try store.open()
        try CalendarFiles.requireCalendar(calendar, in: opened)
        let removed = try opened.delete(uid: uid, calendar: calendar)
        guard removed > 0 else { throw ValidationError("no item with UID \(uid) in the store") }
        Output.print("removed: \(uid) (\(removed) component\(removed == 1 ? "" : "s"))")
    }
}

/// `icskit check-store`: SQLite's integrity check and what the store holds.
struct CheckStoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-store", abstract: "Check the store file's integrity and list its calendars.")

    @OptionGroup var store: StoreOption

    func run() throws {
        let opened = try store.open(.readOnly)
        let problems = try opened.integrityCheck()
        Output.print("store: \(opened.path)")
        Output.print("integrity: \(problems.joined(separator: "; "))")
        for calendar in try opened.calendars() {
            Output.print(
                "  \(calendar.name): \(calendar.itemCount.counted("item"))\(calendar.color.map { "  \($0)" } ?? "")")
        }
        if problems != ["ok"] { throw ExitCode(1) }
    }
}

/// `icskit categories [--set-color NAME #RRGGBB]`: the store's categories and their colours.
struct CategoriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "categories", abstract: "List the store's categories with their colours, or set a colour.",
        discussion: "Examples:\n  icskit categories\n  icskit categories --set-color Work \"#3366FF\"")

    @Option(name: .customLong("set-color"), parsing: .upToNextOption, help: "NAME #RRGGBB")
    var setColor: [String] = []

    @OptionGroup var store: StoreOption

    func validate() throws {
        if !setColor.isEmpty, setColor.count != 2 || !CategoryColor.isHex(setColor[1]) {
            throw ValidationError("--set-color takes a category name and #RRGGBB")
        }
    }

    func run() throws {
        let store = try store.open(setColor.isEmpty ? .readOnly : .readWrite)
        if setColor.count == 2 { try store.setColor(setColor[1], ofCategory: setColor[0]) }
        for (category, items) in try store.categories() {
            Output.print("\(category.name)  \(category.color ?? "-")  \(items) item\(items == 1 ? "" : "s")")
        }
    }
}

/// `icskit log UID --duration 25m`: time spent on a todo, as a VJOURNAL related to it.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Record time spent on a todo (a VJOURNAL linked to it by RELATED-TO).",
        discussion: "Example:\n  icskit log 1f0e…@icskit --duration 25m --interrupted")

    @Argument(help: "The todo's UID.")
    var uid: String

    @Option(help: "How long: 25m, 1h, 1h30m.")
    var duration: String

    @Flag(help: "The work was cut short.")
    var interrupted = false

    @OptionGroup var store: StoreOption

    func run() throws {
        let store = try store.open()
        guard let (calendar, component) = try store.item(uid: uid), case .todo(let todo) = component else {
            throw ValidationError("no todo with UID \(uid) in the store")
        }
        guard case .success(let length) = AddCommand.duration(duration), !length.isNegative else {
            throw ValidationError("--duration takes 25m, 1h or 1h30m, not \(duration)")
        }
        let entry = TimeLog.entry(for: todo, duration: length, interrupted: interrupted)
        try store.add(.journal(entry), to: calendar)
        Output.print("logged \(length.totalSeconds / 60) minutes on \(todo.summary ?? uid)")
    }
}
