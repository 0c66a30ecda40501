import ArgumentParser
import CalendarMerge
import CalendarModel
import CalendarStore
import Foundation

/// `icskit merge`: pull an external calendar into a store calendar without losing local edits.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Reconcile an external calendar with a store calendar (three-way, per UID and RECURRENCE-ID).",
        discussion: """
            New external items are added, external changes taken, local changes kept, items gone externally and \
            unchanged locally deleted (changed locally: kept), items deleted locally stay deleted unless changed \
            externally. When both sides changed an item: --prefer decides (newest: the later LAST-MODIFIED, else \
            DTSTAMP, then the higher SEQUENCE, then the later DTSTAMP; local on a tie), or --on-conflict fail leaves it and exits \
            1, or keep-both adds the external version beside the local one.

            Guards: an external file with no items while the store has some from it is refused; a file that ends \
            early (a missing END, a cut-off download) deletes nothing (exit 1); a merge that would delete more than \
            --max-delete percent of the calendar (default 50) and more than 10 items is refused with nothing \
            changed. --force-delete lifts all three. The plan is made inside the store's write transaction, so an \
            edit made while the file is read is never undone.

            Exit status: 0 ok; 1 conflicts left, a truncated file (deletions withheld), merge refused, store unusable; \
            2 usage.

            Examples:
              icskit merge google.ics --into Work --dry-run
              icskit merge google.ics --into Work --prefer external --json
            """
    )

    @Argument(help: "The external calendar file.")
    var file: String

    @Option(
        help: ArgumentHelp(
            "The name this external source is remembered by between merges.",
            discussion: "Default: the calendar's name. Give one per source when several feed a calendar."))
    var source: String?

    @Option(help: "The store calendar to merge into (created if missing).", completion: CalendarCompletion.kind)
    var into: String

    @OptionGroup var merging: MergeGuardOptions

    @Option(name: .customLong("on-conflict"), help: "Instead of --prefer: fail or keep-both.")
    var onConflict: ConflictHandling?

    @OptionGroup var zoneRules: ZonesOption

    @Flag(help: "Print one JSON object: counts and actions.")
    var json = false

    @Flag(name: .shortAndLong, help: "No progress line and no warnings on standard error (errors still show).")
    var quiet = false

    @OptionGroup var store: StoreOption

    @OptionGroup var csv: CSVOptionGroup

    func run() throws {
        try csv.checkZone()
        let store = try store.open()
        let progress = Progress.onTerminal(quiet: quiet || json)
        defer { progress.finish() }
        progress.phase("reading \(file)")
        let bytes = try CalendarFiles.bytes(of: file)
        // CSV options change what the same bytes mean, so they are part of what "the same file" is.
        let csvSettings =
            csv.columns == nil && csv.zone == nil ? [] : Array("\u{0}\(csv.columns ?? "")\u{0}\(csv.zone ?? "")".utf8)
        var options = MergeOptions()
        merging.apply(to: &options)
        options.onConflict = onConflict
        options.labelsEveryItem = json
        options.digest = SourceDigest.of(bytes + csvSettings)
        let (result, isTruncated): (MergeResult, Bool)
        do {
            (result, isTruncated) = try merge(bytes, into: store, options: options, progress: progress)
        } catch let refusal as MergeRefusal {
            throw CommandFailure("merge refused: \(refusal)")
        }
        progress.finish()
        if json {
            Output.print(MergeReport.json(result, dryRun: merging.dryRun).serialized(pretty: true))
        } else {
            MergeReport.printText(result, dryRun: merging.dryRun, verbose: merging.verbose)
        }
        // A cut-off file is merged as far as it goes, but never silently: a first merge has nothing to withhold, and
        // still exits 1 so that a script notices the file it was given is incomplete.
        if result.withheldDeletions > 0 {
            Output.standardError(
                "\(file): the file ends early (truncated), so the \(result.withheldDeletions) item(s) "
                    + "it lacks were not deleted; merge a complete file, or use --force-delete if they are really gone")
            throw ExitCode(1)
        }
        if isTruncated {
            Output.standardError(
                "\(file): the file ends early (truncated): what it holds up to the cut was merged, the item it ends "
                    + "inside of was not; merge the complete file")
            throw ExitCode(1)
        }
        if result.unresolved > 0 { throw ExitCode(1) }
    }
}

extension MergeCommand {
    /// Merges the file's bytes: an iCalendar file read only as far as needed (nothing of the file merged last time,
    /// only what changed of another), the file the last merge of this source read byte for byte not parsed at all,
    /// any other format read whole. The result, and whether the file ends early.
    func merge(_ bytes: [UInt8], into store: CalendarStore, options: MergeOptions, progress: Progress) throws
        -> (MergeResult, isTruncated: Bool)
    {
        var options = options
        let identity = source ?? into
        let name = file == "-" ? "<stdin>" : file
        let merging = "merging \(file) into \(into)\(self.merging.dryRun ? " (dry run)" : "")"
        if (CalendarFormat(pathExtension: file) ?? CalendarFormat(sniffing: bytes)) == .ics {
            progress.phase(merging)
            let (merged, read) = try CalendarMerger.merge(
                icsBytes: bytes, file: name, into: into, source: identity, storage: store, options: options)
            if let read { CalendarFiles.report(read.diagnostics.filter { $0.severity == .error }, quiet: quiet) }
            return (merged, read?.isTruncated ?? false)
        }
        if let unchanged = try CalendarMerger.mergeUnchangedFile(
            digest: options.digest!, into: into, source: identity, storage: store)
        {
            return (unchanged, false)
        }
        var input = CalendarFiles()
        progress.phase("parsing \(file) (\(bytes.count / 1024) KB)")
        input.add(bytes, path: file, csv: csv.options)
        CalendarFiles.report(input.diagnostics.filter { $0.severity == .error }, quiet: quiet)
        options.isTruncated = input.isTruncated
        progress.phase(merging)
        let result = try CalendarMerger.merge(
            input.sources.flatMap(\.calendars), into: into, source: identity, storage: store, options: options)
        return (result, input.isTruncated)
    }
}

