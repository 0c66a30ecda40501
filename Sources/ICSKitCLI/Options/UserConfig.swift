import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation
import TOMLKit

/// The config file, `$XDG_CONFIG_HOME/icskit/config.toml` (`~/.config/icskit/config.toml`; `ICSKIT_CONFIG` names
/// another): defaults for the options every command would otherwise need again, its keys named as the options are.
///
/// ```toml
/// tz = "Europe/Berlin"          # --tz
/// calendar = "Work"             # --calendar of add
/// first-weekday = "sunday"      # --first-weekday (this/next/last week)
/// color = "always"              # --color: auto, always or never
/// store = "~/calendars/store.sqlite"
/// me = ["ana@example.com", "ana.lopez@work.example"]
/// ```
///
/// What is given on the command line wins, then the environment (`ICSKIT_STORE`, `ICSKIT_ME`), then this file, then
/// the defaults. A file that cannot be read, or holds a key or value this does not know, stops every command with
/// its path, line and what to do.
struct UserConfig: Sendable {
    /// A value from the file and the line it is on.
    struct Entry: Sendable {
        let value: String
        let line: Int
    }

    static let keys = ["tz", "calendar", "first-weekday", "color", "store", "me"]

    let path: String
    private(set) var entries: [String: Entry] = [:]

    subscript(key: String) -> Entry? { entries[key] }

    /// Where the file is: `ICSKIT_CONFIG`, else `$XDG_CONFIG_HOME/icskit/config.toml`, else under `~/.config`.
    static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let given = environment["ICSKIT_CONFIG"], !given.isEmpty { return given }
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".config")
        return (base as NSString).appendingPathComponent("icskit/config.toml")
    }

    /// The file's settings (none when there is no file); throws a `CommandFailure` naming the file and line.
    static func load(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> UserConfig {
        var config = UserConfig(path: path(environment: environment))
        guard FileManager.default.fileExists(atPath: config.path) else { return config }
        guard let data = FileManager.default.contents(atPath: config.path) else {
            throw CommandFailure("\(config.path): cannot be read; check its permissions, or remove it")
        }
        let text = String(decoding: data, as: UTF8.self)
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw config.failure(error.source.begin.line, "is not TOML (\(error.description))")
        }
        let lines = text.components(separatedBy: "\n")
        for key in table.keys {
            // The line that sets it: the key, then `=` (a key that merely starts alike is another line).
            let line =
                lines.firstIndex { text in
                    let trimmed = text.trimmingCharacters(in: .whitespaces)
                    return trimmed.hasPrefix(key)
                        && trimmed.dropFirst(key.count).trimmingCharacters(in: .whitespaces).hasPrefix("=")
                }.map { $0 + 1 } ?? 1
            guard keys.contains(key) else {
                throw config.failure(
                    line, "has no setting \"\(key)\"; the settings are " + keys.joined(separator: ", "))
            }
            let value: String?
            if key == "me", let list = table[key]?.array {
                let addresses = list.compactMap(\.string)
                value = addresses.count == list.count ? addresses.joined(separator: ",") : nil
            } else {
                value = table[key]?.string
            }
            guard let value else {
                throw config.failure(
                    line, "\(key) must be a quoted string" + (key == "me" ? " or a list of them" : ""))
            }
            try config.check(key, value, line: line)
            config.entries[key] = Entry(value: value, line: line)
        }
        return config
    }

    private func check(_ key: String, _ value: String, line: Int) throws {
        switch key {
        case "tz" where ZoneClock(identifier: value) == nil:
            throw failure(line, "tz \"\(value)\" is no time zone (an IANA name such as Europe/Berlin)")
        case "first-weekday" where Weekday.named(value) == nil:
            throw failure(line, "first-weekday \"\(value)\" is no weekday (monday … sunday)")
        case "color" where ColorChoice(rawValue: value) == nil:
            throw failure(line, "color \"\(value)\" is none of auto, always, never")
        default: break
        }
    }

    private func failure(_ line: Int, _ what: String) -> CommandFailure {
        CommandFailure("\(path):\(line): \(what); fix or remove the line (icskit config shows what is in effect)")
    }

    /// The settings of this run, read once. A bad file stops the command that needs a setting (exit 1).
    static func current() throws -> UserConfig { try loaded.get() }

    private static let loaded: Result<UserConfig, CommandFailure> = {
        do { return .success(try load()) } catch let failure as CommandFailure { return .failure(failure) } catch {
            return .failure(CommandFailure("\(path()): \(error)"))
        }
    }()

    /// `--store`'s default: `ICSKIT_STORE`, else the file's `store` (`~` for the home folder), else
    /// `$XDG_DATA_HOME/icskit/store.sqlite`.
    static func storePath() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["ICSKIT_STORE"], !given.isEmpty { return given }
        if let store = try current()["store"]?.value { return (store as NSString).expandingTildeInPath }
        return CalendarStore.defaultPath()
    }
}

extension Weekday {
    /// `monday` … `sunday` (any case; `mon` … `sun` too).
    static func named(_ name: String) -> Weekday? {
        let lower = name.lowercased()
        let days: [(String, Weekday)] = [
            ("monday", .monday), ("tuesday", .tuesday), ("wednesday", .wednesday), ("thursday", .thursday),
            ("friday", .friday), ("saturday", .saturday), ("sunday", .sunday),
        ]
        return days.first { $0.0 == lower || (lower.count >= 3 && $0.0.hasPrefix(lower)) }?.1
    }
}
