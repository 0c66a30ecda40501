import ArgumentParser
import CalendarMerge
import CalendarModel
import CalendarStore
import CalendarStoreSync
import CalendarSync
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `icskit subscribe URL --into CAL`: registers a web calendar and fetches it.
struct SubscribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscribe",
        abstract: "Subscribe a store calendar to a web calendar (webcal:// or http(s)://) and fetch it.",
        discussion: """
            webcal:// is https://. Redirects are followed; a permanent one (301, 308) is remembered. The feed is \
            merged as `merge` merges a file, with the same guards; `icskit refresh` fetches it again. With --user, \
            the password comes from $ICSKIT_PASSWORD, ~/.netrc, or a prompt on a terminal; it is never stored. A user \
            name and password written in the URL (https://ana:secret@host/…) are used for that run only: the URL is \
            kept and shown without them.

            Examples:
              icskit subscribe webcal://example.com/holidays.ics --into Holidays
              icskit subscribe https://school.example/term.ics --into School \\
                --user ana --no-fetch
            """)

    @Argument(help: "The feed's URL.")
    var url: String

    @Option(help: "The store calendar the feed fills (created if missing).", completion: CalendarCompletion.kind)
    var into: String

    @Option(help: "The user name for HTTP authentication.")
    var user: String?

    @Flag(name: .customLong("no-fetch"), help: "Only register the subscription.")
    var noFetch = false

    @OptionGroup var refreshing: RefreshOptions

    @OptionGroup var store: StoreOption

    func validate() throws {
        guard Feed.httpURL(url) != nil else {
            throw ValidationError("\(URLUserInfo.redacting(url)) is not a webcal://, http:// or https:// URL")
        }
    }

    func run() throws {
        // A user name and password in the URL are this run's credentials; the URL is kept and shown without them.
        let given = URLUserInfo(url)
        let url = given.url
        let runCredentials = Password.fromURL(given, user: user)
        let store = try store.open()
        if let existing = try store.subscription(calendar: into), existing.url != url {
            throw CommandFailure("\(into) is already subscribed to \(existing.url); `icskit unsubscribe \(into)` first")
        }
        let known = try store.subscription(calendar: into)
        let calendarExisted = try store.hasCalendar(named: into)
        var subscription = known ?? Subscription(calendar: into, url: url)
        subscription.user = user ?? given.user ?? subscription.user
        // A dry run registers nothing: it shows what the first fetch would merge.
        let dryRun = refreshing.merging.dryRun
        if !dryRun { try store.save(subscription) }
        if noFetch {
            Output.print("\(into): \(dryRun ? "would subscribe" : "subscribed") to \(url)")
            return
        }
        do {
            try refreshing.refresh([subscription], store: store, credentials: runCredentials)
        } catch {
            // A first subscription whose feed could not be fetched is not kept (nor the calendar made for it).
            if known == nil, !dryRun, try store.subscription(calendar: into)?.fetchedAt == nil {
                try store.removeSubscription(calendar: into)
                if !calendarExisted, try store.calendars().first(where: { $0.name == into })?.itemCount == 0 {
                    _ = try store.removeCalendar(into)
                }
                Output.standardError("icskit: \(into): not subscribed, since the feed could not be fetched")
            }
            throw error
        }
    }
}

/// `icskit refresh [CAL…]`: fetches subscriptions and merges what changed.
struct RefreshCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Fetch subscribed web calendars and merge what changed.",
        discussion: """
            Each feed is asked with the validators of its last answer (If-None-Match, If-Modified-Since): 304 means \
            nothing to do. A body byte for byte the last one merged is not merged again, whatever the validators \
            say, and a feed is read in full at least once a day even when it keeps answering 304. A feed's \
            REFRESH-INTERVAL or X-PUBLISHED-TTL is the least time between two fetches unless --force. A feed that \
            gives its items new UIDs on every fetch is matched by content. An empty or cut-off feed deletes nothing \
            without --force-delete.

            Exit status: 0 ok; 1 a feed that could not be fetched or merged (the others are still refreshed).

            Examples:
              icskit refresh
              icskit refresh Holidays --force --json
            """)

    @Argument(help: "Calendars to refresh (default: every subscription).", completion: CalendarCompletion.kind)
    var calendars: [String] = []

    @OptionGroup var refreshing: RefreshOptions

    @OptionGroup var store: StoreOption

    func run() throws {
        let store = try store.open()
        let all = try store.subscriptions()
        let unknown = calendars.filter { name in !all.contains { $0.calendar == name } }
        if !unknown.isEmpty {
            throw CommandFailure(
                "no subscription feeds " + unknown.joined(separator: ", ") + " (see `icskit subscribe`)")
        }
        let chosen = calendars.isEmpty ? all : all.filter { calendars.contains($0.calendar) }
        if chosen.isEmpty, !refreshing.json {
            Output.print("no subscriptions (see `icskit subscribe`)")
            return
        }
        try refreshing.refresh(chosen, store: store)
    }
}

