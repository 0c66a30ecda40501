import ArgumentParser
import CalendarModel
import CalendarStore
import Foundation

/// `icskit import`: calendar files into the store, without duplicates.
struct ImportCommand: ParsableCommand, ChecksWhatIsGiven {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import calendar files into the store; importing the same file again changes nothing.",
        discussion: """
            Items are keyed by UID and RECURRENCE-ID; one that is already there is updated when it differs. Items \
            without UID get one derived from their content. Each file is imported in one transaction.

            Exit status: 0 ok; 1 a file held no calendar data (nothing was imported from it; the other files were).

            Examples:
              icskit import google-export.ics --calendar Work
              icskit import *.ics --json
            """
    )

    @Argument(help: "Calendar files (.ics, jCal, xCal or CSV); - reads standard input.")
    var files: [String]

    @Option(
        help: "The store calendar to import into (default: the file's calendar name, else its file name).",
        completion: CalendarCompletion.kind)
    var calendar: String?

    @Flag(help: "Print one JSON object with the counts.")
    var json = false

    @Flag(name: .shortAndLong, help: "No progress line and no warnings on standard error (errors still show).")
    var quiet = false

    @Flag(help: "List every item added or updated, by title (by default: the counts only).")
    var verbose = false

    /// Files this large and larger are streamed (`importStreaming`); smaller ones are read whole, which is faster.
    /// Hidden: the tests lower it to stream small files.
    @Option(name: .customLong("stream-from-bytes"), help: .hidden)
    var streamFromBytes = 16 << 20

    @OptionGroup var store: StoreOption

    @OptionGroup var csv: CSVOptionGroup

    @OptionGroup var zoneRules: ZonesOption

    @OptionGroup var me: MeOption

    func checkGiven() throws {
        if files.isEmpty { throw ValidationError("give at least one calendar file (- reads standard input)") }
    }

    func run() throws {
        try csv.checkZone()
        let store = try store.open()
        let progress = Progress.onTerminal(quiet: quiet || json)
        defer { progress.finish() }
        if let streamed = try importStreaming(into: store, progress: progress) { return try printResult([streamed]) }
        let input = try CalendarFiles.read(files, csv: csv.options) { progress.phase("reading \($0)") }
        CalendarFiles.report(input.diagnostics.filter { $0.severity == .error }, quiet: quiet)
        // Said once, before what the first file's import says: listings of the store leave them out. Found while the
        // items are written (and said, at the latest, before an error the import throws).
        let zoneFindings = CalendarFiles.ZoneFindingsAhead(input.sources)
        defer { zoneFindings.say(quiet: quiet) }
        var reports: [ImportReport] = []
        var refused = 0
        // A file with no calendar in it (garbage, an empty file, JSON that is not jCal) imports nothing: said, and
        // the import goes on with the other files and exits 1.
        let empty = input.withoutCalendars
        for source in input.sources {
            let name = calendar ?? source.name
            // An invitation (METHOD:REQUEST, CANCEL, REPLY …) is applied by its rules, as `invite` applies it.
            if source.calendars.contains(where: {
                InviteCommand.schedulingMethods.contains(
                    $0.method?.trimmingCharacters(in: .whitespaces).uppercased() ?? "")
            }) {
                zoneFindings.say(quiet: quiet)
                let outcomes = try store.receiveScheduling(
                    source.calendars, calendar: calendar ?? "Invitations", origin: source.origin(trusted: false),
                    me: me.identity(store: self.store, opened: store).addresses)
                refused += outcomes.filter { $0.kind == .refused }.count
                if !json {
                    Output.print("\(source.path): scheduling messages, applied as icskit invite applies them")
                    try InviteCommand.printOutcomes(outcomes, store: store, me: me.identity(store: self.store))
                }
                reports.append(Self.report(of: outcomes, calendar: calendar ?? "Invitations"))
                continue
            }
            progress.phase("\(name): writing the items of \(source.path)")
            let report = try store.importCalendars(
                source.calendars, into: name, file: source.path, listingChanges: verbose
            ) { done, total in
                progress.count(done, of: total, "\(name): items written")
            }
            progress.finish()
            zoneFindings.say(quiet: quiet)
            CalendarFiles.report(report.diagnostics, quiet: quiet)
            reports.append(report)
        }
        zoneFindings.say(quiet: quiet)
        try printResult(reports, empty: empty)
        InviteCommand.sayNotApplied(refused)
        if !empty.isEmpty {
            Output.standardError(
                "icskit: no calendar data in " + empty.joined(separator: ", ") + "; nothing imported from "
                    + (empty.count == 1 ? "it" : "them"))
        }
        if refused > 0 || !empty.isEmpty { throw ExitCode(1) }
    }

    /// One large iCalendar file streamed into the store (`importStreaming`), in memory bounded by the file's runs and
    /// what is kept per item rather than by the file; nil, having done nothing, for several files, standard input,
    /// a small file, another format or a file of another shape (they are read whole).
    private func importStreaming(into store: CalendarStore, progress: Progress) throws -> ImportReport? {
        guard files.count == 1, let path = files.first, path != "-",
            (CalendarFormat(pathExtension: path) ?? .ics) == .ics
        else { return nil }
        guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber,
            size.intValue >= streamFromBytes
        else { return nil }
        progress.phase("reading \(path)")
        let fallback = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let chosen = calendar
        guard
            let (report, diagnostics) = try store.importStreaming(
                contentsOf: path, file: path,
                name: {
                    chosen ?? $0.displayName.map(CalendarFiles.calendarName).flatMap { $0.isEmpty ? nil : $0 }
                        ?? fallback
                },
                listingChanges: verbose, progress: { done, total in progress.count(done, of: total, "items written") })
        else { return nil }
        progress.finish()
        CalendarFiles.report(diagnostics.filter { $0.severity == .error }, quiet: quiet)
        CalendarFiles.report(report.diagnostics, quiet: quiet)
        return report
    }

    /// Received messages counted as an import counts items: added; updated (also cancelled, answered); unchanged
    /// (a message received before); skipped (older than what the store has, or only shown).
    static func report(of outcomes: [SchedulingOutcome], calendar: String) -> ImportReport {
        var report = ImportReport(calendar: calendar)
        for outcome in outcomes {
            switch outcome.kind {
            case .added: report.added += 1
            case .updated, .cancelled, .instanceCancelled, .replied: report.updated += 1
            case .repeated: report.unchanged += 1
            case .ignored, .counter, .refresh, .refused: report.skipped += 1
            }
        }
        return report
    }

    private func printResult(_ reports: [ImportReport], empty: [String] = []) throws {
        var totals = ImportReport(calendar: "")
        for report in reports {
            totals.added += report.added
            totals.updated += report.updated
            totals.unchanged += report.unchanged
            totals.skipped += report.skipped
        }
        if json {
            Output.print(
                JSONValue.object([
                    ("added", .int(totals.added)), ("updated", .int(totals.updated)),
                    ("unchanged", .int(totals.unchanged)), ("skipped", .int(totals.skipped)),
                    ("calendars", .array(reports.map { .string($0.calendar) })),
                    ("noCalendarData", .array(empty.map(JSONValue.string))),
                ]).serialized(pretty: true))
        } else {
            for report in reports {
                for change in report.changes {
                    Output.line(
                        "\(report.calendar): \(change.isNew ? "added" : "updated"): "
                            + "\"\(change.summary ?? "(no summary)")\" \(change.key)")
                }
                Output.print(
                    "\(report.calendar): \(report.added) added, \(report.updated) updated, \(report.unchanged) "
                        + "unchanged, \(report.skipped) skipped")
            }
        }
    }
}
