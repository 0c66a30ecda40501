import ArgumentParser
import CalendarStore
import Foundation

/// `icskit config`: what the store keeps about the user.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Show or set what the store knows about you.",
        discussion: """
            icskit config me ADDRESSES keeps your addresses (comma-separated; aliases too) in the store: agenda and \
            show then mark invitations waiting for your answer without --me. --me and $ICSKIT_ME still win when \
            given. Without ADDRESSES it prints them; --clear forgets them. Setting them is a change icskit undo \
            takes back.

            Examples:
              icskit config me ana@example.com,ana.lopez@work.example
              icskit config me
              icskit config me --clear
            """)

    @Argument(help: ArgumentHelp("What to show or set: me.", valueName: "SETTING"))
    var setting: String

    @Argument(help: ArgumentHelp("The new value (me: addresses, comma-separated).", valueName: "VALUE"))
    var value: String?

    @Flag(help: "Forget the setting.")
    var clear = false

    @OptionGroup var store: StoreOption

    func validate() throws {
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
}
