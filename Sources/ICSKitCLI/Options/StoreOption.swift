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
    /// `--store`, else `ICSKIT_STORE`, else the config file's `store`, else `$XDG_DATA_HOME/icskit/store.sqlite`.
    func resolvedPath() throws -> String { try path ?? UserConfig.storePath() }

    func open(_ access: CalendarStore.Access = .readWrite) throws -> CalendarStore {
        let path = try resolvedPath()
        do {
            return try CalendarStore(path: path, access: access, changeLabel: Self.commandLine())
        } catch let error as StoreError {
            throw CommandFailure(error.description)
        } catch {
            throw CommandFailure(
                StoreError(translating: error, store: path)?.description ?? ErrorText.line(error, subject: path))
        }
    }

    /// The command line as the undo log names a command's changes: words with spaces or quotes in quotes, URLs
    /// without their user information (a password must not reach the store).
    static func commandLine(_ arguments: [String] = CommandLine.arguments) -> String {
        (["icskit"] + arguments.dropFirst()).map { argument in
            let text = withoutUserInfo(argument)
            guard text.isEmpty || text.contains(where: { " \t\"'\\$`".contains($0) }) else { return text }
            return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }

    /// `argument` with the user information of the URL in it (`https://ana:secret@…`, `--caldav=https://…`) taken
    /// out: neither the password nor the user name is kept.
    static func withoutUserInfo(_ argument: String) -> String {
        guard argument.contains("://") else { return argument }
        if argument.hasPrefix("-"), let equals = argument.firstIndex(of: "="), !argument[..<equals].contains("://") {
            return String(argument[...equals]) + URLUserInfo(String(argument[argument.index(after: equals)...])).url
        }
        return URLUserInfo(argument).url
    }

    /// The short handles text lists end their lines with (`id:1e78a2`, which `done`, `rm`, `log` and `edit` take):
    /// only for what was read from the store (no `files`), and not when `hidden` (`--no-ids`).
    func handles(files: [String], hidden: Bool, for uids: Set<String>) throws -> [String: String] {
        guard files.isEmpty, !hidden, !uids.isEmpty else { return [:] }
        return try open(.readOnly).shortHandles(for: uids)
    }
}

/// Shell completion of calendar names from the store the command line names (`--store PATH`), else the default
/// one: `icskit agenda --calendar W<TAB>` offers `Work`. Nothing when the store does not exist or cannot be read.
enum CalendarCompletion {
    static let kind = CompletionKind.custom { arguments, _, prefix in names(arguments: arguments, prefix: prefix) }

    static func names(arguments: [String], prefix: String) -> [String] {
        var path = (try? UserConfig.storePath()) ?? CalendarStore.defaultPath()
        if let index = arguments.firstIndex(of: "--store"), arguments.indices.contains(index + 1) {
            path = arguments[index + 1]
        } else if let given = arguments.first(where: { $0.hasPrefix("--store=") }) {
            path = String(given.dropFirst("--store=".count))
        }
        guard FileManager.default.fileExists(atPath: path),
            let store = try? CalendarStore(path: path, access: .readOnly),
            let calendars = try? store.calendars()
        else { return [] }
        return calendars.map(\.name).filter { $0.hasPrefix(prefix) }
    }
}
