import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `icskit config`: what the store keeps about the user.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Show the settings in effect, or set what the store knows about you.",
        discussion: """
            icskit config prints each setting in effect (tz, calendar, first-weekday, color, store, me) and where it \
            comes from: the environment, the config file $XDG_CONFIG_HOME/icskit/config.toml (with its line), the \
            store, or the default. The file holds TOML, its keys named as the options are:

              tz = "Europe/Berlin"
              calendar = "Work"
              first-weekday = "sunday"
              color = "always"
              store = "~/calendars/store.sqlite"
              me = ["ana@example.com", "ana.lopez@work.example"]

            What a command line gives wins over the environment (ICSKIT_STORE, ICSKIT_ME), which wins over the \
            file, which wins over the defaults. ICSKIT_CONFIG names another file.

            icskit config me ADDRESSES keeps your addresses (comma-separated; aliases too) in the store: agenda and \
            show then mark invitations waiting for your answer without --me. --me and $ICSKIT_ME still win when \
            given. Without ADDRESSES it prints them; --clear forgets them. Setting them is a change icskit undo \
            takes back.

            Examples:
              icskit config me ana@example.com,ana.lopez@work.example
              icskit config me
              icskit config me --clear
            """)

    @Argument(
        help: ArgumentHelp("What to show or set: me (without it, every setting in effect).", valueName: "SETTING"))
    var setting: String?

    @Argument(help: ArgumentHelp("The new value (me: addresses, comma-separated).", valueName: "VALUE"))
    var value: String?

    @Flag(help: "Forget the setting.")
    var clear = false

    @OptionGroup var store: StoreOption

    func validate() throws {
        guard let setting else {
            if clear || value != nil { throw ValidationError("say which setting: icskit config me …") }
            return
        }
        guard setting == "me" else { throw ValidationError("unknown setting \"\(setting)\"; there is: me") }
        if clear, value != nil { throw ValidationError("--clear takes no value") }
        if let value {
            let addresses = Identity.addresses(in: value)
            guard !addresses.isEmpty else { throw ValidationError("me: give at least one address") }
            if let bad = addresses.first(where: { !$0.contains("@") }) {
                throw ValidationError("me: \"\(bad)\" is no mail address")
            }
        }
    }

    func run() throws {
        guard setting != nil else { return try printSettings() }
        if clear || value != nil {
            let addresses = value.map(Identity.addresses(in:)) ?? []
            try store.open().setMyAddresses(addresses)
            Output.print(addresses.isEmpty ? "me: forgotten" : "me: " + addresses.joined(separator: ", "))
            return
        }
        let addresses = try store.open(.readOnly).myAddresses()
        Output.print(
            addresses.isEmpty
                ? "me: not set (icskit config me ADDRESSES keeps your addresses)" : addresses.joined(separator: ", "))
    }

    /// Each setting in effect and where it comes from.
    private func printSettings() throws {
        let config = try UserConfig.current()
        let environment = ProcessInfo.processInfo.environment
        func fromFile(_ key: String) -> (String, String)? {
            config[key].map { ($0.value, "\(config.path):\($0.line)") }
        }
        var rows: [(String, String, String)] = []
        let tz = fromFile("tz") ?? (ZoneClock.system().identifier, environment["TZ"] != nil ? "TZ" : "the system")
        rows.append(("tz", tz.0, tz.1))
        let calendar = fromFile("calendar") ?? ("Personal", "default")
        rows.append(("calendar", calendar.0, calendar.1))
        let weekday = fromFile("first-weekday") ?? ("monday", "default")
        rows.append(("first-weekday", weekday.0, weekday.1))
        let color = fromFile("color") ?? ("auto", "default")
        rows.append(("color", color.0, color.1))
        let storePath = try store.resolvedPath()
        let storeSource =
            store.path != nil
            ? "--store"
            : environment["ICSKIT_STORE"].flatMap { $0.isEmpty ? nil : "ICSKIT_STORE" } ?? fromFile("store")?.1
                ?? "default"
        rows.append(("store", storePath, storeSource))
        if let given = environment["ICSKIT_ME"] {
            rows.append(("me", given, "ICSKIT_ME"))
        } else if let me = fromFile("me") {
            rows.append(("me", me.0, me.1))
        } else {
            let kept = FileManager.default.fileExists(atPath: storePath) ? try store.open(.readOnly).myAddresses() : []
            rows.append(
                ("me", kept.isEmpty ? "(not set)" : kept.joined(separator: ","), kept.isEmpty ? "" : "the store"))
        }
        for (key, value, source) in rows {
            let padded = key.padding(toLength: 14, withPad: " ", startingAt: 0)
            Output.print(padded + value + (source.isEmpty ? "" : "  (" + source + ")"))
        }
        if !FileManager.default.fileExists(atPath: config.path) { Output.print("(no config file at \(config.path))") }
    }
}
