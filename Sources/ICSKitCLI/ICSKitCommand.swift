import ArgumentParser
import CalendarModel
import Foundation

/// `icskit`: the root command; `main()` parses the arguments, runs the subcommand and maps failures to ICSKit's
/// exit statuses. The `icskit` executable calls it and does nothing else.
public struct ICSKitCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "icskit",
        abstract: "Read, check and convert iCalendar (RFC 5545) files.",
        discussion: """
            Exit status: 0 success; 1 problems found in the data, a file that failed, a merge refused or left with \
            conflicts, a store that cannot be opened or is damaged, or output that could not be written; 2 usage \
            errors.
            """,
        version: ICS.version,
        subcommands: [
            ConvertCommand.self, ValidateCommand.self, AgendaCommand.self, TodoCommand.self,
            ImportCommand.self, ExportCommand.self, MergeCommand.self, DoneCommand.self, UndoneCommand.self,
            WeekCommand.self, TodayCommand.self,
            RemoveCommand.self,
            CheckStoreCommand.self, AddCommand.self, EditCommand.self, CategoriesCommand.self, LogCommand.self,
            FreeBusyCommand.self, SubscribeCommand.self, RefreshCommand.self, UnsubscribeCommand.self,
            SyncCommand.self, SearchCommand.self, ShowCommand.self, CalendarsCommand.self, RemindCommand.self,
            UndoCommand.self, ConfigCommand.self, InviteCommand.self, ReplyCommand.self, ShareCommand.self,
            ServeCommand.self, PublishCommand.self,
        ]
    )

    /// ArgumentParser exits 64 on usage errors; ICSKit promises 2, as grep, diff and khal do. A runtime error is
    /// one line and exit 1; so is output that could not be written, however far the command got.
    public init() {}

    public static func main() {
        // Parsing and `validate()`: usage errors, printed with the subcommand's usage, exit 2.
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }  // --help, --version
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
        }
        if let command = command as? any ChecksWhatIsGiven {
            do {
                try command.checkGiven()
            } catch {
                let name = type(of: command).configuration.commandName ?? ""
                let text = "Error: \(ErrorText.line(error))\n  See 'icskit \(name) --help' for more information.\n"
                FileHandle.standardError.write(Data(text.utf8))
                Foundation.exit(2)
            }
        }
        // Running: whatever goes wrong now (a missing file, a date that does not read, an unknown UID or zone) is
        // one line and exit 1, without the usage text.
        do {
            try command.run()
            try Output.flushStandardOutput()
        } catch let failure as CommandFailure {
            fail(failure.message, status: failure.status)
        } catch let failure as OutputError {
            fail(failure.description, status: 1)
        } catch let failure as ValidationError {
            fail(failure.message, status: 1)
        } catch let exit as ExitCode {
            // What was printed before the failing status still has to reach its reader.
            do { try Output.flushStandardOutput() } catch { fail(ErrorText.line(error), status: 1) }
            Foundation.exit(exit.rawValue)
        } catch {
            // `icskit agenda --help` parses as the help command, which "fails" with the help text.
            if exitCode(for: error) == .success { exit(withError: error) }
            fail(ErrorText.line(error), status: 1)
        }
    }

    private static func fail(_ message: String, status: Int32) -> Never {
        _ = try? Output.flushStandardOutput()
        Output.standardError("icskit: " + message)
        Foundation.exit(status)
    }
}

/// A command that needs something given ("say what to change"), checked once the whole command line has parsed:
/// ArgumentParser runs `validate()` before it looks for options it does not know, so a check there would hide a
/// misspelt option (`edit tea --title X` said "say what to change" instead of naming `--title`). Usage, exit 2.
protocol ChecksWhatIsGiven: ParsableCommand {
    func checkGiven() throws
}

/// A command that could not do its work for a reason that is not a usage error (a store that cannot be opened, a
/// merge refused): one line on standard error, and exit status 1 unless another is given.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var status: Int32 = 1

    init(_ message: String, status: Int32 = 1) {
        self.message = message
        self.status = status
    }

    var description: String { message }
}
