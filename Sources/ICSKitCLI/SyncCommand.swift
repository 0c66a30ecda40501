import ArgumentParser
import CalendarMerge
import CalendarModel
import CalendarStore
import CalendarSync
import Foundation

/// `icskit sync CAL --vdir DIR`: two-way sync of a store calendar with a vdir (khal, todoman, vdirsyncer).
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync store calendars both ways with a vdir (one .ics per item, as khal and vdirsyncer keep them).",
        discussion: """
            The first `icskit sync CAL --vdir DIR` binds the calendar to the directory (both are created when \
            missing); later `icskit sync` syncs every bound calendar. Changes on each side since the last sync are \
            merged three-way per UID and RECURRENCE-ID: an edit on one side is taken, an item deleted on one side \
            and unchanged on the other is deleted, an edit beats a deletion, and when both sides changed an item \
            --prefer decides. Each item is one file; a file someone changes while the sync runs is left for the \
            next sync. An emptied directory deletes nothing without --force-delete.

            Exit status: 0 ok; 1 a sync refused, conflicts left or files deferred; 2 usage.

            Examples:
              icskit sync Personal --vdir ~/.calendars/personal
              icskit sync --dry-run
              icskit sync --json
            """)

    @Argument(help: "Calendars to sync (default: every bound calendar).")
    var calendars: [String] = []

    @Option(help: "Bind the calendar to this vdir (one calendar at a time).")
    var vdir: String?

    @Option(help: "Who wins when both sides changed an item: newest, external (the vdir) or local.")
    var prefer: MergePreference = .newest

    @Flag(name: .customLong("dry-run"), help: "Print what the store would take; change nothing on either side.")
    var dryRun = false

    @Flag(name: .customLong("force-delete"), help: "Delete what merge's guards keep (see `icskit merge --help`).")
    var forceDelete = false

    @Option(name: .customLong("max-delete"), help: ArgumentHelp("As for merge.", valueName: "PCT"))
    var maxDelete: Double = 50

    @Flag(help: "Print one JSON object: per calendar, what each side took.")
    var json = false

    @Flag(name: .shortAndLong, help: "No warnings on standard error.")
    var quiet = false

    @OptionGroup var store: StoreOption

    func validate() throws {
        if vdir != nil, calendars.count != 1 { throw ValidationError("--vdir binds one calendar: name it") }
        if !(0...100).contains(maxDelete) { throw ValidationError("--max-delete takes a percentage from 0 to 100") }
    }

    func run() throws {
        let store = try store.open()
        if let vdir, let calendar = calendars.first {
            let path = URL(fileURLWithPath: vdir).standardizedFileURL.path
            try store.bind(SyncPartner(calendar: calendar, kind: "vdir", location: path))
        }
        let bound = try store.syncPartners()
        let unknown = calendars.filter { name in !bound.contains { $0.calendar == name } }
        if !unknown.isEmpty {
            throw CommandFailure("not bound to anything: " + unknown.joined(separator: ", ") + " (use --vdir DIR)")
        }
        let chosen = calendars.isEmpty ? bound : bound.filter { calendars.contains($0.calendar) }
        var options = TwoWaySync.Options()
        options.merge.prefer = prefer
        options.merge.dryRun = dryRun
        options.merge.forceDelete = forceDelete
        options.merge.maxDeletePercent = maxDelete
        var failed = false
        var reports: [JSONValue] = []
        for partner in chosen {
            do {
                let storage = try VdirStorage(path: partner.location)
                let report = try TwoWaySync.sync(
                    calendar: partner.calendar, storage: storage, store: store, options: options)
                CalendarFiles.report(report.diagnostics.filter { $0.severity == .error }, quiet: quiet)
                if report.pulled.unresolved > 0 || !report.deferred.isEmpty { failed = true }
                for href in report.deferred where !quiet {
                    Output.standardError(
                        "\(partner.calendar): \(href) changed during the sync; the next sync merges it")
                }
                if json {
                    reports.append(
                        .object([
                            ("calendar", .string(partner.calendar)), ("vdir", .string(partner.location)),
                            ("idle", .bool(report.wasIdle)),
                            ("pulled", MergeReport.json(report.pulled, dryRun: dryRun)),
                            ("created", .int(report.created.count)), ("updated", .int(report.updated.count)),
                            ("deleted", .int(report.deleted.count)),
                            ("deferred", .array(report.deferred.map(JSONValue.string))),
                        ]))
                } else if report.wasIdle {
                    Output.print("\(partner.calendar): nothing changed on either side")
                } else {
                    MergeReport.printText(report.pulled, dryRun: dryRun, prefix: "\(partner.calendar): store: ")
                    if !dryRun {
                        Output.print(
                            "\(partner.calendar): vdir: \(report.created.count) created, \(report.updated.count) "
                                + "updated, \(report.deleted.count) deleted")
                    }
                }
            } catch let refusal as MergeRefusal {
                failed = true
                Output.standardError("icskit: \(partner.calendar): sync refused: \(refusal)")
            } catch let failure as SyncStorageError {
                failed = true
                Output.standardError("icskit: \(partner.calendar): \(failure)")
            }
        }
        if json { Output.print(JSONValue.object([("calendars", .array(reports))]).serialized(pretty: true)) }
        if failed { throw ExitCode(1) }
    }
}