/// `icskit unsubscribe CAL`: ends a subscription; the calendar and its items stay.
struct UnsubscribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unsubscribe", abstract: "End a calendar's subscription; its items stay in the store.")

    @Argument(help: "The subscribed calendar.", completion: CalendarCompletion.kind)
    var calendar: String

    @OptionGroup var store: StoreOption

    func run() throws {
        guard try store.open().removeSubscription(calendar: calendar) else {
            throw CommandFailure("\(calendar) has no subscription")
        }
        Output.print("\(calendar): unsubscribed; its items stay")
    }
}

/// What `subscribe` and `refresh` share: how a feed is asked and merged, and how it is reported.
struct RefreshOptions: ParsableArguments {
    @Flag(help: "Fetch even before the feed's refresh interval has passed, and ask unconditionally.")
    var force = false

    @Option(
        name: .customLong("max-size"),
        help: ArgumentHelp(
            "The largest feed read, in MB (decompressed); a larger one changes nothing.", valueName: "MB"))
    var maxSize = Feed.defaultMaxSize >> 20

    @Option(
        name: .customLong("max-items"),
        help: ArgumentHelp(
            "The most events, todos and journals a feed may hold; one with more changes nothing.", valueName: "N"))
    var maxItems = Feed.defaultMaxItems

    @OptionGroup var merging: MergeGuardOptions

    @OptionGroup var network: NetworkOptions

    @Flag(help: "Print one JSON object per run: per calendar, what happened and the counts.")
    var json = false

    @Flag(name: .shortAndLong, help: "No progress line and no warnings on standard error (errors still show).")
    var quiet = false

    func validate() throws {
        if !(1...512).contains(maxSize) { throw ValidationError("--max-size takes a size in MB, 1 to 512") }
        if !(1...1_000_000).contains(maxItems) { throw ValidationError("--max-items takes a count, 1 to 1000000") }
    }

    /// Refreshes each subscription in turn; one that fails is reported and the others still run (exit 1 at the end).
    /// `credentials`, when given, are used instead of looking the password up (a password given in a URL).
    func refresh(
        _ subscriptions: [Subscription], store: CalendarStore, credentials: (user: String, password: String)? = nil
    ) throws {
        var options = Feed.Options()
        options.force = force
        options.maxSize = maxSize << 20
        options.maxItems = maxItems
        merging.apply(to: &options.merge)
        options.merge.labelsEveryItem = json
        var failed = false
        var reports: [JSONValue] = []
        let progress = Progress.onTerminal(quiet: quiet || json)
        for subscription in subscriptions {
            do {
                let client = network.client(
                    credentials: try credentials
                        ?? Password.credentials(url: subscription.fetchURL, user: subscription.user))
                progress.phase("\(subscription.calendar): fetching \(subscription.fetchURL)")
                defer { progress.finish() }
                let report = try Feed.refresh(subscription, store: store, client: client, options: options)
                progress.finish()
                if !quiet {
                    CalendarFiles.report(report.diagnostics.filter { $0.severity == .error }, quiet: quiet)
                    for note in report.notes { Output.standardError("\(subscription.calendar): \(note)") }
                }
                if case .merged(let result) = report.outcome, result.withheldDeletions > 0 || result.unresolved > 0 {
                    failed = true
                    if result.withheldDeletions > 0 {
                        Output.standardError(
                            "\(subscription.calendar): the feed ended early (truncated), so the "
                                + "\(result.withheldDeletions) item(s) it lacks were not deleted")
                    }
                }
                if json {
                    reports.append(Self.json(report, dryRun: merging.dryRun))
                } else {
                    Self.printText(report, dryRun: merging.dryRun, verbose: merging.verbose)
                }
            } catch let refusal as MergeRefusal {
                failed = true
                Output.standardError("icskit: \(subscription.calendar): merge refused: \(refusal)")
                if json { reports.append(Self.failure(subscription, "merge refused: \(refusal)")) }
            } catch let failure as HTTPFailure {
                failed = true
                let hint =
                    failure.isTooLarge
                    ? " (--max-size MB raises the limit)" : failure.isTooManyItems ? " (--max-items N raises it)" : ""
                Output.standardError("icskit: \(subscription.calendar): \(failure)\(hint)")
                if json { reports.append(Self.failure(subscription, failure.description)) }
            } catch let missing as CommandFailure {
                // No password at hand for this feed: skipped, and the others still asked.
                failed = true
                Output.standardError("icskit: \(subscription.calendar): skipped: \(missing.message)")
                if json { reports.append(Self.failure(subscription, "skipped: " + missing.message)) }
            }
        }
        if json { Output.print(JSONValue.object([("feeds", .array(reports))]).serialized(pretty: true)) }
        if failed { throw ExitCode(1) }
    }

