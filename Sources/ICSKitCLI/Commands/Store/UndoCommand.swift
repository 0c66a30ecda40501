import ArgumentParser
import CalendarStore
import Foundation

/// `icskit undo`: takes back the last command that changed the store (rm, edit, add, done, import, merge, sync,
/// refresh, calendars …), whole, in one transaction; again for the one before, up to the last 20.
struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo", abstract: "Take back the last command that changed the store.",
        discussion: """
            Every command that changes the store is recorded, with its command line, so that it can be taken back: \
            the items it added go, the ones it changed or deleted come back as they were, and so do merge bases, \
            time zones, calendars and categories. Each undo takes back one command, newest first; the store keeps \
            the last 20. For a calendar synced with a CalDAV server or a vdir, undo changes the store and leaves what \
            the server holds: the next sync carries the undo there (undoing a sync puts back what it changed here, \
            and the next sync writes that back to the server). An export written to a file stays as it is.

            Examples:
              icskit undo --list
              icskit undo --dry-run
              icskit undo
            """)

    @Flag(help: "List the commands that can be taken back, newest first, and change nothing.")
    var list = false

    @Flag(help: "Say what the undo would do and change nothing.")
    var dryRun = false

    @OptionGroup var store: StoreOption

    func run() throws {
        if list {
            let steps = try store.open(.readOnly).undoSteps()
            if steps.isEmpty { Output.print("nothing to undo") }
            for step in steps { Output.line("\(Self.time(step.at))  \(step.label)") }
            return
        }
        // Nothing to take back needs no store made (or upgraded) for it.
        guard try !store.open(.readOnly).undoSteps().isEmpty, let result = try store.open().undo(dryRun: dryRun) else {
            Output.print("nothing to undo")
            return
        }
        Output.line((dryRun ? "would undo: " : "undone: ") + "\(result.step.label) (\(Self.time(result.step.at)))")
        Output.print(Self.summary(result, dryRun: dryRun))
        for bound in result.partners {
            Output.line(
                "\(bound.calendar) is synced with \(bound.partner): the next sync carries this there "
                    + "(icskit sync \(bound.calendar))")
        }
    }

    static func summary(_ result: UndoResult, dryRun: Bool) -> String {
        let parts = [
            (result.removed, dryRun ? "to remove" : "removed"), (result.restored, dryRun ? "to restore" : "restored"),
            (result.reverted, dryRun ? "to change back" : "changed back"),
        ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        let items = parts.isEmpty ? "no items" : "items: " + parts.joined(separator: ", ")
        return result.otherRows > 0 ? "\(items); \(result.otherRows) other rows (merge bases, zones, …)" : items
    }

    /// The step's time in the local zone, to the minute.
    static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
