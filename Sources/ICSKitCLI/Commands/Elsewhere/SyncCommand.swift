import ArgumentParser
import CalendarMerge
import CalendarModel
import CalendarStore
import CalendarStoreSync
import CalendarSync
import Foundation

/// `icskit sync CAL --vdir DIR`: two-way sync of a store calendar with a vdir (khal, todoman, vdirsyncer).
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync store calendars both ways with a CalDAV server or a vdir (khal, todoman, vdirsyncer).",
        discussion: """
            The first `icskit sync CAL --caldav URL` (a calendar collection; `icskit sync --discover URL` lists an \
            account's) or `icskit sync CAL --vdir DIR` binds the calendar (created when missing); later \
            `icskit sync` syncs every bound calendar. With --user, the password comes from $ICSKIT_PASSWORD, \
            ~/.netrc or a prompt, and is never stored (one written in the URL is used for that run only, and the URL \
            kept without it). Changes on each side since the last sync are \
            merged three-way per UID and RECURRENCE-ID: an edit on one side is taken, an item deleted on one side \
            and unchanged on the other is deleted, an edit beats a deletion, and when both sides changed an item \
            --prefer decides. Each UID with its overrides is one resource, written only if unchanged since it was \
            read (If-Match); one someone changes while the sync runs is left for the next sync. An emptied \
            collection or directory deletes nothing without --force-delete.

            A resource the server refuses (HTTP 400, 403, 409, 413, 415, 507) is reported by title with the \
            server's reason, stays in the store and does not stop the others; it is not sent again until it \
            changes, and later syncs that leave it be succeed. --repair writes each item as convert --repair does \
            (what strict servers refuse, mended) and sends the refused ones again. Changed instances without their series (Google exports hold them) are written with the \
            series they belong to, as convert --repair writes them, which servers accept.

            Exit status: 0 ok; 1 a sync refused, a resource refused by this sync, conflicts left or files deferred; \
            2 usage.

            Examples:
              icskit sync --discover https://cal.example.com --user ana
              icskit sync Work --caldav https://cal.example.com/ana/work/ --user ana
              icskit sync Personal --vdir ~/.calendars/personal
              icskit sync --dry-run
              icskit sync --json
            """)

    @Argument(help: "Calendars to sync (default: every bound calendar).", completion: CalendarCompletion.kind)
    var calendars: [String] = []

    @Option(help: "Bind the calendar to this vdir (one calendar at a time).")
    var vdir: String?

    @Option(help: "Bind the calendar to this CalDAV calendar collection (one calendar at a time).")
    var caldav: String?

    @Option(help: "List the calendars of the CalDAV account at this URL, and stop.")
    var discover: String?

    @Option(help: "The user name for the CalDAV server.")
    var user: String?

    @Option(
        name: .customLong("max-resources"),
        help: "The most resources a CalDAV collection may list; a larger listing syncs nothing.")
    var maxResources = CalDAVStorage.defaultMaxResources

    @OptionGroup var network: NetworkOptions

    @OptionGroup var merging: MergeGuardOptions

    @Flag(
        help: """
            Write each item as `convert --repair` writes it (what strict servers refuse, mended) and send again \
            what the server refused before.
            """)
    var repair = false

    @Flag(help: "Print one JSON object: per calendar, what each side took.")
    var json = false

    @Flag(name: .shortAndLong, help: "No progress line and no warnings on standard error (errors still show).")
    var quiet = false

    @OptionGroup var store: StoreOption

    func validate() throws {
        if vdir != nil || caldav != nil, calendars.count != 1 {
            throw ValidationError("--vdir and --caldav bind one calendar: name it")
        }
        if vdir != nil, caldav != nil { throw ValidationError("--vdir or --caldav, not both") }
        if maxResources < 1 { throw ValidationError("--max-resources takes a positive number") }
        if let url = caldav ?? discover, Feed.httpURL(url) == nil {
            throw ValidationError("\(URLUserInfo.redacting(url)) is not an http(s) URL")
        }
    }

    func run() throws {
        if let discover { return try listCalendars(at: URLUserInfo(discover)) }
        // A user name and password in the --caldav URL are this run's credentials for the calendar it binds.
        let runCredentials = caldav.flatMap { Password.fromURL(URLUserInfo($0), user: user) }
        let store = try store.open()
        // A binding made by this run: taken back when its first sync fails before it reached the partner.
        let wasBound = try Set(store.partners().map { $0.calendar + "\u{1F}" + $0.identity })
        let chosen = try partners(store)
        var options = TwoWaySync.Options()
        merging.apply(to: &options.merge)
        options.repair = repair
        options.merge.labelsEveryItem = json
        let progress = Progress.onTerminal(quiet: quiet || json)
        var failed = false
        var reports: [JSONValue] = []
        for partner in chosen {
            let calendar = partner.calendar
            progress.phase("\(calendar): asking \(partner.location) what changed")
            options.progress = { progress.phase("\(calendar): " + $0) }
            defer { progress.finish() }
            do {
                let report = try sync(
                    partner, store: store, options: options,
                    credentials: partner.calendar == calendars.first ? runCredentials : nil)
                progress.finish()
                if say(report, of: calendar) { failed = true }
                if json {
                    reports.append(Self.json(report, partner, dryRun: merging.dryRun))
                } else {
                    Self.printText(report, partner, dryRun: merging.dryRun)
                }
            } catch let refusal as MergeRefusal {
                failed = true
                Output.standardError("icskit: \(calendar): sync refused: \(refusal)")
            } catch let failure as SyncStorageError {
                failed = true
                Output.standardError("icskit: \(calendar): \(failure)")
                try unbindNew(partner, wasBound: wasBound, store: store)
            } catch let failure as HTTPFailure {
                failed = true
                Output.standardError("icskit: \(calendar): \(failure)")
                try unbindNew(partner, wasBound: wasBound, store: store)
            }
        }
        if json { Output.print(JSONValue.object([("calendars", .array(reports))]).serialized(pretty: true)) }
        if failed { throw ExitCode(1) }
    }

    /// Says what a sync left to do: errors, resources changed during it, refusals (a refused resource stays in the
    /// store and does not stop the others). Whether the sync failed: an unresolved conflict, a deferred resource
    /// or a new refusal (one said before does not fail every later sync).
    private func say(_ report: TwoWaySync.Report, of calendar: String) -> Bool {
        CalendarFiles.report(report.diagnostics.filter { $0.severity == .error }, quiet: quiet)
        for href in report.deferred where !quiet {
            Output.standardError("\(calendar): \(href) changed during the sync; the next sync merges it")
        }
        let hint =
            repair
            ? ""
            : "; `icskit sync \(calendar) --repair` sends it as `convert --repair` writes it, which servers take"
        for refusal in report.refused {
            let what = "\"\(refusal.title ?? "(no title)")\" (\(refusal.uid))"
            Output.standardError(
                refusal.isNew
                    ? "\(calendar): the server refused \(what): \(refusal.reason); kept in the store, sent "
                        + "again when it changes\(hint)"
                    : "\(calendar): \(what) is unchanged since the server refused it (\(refusal.reason)); "
                        + "not sent again\(hint)")
        }
        return report.pulled.unresolved > 0 || !report.deferred.isEmpty || report.refused.contains(where: \.isNew)
    }

    /// A binding this run made, whose first sync failed before it reached the partner, is taken back and said.
    func unbindNew(_ partner: SyncPartner, wasBound: Set<String>, store: CalendarStore) throws {
        guard !merging.dryRun, !wasBound.contains(partner.calendar + "\u{1F}" + partner.identity),
            try store.unbindIfNeverSynced(partner)
        else {
            return
        }
        Output.standardError(
            "icskit: \(partner.calendar): not bound to \(partner.location), since it could not be reached")
    }

    /// `--discover`: the account's calendar collections, one a line.
    func listCalendars(at address: URLUserInfo) throws {
        let url = Feed.httpURL(address.url)!
        let client = network.client(
            credentials: try Password.fromURL(address, user: user)
                ?? Password.credentials(url: address.url, user: user ?? address.user))
        do {
            for calendar in try CalDAVDiscovery.calendars(at: url, client: client) {
                Output.print(
                    calendar.url.absoluteString + (calendar.displayName.map { "  \($0)" } ?? "")
                        + (calendar.color.map { "  \($0)" } ?? ""))
            }
        } catch let failure as SyncStorageError {
            throw CommandFailure(failure.description)
        } catch let failure as HTTPFailure {
            throw CommandFailure(failure.description)
        }
    }

    /// Binds the calendar named with --vdir or --caldav, then the bound calendars to sync: those named, or all.
    func partners(_ store: CalendarStore) throws -> [SyncPartner] {
        if let vdir, let calendar = calendars.first {
            let path = URL(fileURLWithPath: vdir).standardizedFileURL.path
            let partner = SyncPartner(calendar: calendar, kind: .vdir, location: path)
            try Self.requireUnbound(partner, store: store)
            try store.bind(partner)
        }
        if let caldav, let calendar = calendars.first {
            let given = URLUserInfo(caldav)
            let url = Feed.httpURL(given.url)!.absoluteString
            let partner = SyncPartner(
                calendar: calendar, kind: .caldav, location: url.hasSuffix("/") ? url : url + "/",
                user: user ?? given.user)
            try Self.requireUnbound(partner, store: store)
            try store.bind(partner)
        }
        let bound = try store.partners()
        let unknown = calendars.filter { name in !bound.contains { $0.calendar == name } }
        if !unknown.isEmpty {
            throw CommandFailure(
                "not bound to anything: " + unknown.joined(separator: ", ")
                    + " (bind it with --caldav URL or --vdir DIR)")
        }
        return calendars.isEmpty ? bound : bound.filter { calendars.contains($0.calendar) }
    }

    /// One vdir or collection syncs with one calendar: bound to two, each would copy the other's items into it. The
    /// same folder is known through links, the same collection in any case of its scheme and host.
    static func requireUnbound(_ partner: SyncPartner, store: CalendarStore) throws {
        func place(_ binding: SyncPartner) -> String {
            switch binding.kind {
            case .vdir: return URL(fileURLWithPath: binding.location).resolvingSymlinksInPath().path
            default:
                guard var parts = URLComponents(string: binding.location) else { return binding.location }
                (parts.scheme, parts.host) = (parts.scheme?.lowercased(), parts.host?.lowercased())
                return parts.string ?? binding.location
            }
        }
        let wanted = place(partner)
        if let other = try store.partners().first(where: {
            $0.kind == partner.kind && $0.calendar != partner.calendar && place($0) == wanted
        }) {
            throw CommandFailure(
                "\(partner.location) already syncs with calendar \"\(other.calendar)\"; one \(partner.kind == .vdir ? "vdir" : "collection") "
                    + "syncs with one calendar (sync \"\(other.calendar)\" instead, or remove it with "
                    + "icskit calendars \"\(other.calendar)\" --remove)")
        }
    }

    /// One bound calendar synced with its partner.
    func sync(
        _ partner: SyncPartner, store: CalendarStore, options: TwoWaySync.Options,
        credentials: (user: String, password: String)?
    ) throws -> TwoWaySync.Report {
        switch partner.kind {
        case .caldav:
            let client = network.client(
                credentials: try credentials ?? Password.credentials(url: partner.location, user: partner.user ?? user))
            var storage = CalDAVStorage(collection: URL(string: partner.location)!, client: client)
            storage.maxResources = maxResources
            return try TwoWaySync.sync(calendar: partner.calendar, storage: storage, store: store, options: options)
        case .vdir:
            let storage = try VdirStorage(path: partner.location)
            return try TwoWaySync.sync(calendar: partner.calendar, storage: storage, store: store, options: options)
        }
    }

    static func json(_ report: TwoWaySync.Report, _ partner: SyncPartner, dryRun: Bool) -> JSONValue {
        .object([
            ("calendar", .string(partner.calendar)), (partner.kind.rawValue, .string(partner.location)),
            ("idle", .bool(report.wasIdle)), ("pulled", MergeReport.json(report.pulled, dryRun: dryRun)),
            ("created", .int(report.created.count)), ("updated", .int(report.updated.count)),
            ("deleted", .int(report.deleted.count)),
            (
                "writes",
                .array(
                    report.writes.map { write in
                        .object([("write", .string(write.verb)), ("href", .string(write.href))])
                    })
            ),
            ("deferred", .array(report.deferred.map(JSONValue.string))),
            (
                "refused",
                .array(
                    report.refused.map { refusal in
                        .object([
                            ("uid", .string(refusal.uid)), ("title", refusal.title.map(JSONValue.string) ?? .null),
                            ("reason", .string(refusal.reason)), ("new", .bool(refusal.isNew)),
                        ])
                    })
            ),
        ])
    }

    /// What the store took, then each write to the partner (a dry run's: planned), then the counts.
    static func printText(_ report: TwoWaySync.Report, _ partner: SyncPartner, dryRun: Bool) {
        guard !report.wasIdle else {
            return Output.print("\(partner.calendar): nothing changed on either side")
        }
        // A sync names every item either side took, as its writes below (what moved between two places).
        MergeReport.printText(report.pulled, dryRun: dryRun, prefix: "\(partner.calendar): store: ", verbose: true)
        let side = "\(partner.calendar): \(partner.kind.rawValue): "
        for write in report.writes {
            Output.print(side + (dryRun ? "would \(write.verb) " : "\(write.verb)d ") + write.href)
        }
        Output.print(
            side + (dryRun ? "would be: " : "") + "\(report.created.count) created, "
                + "\(report.updated.count) updated, \(report.deleted.count) deleted")
    }
}