    static func printText(_ report: Feed.Report, dryRun: Bool, verbose: Bool) {
        let name = report.calendar
        switch report.outcome {
        case .notDue(let next):
            let date = Date(timeIntervalSince1970: TimeInterval(next))
            Output.print("\(name): not due before \(ISO8601DateFormatter().string(from: date)) (--force asks now)")
        case .notModified: Output.print("\(name): not modified")
        case .unchanged: Output.print("\(name): unchanged")
        case .merged(let result):
            MergeReport.printText(result, dryRun: dryRun, prefix: "\(name): ", verbose: verbose)
        }
    }

    static func json(_ report: Feed.Report, dryRun: Bool) -> JSONValue {
        var fields: [(String, JSONValue)] = [("calendar", .string(report.calendar))]
        switch report.outcome {
        case .notDue(let next): fields += [("outcome", .string("not-due")), ("next_at", .int(Int(next)))]
        case .notModified: fields.append(("outcome", .string("not-modified")))
        case .unchanged: fields.append(("outcome", .string("unchanged")))
        case .merged(let result):
            fields += [("outcome", .string("merged")), ("merge", MergeReport.json(result, dryRun: dryRun))]
        }
        fields += [
            ("url", .string(report.subscription.url)),
            ("location", report.subscription.location.map(JSONValue.string) ?? .null),
            ("notes", .array(report.notes.map(JSONValue.string))),
        ]
        return .object(fields)
    }

    static func failure(_ subscription: Subscription, _ message: String) -> JSONValue {
        .object([
            ("calendar", .string(subscription.calendar)), ("outcome", .string("failed")),
            ("error", .string(message)),
        ])
    }
}

/// The password for `--user`: `$ICSKIT_PASSWORD`, `~/.netrc`, or a prompt without echo on a terminal; never printed
/// or stored.
enum Password {
    /// The credentials a URL holds (`https://ana:secret@host/`), for this run only, with a note on standard error
    /// that they are not kept and how to give the password instead. `user` (`--user`) names who they are for.
    static func fromURL(_ given: URLUserInfo, user: String?) -> (user: String, password: String)? {
        guard let password = given.password else { return nil }
        // A password without a user name is said to be unused, never announced as used and then dropped.
        guard let name = user ?? given.user, !name.isEmpty else {
            Output.standardError(
                "icskit: the URL holds a password but no user name, so it is not used; give --user NAME (the "
                    + "password then in ICSKIT_PASSWORD, ~/.netrc or at the prompt)")
            return nil
        }
        Output.standardError(
            "icskit: the password in the URL is used for this run only and is not stored or shown; next time give "
                + "--user \(name) and the password in ICSKIT_PASSWORD or ~/.netrc (or at the prompt)")
        return (name, password)
    }

    static func credentials(url: String, user: String?) throws -> (user: String, password: String)? {
        guard let host = Feed.httpURL(url)?.host else { return nil }
        if let found = Credentials.lookUp(host: host, user: user) { return found }
        guard let user else { return nil }
        guard isatty(STDIN_FILENO) == 1, let typed = getpass("Password for \(user) at \(host): ") else {
            throw CommandFailure("no password for \(user) at \(host): set ICSKIT_PASSWORD or add it to ~/.netrc")
        }
        return (user, String(cString: typed))
    }
}

/// How a command that goes on the network reaches servers: the deadline of each request and a private CA.
struct NetworkOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Seconds each request may take, its whole answer included (a server that stalls is cut off).",
            valueName: "SECONDS"))
    var timeout: Double = 30

    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp(
            "Also trust the CA certificates in this PEM file (a private CA); $SSL_CERT_FILE when not given.",
            valueName: "PEM"))
    var caFile: String?

    func validate() throws {
        if timeout <= 0 { throw ValidationError("--timeout takes a positive number of seconds") }
    }

    /// A client for these settings; HTTPS_PROXY, HTTP_PROXY and NO_PROXY come from the environment.
    func client(credentials: (user: String, password: String)?) -> HTTPClient {
        let environment = ProcessInfo.processInfo.environment
        return HTTPClient(
            timeout: timeout, credentials: credentials,
            caFile: caFile ?? environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }, environment: environment,
            warn: { Output.standardError("icskit: warning: " + $0) })
    }
}
