import ArgumentParser
import Foundation

/// `icskit`: convert, validate and (later) keep calendars.
@main
struct ICSKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "icskit",
        abstract: "Read, check and convert iCalendar (RFC 5545) files.",
        discussion: """
            Exit status: 0 success, 1 problems found in the data (or a file failed), 2 usage errors.
            """,
        version: "0.1.0",
        subcommands: [ConvertCommand.self, ValidateCommand.self, AgendaCommand.self, TodoCommand.self,
                      ImportCommand.self, ExportCommand.self, MergeCommand.self, DoneCommand.self, RemoveCommand.self,
                      CheckStoreCommand.self, AddCommand.self, CategoriesCommand.self, LogCommand.self,
                      FreeBusyCommand.self]
    )

    /// ArgumentParser exits 64 on usage errors; ICSKit promises 2, as grep, diff and khal do.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