/// What `merge`, `refresh`, `subscribe` and `sync` share: who wins a conflict, the deletion guards, dry runs.
struct MergeGuardOptions: ParsableArguments {
    @Option(help: "Who wins when both sides changed an item (the same property): newest, external or local.")
    var prefer: MergePreference = .newest

    @Flag(name: .customLong("dry-run"), help: "Print the plan; change nothing.")
    var dryRun = false

    @Flag(help: "List every item added, updated, merged or deleted (by default: the first 10, and every conflict).")
    var verbose = false

    @Flag(
        name: .customLong("force-delete"),
        help: ArgumentHelp(
            "Delete what the guards keep: everything when the external calendar is empty, the items a truncated file "
                + "lacks, more than --max-delete of the calendar."))
    var forceDelete = false

    @Option(
        name: .customLong("max-delete"),
        help: ArgumentHelp(
            "The largest share of the calendar (percent) one merge may delete when it deletes more than 10 items.",
            valueName: "PCT"))
    var maxDelete: Double = 50

    func validate() throws {
        if !(0...100).contains(maxDelete) { throw ValidationError("--max-delete takes a percentage from 0 to 100") }
    }

    func apply(to options: inout MergeOptions) {
        options.prefer = prefer
        options.dryRun = dryRun
        options.forceDelete = forceDelete
        options.maxDeletePercent = maxDelete
    }
}

/// How merge, refresh and sync report a merge: one JSON object, or a line per change and a line of counts.
enum MergeReport {
    static func json(_ result: MergeResult, dryRun: Bool) -> JSONValue {
        JSONValue.object([
            ("added", .int(result.added)), ("updated", .int(result.updated)), ("merged", .int(result.merged)),
            ("deleted", .int(result.deleted)), ("unchanged", .int(result.unchanged)),
            ("conflicts", .int(result.conflicts)), ("withheld_deletions", .int(result.withheldDeletions)),
            ("dry_run", .bool(dryRun)), ("actions", .array(result.actions.map(json))),
        ])
    }

    static func json(_ action: MergeAction) -> JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return .object([
            ("uid", .string(action.key.uid)),
            ("recurrence_id", action.key.recurrenceID.isEmpty ? .null : .string(action.key.recurrenceID)),
            ("title", text(action.title)), ("start", text(action.start)),
            ("action", .string(action.kind.rawValue)), ("reason", .string(action.reason)),
            ("conflict", .bool(action.wasConflict)),
            (
                "changes",
                .array(
                    action.changes.map { change in
                        var fields: [(String, JSONValue)] = [
                            ("name", .string(change.name)), ("from", text(change.from)), ("to", text(change.to)),
                            ("side", .string(change.side.rawValue)),
                        ]
                        if change.isConflict {
                            fields += [("local", text(change.local)), ("external", text(change.external))]
                        }
                        return .object(fields)
                    })
            ),
        ])
    }

    /// A line per change, naming the item by its title, then what changed in it (each field with its side), or its
    /// start, UID and why; a conflict also says which side won.
    /// How many changed items a report names one by one unless `--verbose` (conflicts are always named).
    static let listed = 10

    static func printText(_ result: MergeResult, dryRun: Bool, prefix: String = "", verbose: Bool = false) {
        var named = 0, unnamed = 0
        for action in result.actions {
            guard action.changesSomething else { continue }
            guard verbose || action.wasConflict || named < listed else {
                unnamed += 1
                continue
            }
            if !action.wasConflict { named += 1 }
            Output.line(prefix + line(action))
        }
        if unnamed > 0 { Output.line(prefix + "… and \(unnamed) more (--verbose lists every item)") }
        Output.print(
            "\(prefix)\(dryRun ? "would be: " : "")\(result.added) added, \(result.updated) updated, "
                + "\(result.merged) merged, \(result.deleted) deleted, \(result.unchanged) unchanged, "
                + result.conflicts.counted("conflict"))
    }

    /// `merged: "Workshop" DTSTART 09:00 → 13:00 (external), LOCATION → "Room R" (local)  (uid: why)`
    static func line(_ action: MergeAction) -> String {
        var line = "\(action.wasConflict ? "conflict, " : "")\(action.kind.rawValue): "
        line += "\"\(action.title ?? "(no summary)")\" "
        if action.changes.isEmpty {
            if let start = action.start { line += "(\(start)) " }
            return line + "\(action.key)  (\(action.reason))"
        }
        let sides = action.kind != .update
        line += action.changes.map { change($0, sides: sides) }.joined(separator: ", ")
        return line + "  (\(action.key): \(action.reason))"
    }

    /// `DTSTART 09:00 → 13:00 (external)`; for a conflict `LOCATION → "Room R" (local) / "Room S" (external):
    /// external wins`.
    static func change(_ change: FieldChange, sides: Bool) -> String {
        var text = change.name + (change.from.map { " " + $0 } ?? "") + " → "
        if change.isConflict {
            text += (change.local ?? "removed") + " (local) / " + (change.external ?? "removed") + " (external)"
            return text + ": \(change.side.rawValue) wins"
        }
        return text + (change.to ?? "removed") + (sides ? " (\(change.side.rawValue))" : "")
    }
}

extension MergePreference: ExpressibleByArgument {}
extension ConflictHandling: ExpressibleByArgument {}
