import ArgumentParser
import CalendarModel
import CalendarServe
import CalendarStore
import Foundation

/// `icskit share`: a secret feed address for store calendars, at a level that shows only what the owner chooses.
struct ShareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Share store calendars as a secret feed address others subscribe to: busy only, titles, or all.",
        discussion: """
            The address (<base>/feeds/<token>.ics, 256 random bits) is printed once, on standard output: the store \
            keeps only its SHA-256. `icskit serve` answers it; `icskit publish --to DIR` writes the same feeds as \
            files for any web server. Levels (docs/SHARING.md has the rules and their sources):
              busy    each busy time and whether it is tentative or out of office; nothing else
              titles  busy, and each item's title and location
              full    everything but alarms and ICSKit's own properties
            Whatever the level, CLASS:PRIVATE and CONFIDENTIAL items show as busy only; TRANSP:TRANSPARENT and \
            cancelled items are left out; todos only with --todos.
            Examples:
              icskit share Work --level busy --base-url https://cal.example.org
              icskit share Work Home --level titles --name family --for outlook
              icskit share --list
              icskit share --reset family        # a new address, the old one dead
              icskit share --revoke family       # or the address, or its token
            """)

    @Argument(help: "The store calendars to share.", completion: CalendarCompletion.kind)
    var calendars: [String] = []

    @Option(help: "What the feed shows: busy, titles or full.")
    var level: ShareLevel = .busy

    @Option(
        parsing: .unconditional,
        help: "The instants the feed covers, relative to each fetch: -30d..+12mo (d, w, mo, y; at most 5y either way).")
    var window = "-30d..+12mo"

    @Option(
        name: .customLong("for"),
        help: ArgumentHelp("Write the feed for this app: outlook, google or apple.", valueName: "app"))
    var app: TargetApp?

    @Option(help: "The address the feeds are served under (default: http://127.0.0.1:8080, `icskit serve`'s).")
    var baseURL: String?

    @Flag(help: "Share todos too (left out otherwise).")
    var todos = false

    @Option(help: "The share's name (default: the calendars and the level, Work-busy).")
    var name: String?

    @Flag(help: "List the shares (never their addresses).")
    var list = false

    @Option(help: ArgumentHelp("End a share, named by its name, address or token.", valueName: "name-or-token"))
    var revoke: String?

    @Option(
        help: ArgumentHelp("Give a share a new address; the old one answers nothing from now on.", valueName: "name"))
    var reset: String?

    @Option(help: "Also write the new feed as a file into this folder (what `icskit publish` keeps up to date).")
    var publish: String?

    @OptionGroup var store: StoreOption

    static let defaultBase = "http://127.0.0.1:8080"

    func validate() throws {
        let actions = [list, revoke != nil, reset != nil, !calendars.isEmpty].filter { $0 }.count
        guard actions == 1 else {
            throw ValidationError("name the calendars to share, or one of --list, --revoke NAME, --reset NAME")
        }
        guard SharedFeed.window(window, now: Date()) != nil else {
            throw ValidationError(
                "--window takes -30d..+12mo (a signed number and d, w, mo or y at each end), not \(window)")
        }
        if let baseURL, URL(string: baseURL)?.scheme.map({ ["http", "https"].contains($0) }) != true {
            throw ValidationError("--base-url takes an http or https address, not \(baseURL)")
        }
        if let name, name.isEmpty || name.contains(where: { $0.isNewline }) {
            throw ValidationError("--name takes one line of text")
        }
    }

    func run() throws {
        let store = try store.open()
        if list { return try listShares(store) }
        if let revoke { return try revokeShare(revoke, store) }
        if let reset { return try resetShare(reset, store) }
        let token = FeedToken.make()
        let record = ShareRecord(
            name: name ?? calendars.joined(separator: "+") + "-" + level.rawValue, level: level, calendars: calendars,
            window: window, app: app?.rawValue, todos: todos, baseURL: baseURL, tokenHash: FeedToken.hash(token),
            uidKey: FeedToken.makeKey())
        do { try store.addShare(record) } catch let error as StoreError { throw CommandFailure(error.description) }
        try announce(
            record, token: token, store: store,
            made: "Shared \(calendars.joined(separator: ", ")) at the \(level.rawValue) level as \"\(record.name)\"")
    }

    /// Prints the address (standard output, alone, for scripts) and what to know about it (standard error).
    private func announce(_ record: ShareRecord, token: String, store: CalendarStore, made: String) throws {
        let base = (record.baseURL ?? Self.defaultBase).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        Output.print(base + "/feeds/" + token + ".ics")
        if let publish {
            let path = try PublishCommand.write(record, token: token, into: publish, store: store)
            Output.standardError("Wrote \(path).")
        }
        Output.standardError(
            """
            \(made) (window \(record.window)\(record.todos ? ", todos too" : "")).
            The address is shown this once: the store keeps only a hash of it. Whoever has it sees the feed; \
            `icskit share --revoke \(record.name)` ends it.
            Answer it with `icskit serve`, or write it as a file with `icskit publish --to DIR`.
            """)
    }

    private func listShares(_ store: CalendarStore) throws {
        let shares = try store.shares()
        if shares.isEmpty { Output.print("No shares. Make one with `icskit share CALENDAR --level busy`.") }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        for share in shares {
            var details = [share.level.rawValue, share.window, share.calendars.joined(separator: ", ")]
            if let app = share.app { details.append("for \(app)") }
            if share.todos { details.append("todos") }
            details.append("made \(formatter.string(from: share.created))")
            Output.print(share.name + "  " + details.joined(separator: " · "))
        }
    }

    private func revokeShare(_ given: String, _ store: CalendarStore) throws {
        let hash = Self.token(in: given).map { FeedToken.hash(String($0)) }
        let shares = try store.shares()
        let named =
            shares.first { $0.name == given }
            ?? hash.flatMap { hash in shares.first { FeedToken.equal($0.tokenHash, hash) } }
        guard let named, try store.removeShare(named: named.name) else {
            throw CommandFailure(
                "no share named \"\(given)\", and no share has that address; `icskit share --list` lists them")
        }
        Output.print("Revoked the share \"\(named.name)\": its address answers nothing from now on.")
    }

    private func resetShare(_ name: String, _ store: CalendarStore) throws {
        guard var record = try store.shares().first(where: { $0.name == name }) else {
            throw CommandFailure("no share named \"\(name)\"; `icskit share --list` lists them")
        }
        let token = FeedToken.make()
        record.tokenHash = FeedToken.hash(token)
        try store.replaceShareToken(named: name, tokenHash: record.tokenHash)
        try announce(record, token: token, store: store, made: "Gave \"\(name)\" a new address; the old one is dead")
    }

    /// The token in an address or given alone: 43 URL-safe base64 characters, before `.ics` or `/freebusy`.
    static func token(in text: String) -> Substring? {
        var rest = Substring(text)
        if let feeds = text.range(of: "/feeds/") { rest = text[feeds.upperBound...] }
        if let end = rest.firstIndex(where: { $0 == "." || $0 == "/" || $0 == "?" }) { rest = rest[..<end] }
        return FeedToken.isWellFormed(rest) ? rest : nil
    }
}

extension ShareLevel: ExpressibleByArgument {}
