import ArgumentParser
import CalendarModel
import Foundation

/// `icskit convert`: iCalendar ⇄ jCal, xCal and CSV, one file or a batch, never a half-written output.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract:
            "Convert calendars between iCalendar (.ics), jCal (.json), JSCalendar (.json), xCal (.xml) and CSV (.csv).",
        discussion: """
            Formats come from --from/--to, else from file extensions, else from the content. Unchanged \
            components are written back line for line; problems are reported as path:line: severity: message.
            A file fails when it cannot be read, holds no calendar data, or (with --strict) has any diagnostic; \
            the other files still convert and the exit status is 1.

            Examples:
              icskit convert google.ics -o google.json
              icskit convert --to ics < calendar.json > calendar.ics
              icskit convert exports/*.ics --out-dir clean/ --jobs 2 --report json
              icskit convert exports/ --to jcal --out-dir json/
              icskit convert work.ics --to jscalendar -o work.json
              icskit convert jmap.json --from jscalendar -o jmap.ics
              icskit convert work.ics --for outlook -o for-outlook.ics
              icskit convert week.ics --to csv --tz Europe/Berlin -o week.csv
              icskit convert outlook.csv --tz America/New_York -o outlook.ics
              icskit convert sheet.csv --columns "Title=summary,When=start,Until=end" \\
                -o sheet.ics
            """
    )

    @Argument(
        help: "Input files, or folders (every .ics file in them, recursively); - (or none) reads standard input.")
    var inputs: [String] = []

    @Option(name: .shortAndLong, help: "Output file; - writes standard output.")
    var output: String?

    @Option(name: .customLong("out-dir"), help: "Directory for the converted files (needed with several inputs).")
    var outDir: String?

    @Option(help: "Input format: ics, jcal, jscalendar, xcal or csv.")
    var from: CalendarFormat?

    @Option(help: "Output format: ics, jcal, jscalendar, xcal or csv.")
    var to: CalendarFormat?

    @Option(
        name: .customLong("jscalendar-version"),
        help: ArgumentHelp(
            "JSCalendar names to write: 1 (RFC 8984: recurrenceRules, sendTo) or 2 (the JSCalendar 2.0 draft: "
                + "recurrenceRule, calendarAddress). Both are read.", valueName: "N"))
    var jscalendarVersion = 1

    @OptionGroup var csv: CSVOptionGroup

    @Flag(help: "Fail a file on any diagnostic, warnings included.")
    var strict = false

    @Flag(
        name: .customLong("normalize-timezones"),
        help: "Give every TZID its bare IANA name and a VTIMEZONE from tzdata (for Outlook, Google and others).")
    var normalizeTimezones = false

    @Flag(
        help: ArgumentHelp(
            "Write what strict readers and servers accept where the meaning is recoverable: UID and DTSTAMP added, "
                + "VALUE=DATE on dates, a DTEND not after DTSTART fixed, RDATE PERIODs as DATE-TIME, a VTIMEZONE "
                + "for each TZID (as --normalize-timezones); each change is reported."))
    var repair = false

    @OptionGroup var target: ForAppOption

    @Option(help: "Print a machine-readable summary: json.")
    var report: ReportFormat?

    @Option(help: "Convert this many files at once.")
    var jobs = 1

    @Flag(name: .shortAndLong, help: "No progress line and no warnings on standard error (errors still show).")
    var quiet = false

    @Option(
        name: .customLong("max-diagnostics"),
        help: ArgumentHelp(
            "Print at most N diagnostics per file (the rest are counted in the summary).", valueName: "N"))
    var maxDiagnostics: Int?

    enum ReportFormat: String, ExpressibleByArgument { case json }

    @OptionGroup var zoneRules: ZonesOption

    func validate() throws {
        if inputs.count > 1, outDir == nil {
            throw ValidationError("several inputs need --out-dir DIR")
        }
        if outDir != nil, output != nil { throw ValidationError("use either --output or --out-dir, not both") }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if ![1, 2].contains(jscalendarVersion) { throw ValidationError("--jscalendar-version is 1 or 2") }
        if let maxDiagnostics, maxDiagnostics < 0 { throw ValidationError("--max-diagnostics must be 0 or more") }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input can be read only once") }
    }

    func run() throws {
        try csv.checkZone()
        let batch = try BatchInputs(inputs.isEmpty ? ["-"] : inputs)
        if outDir == nil, batch.inputs.contains(where: { $0.relative != nil }) || !batch.emptyFolders.isEmpty {
            throw ValidationError("a folder is converted into --out-dir DIR (each file keeps its place below it)")
        }
        for folder in batch.emptyFolders { Output.standardError("icskit: \(folder): no .ics file in this folder") }
        let sources = batch.inputs.map(\.path)
        let destinations = plannedDestinations(batch.inputs)
        if let outDir {
            for folder in Set(destinations.map { ($0 as NSString).deletingLastPathComponent }) + [outDir] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
        }
        if jobs > 1 { ICS.prepareForConcurrentUse() }
        let progress = Progress(total: sources.count, enabled: !quiet && sources.count > 1 && isatty(2) == 1)
        let results = ParallelParts.run(sources.count, jobs: jobs) { index in
            let result = convert(sources[index], to: destinations[index])
            progress.step(sources[index])
            return result
        }
        progress.finish()
        let toStandardOutput = destinations.contains("-")
        for result in results {
            let shown = result.diagnostics.filter { !quiet || $0.severity == .error || strict }
            let limit = maxDiagnostics ?? shown.count
            for diagnostic in shown.prefix(limit) { Output.standardError(diagnostic.description) }
            if shown.count > limit {
                Output.standardError(
                    "\(result.input): \(shown.count - limit) more diagnostics not shown (--max-diagnostics)")
            }
            if let failure = result.failure { Output.standardError("\(result.input): failed: \(failure)") }
        }
        if sources.count > 1 { Output.standardError(Self.summary(results)) }
        if report == .json {
            let json = JSONValue.object([
                ("ok", .bool(results.allSatisfy { $0.failure == nil })),
                ("converted", .int(results.filter { $0.failure == nil }.count)),
                ("failed", .int(results.filter { $0.failure != nil }.count)),
                ("files", .array(results.map(\.json))),
            ]).serialized(pretty: true)
            if toStandardOutput { Output.standardError(json) } else { Output.print(json) }
        }
        if results.contains(where: { $0.failure != nil }) { throw ExitCode(1) }
    }

    /// The line a batch ends with: `229 files: 227 converted, 2 failed; 3,072 diagnostics: 12 errors, 3,060 warnings`.
    static func summary(_ results: [FileResult]) -> String {
        let failed = results.filter { $0.failure != nil }.count
        let all = results.flatMap(\.diagnostics)
        let errors = all.filter { $0.severity == .error }.count
        var text = "\(results.count) files: \(results.count - failed) converted, \(failed) failed"
        text += "; \(all.count.counted("diagnostic"))"
        if !all.isEmpty {
            text += ": \(errors.counted("error")), \((all.count - errors).counted("warning"))"
        }
        return text
    }

    /// Where each input goes: `-o`, standard output, or a unique name in --out-dir (a file found in a folder at
    /// its place below the folder).
    private func plannedDestinations(_ sources: [BatchInputs.Input]) -> [String] {
        guard let outDir else { return [output ?? "-"] }
        var used: Set<String> = []
        return sources.map { input in
            let source = input.path
            let below = input.relative.map { ($0 as NSString).deletingLastPathComponent } ?? ""
            let file = source == "-" ? "stdin" : URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
            let base = below.isEmpty ? file : (below as NSString).appendingPathComponent(file)
            let format = targetFormat(destination: nil, source: source)
            var name = base + "." + format.fileExtension
            var counter = 2
            while used.contains(name) {
                name = "\(base)-\(counter).\(format.fileExtension)"
                counter += 1
            }
            used.insert(name)
            return (outDir as NSString).appendingPathComponent(name)
        }
    }

    private func targetFormat(destination: String?, source: String) -> CalendarFormat {
        if let to { return to }
        if let destination, destination != "-", let format = CalendarFormat(pathExtension: destination) {
            return format
        }
        return .ics
    }

    /// `--repair`: several VCALENDARs as one where they are one calendar, one METHOD per calendar, then each as
    /// strict readers and servers take it, with bare IANA TZIDs and a VTIMEZONE for each (servers want one per
    /// TZID) unless `--normalize-timezones` already gave them.
    private func repairForPeers(_ read: inout ICS.ReadResult, name: String) {
        Self.eachPart(&read, name: name) { part in
            let repaired = part.repairedForPeers(file: name)
            guard !normalizeTimezones else { return repaired }
            let normalized = repaired.calendar.normalizingTimeZones(file: name)
            return (normalized.calendar, repaired.diagnostics + normalized.diagnostics)
        }
    }

    /// Several VCALENDARs of one file as one where they are one calendar (not an iTIP stream of updates), then
    /// each with one METHOD (agreeing ones written once, differing ones split) through `change`: what `--repair`
    /// and `--for` start from.
    static func eachPart(
        _ read: inout ICS.ReadResult, name: String,
        _ change: (ICalendar) -> (calendar: ICalendar, diagnostics: [Diagnostic])
    ) {
        let methods = Set(read.calendars.map { $0.method?.trimmingCharacters(in: .whitespaces).uppercased() ?? "none" })
        // A published calendar and a plain one are one calendar (PUBLISH is what a plain calendar says of itself).
        let kinds = Set(methods.map { $0 == "PUBLISH" ? "none" : $0 })
        if read.calendars.count > 1, kinds.count > 1 {
            // A cancellation beside a request is two messages: one calendar of either method would misstate one.
            read.diagnostics.append(
                Diagnostic(
                    .warning, file: name, line: 1,
                    "several VCALENDARs with different METHODs (\(methods.sorted().joined(separator: ", "))); kept apart",
                    code: "methods-kept-apart"))
        } else if read.calendars.count > 1 {
            if var one = ICalendar.combiningForPeers(read.calendars) {
                if methods.count > 1 { one.method = nil }  // some said PUBLISH, some nothing: a plain calendar
                read.calendars = [one]
                read.diagnostics.append(
                    Diagnostic(
                        .warning, file: name, line: 1, "repaired: several VCALENDARs written as one",
                        code: "repair-calendars-joined"))
            } else {
                read.diagnostics.append(
                    Diagnostic(
                        .warning, file: name, line: 1,
                        "several VCALENDARs update the same items (an iTIP stream); kept apart",
                        code: "itip-stream-kept-apart"))
            }
        }
        var calendars: [ICalendar] = []
        for calendar in read.calendars {
            let split = calendar.splittingMethods(file: name)
            read.diagnostics += split.diagnostics
            for part in split.calendars {
                let changed = change(part)
                read.diagnostics += changed.diagnostics
                calendars.append(changed.calendar)
            }
        }
        // A VCALENDAR the change left empty (its items could not be placed) beside others that hold something: RFC
        // 5545 wants at least one component, and readers take one calendar per file.
        let holding = calendars.filter { !$0.components.isEmpty }
        if !holding.isEmpty, holding.count < calendars.count {
            read.diagnostics.append(
                Diagnostic(
                    .warning, file: name, line: 1,
                    "repaired: \(calendars.count - holding.count) of \(calendars.count) VCALENDARs hold nothing once "
                        + "repaired; left out", code: "repair-empty-calendar"))
            calendars = holding
        }
        read.calendars = calendars
    }

    private func convert(_ source: String, to destination: String) -> FileResult {
        let name = source == "-" ? "<stdin>" : source
        var result = FileResult(input: name, output: destination == "-" ? "<stdout>" : destination)
        if convertStreaming(source, name: name, to: destination, &result) { return result }
        let bytes: [UInt8]
        do {
            bytes = try Output.readInput(source)
        } catch {
            result.failure = ErrorText.line(error, subject: source, doing: "read")
            return result
        }
        let inputFormat = from ?? CalendarFormat(pathExtension: source) ?? CalendarFormat(sniffing: bytes)
        var read = inputFormat.read(bytes, file: name, csv: csv.options)
        if normalizeTimezones {
            read.calendars = read.calendars.map { calendar in
                let normalized = calendar.normalizingTimeZones(file: name)
                read.diagnostics += normalized.diagnostics
                return normalized.calendar
            }
        }
        if let app = target.app {
            let zone = csv.zone.flatMap { try? CalendarZone($0) } ?? .current
            ForAppOption.adapt(&read, for: app, zone: zone, name: name)
        } else if repair {
            repairForPeers(&read, name: name)
        }
        result.diagnostics = read.diagnostics
        result.counts = componentCounts(read.calendars)
        if read.calendars.isEmpty {
            result.failure = "no calendar data"
        } else if strict, !read.diagnostics.isEmpty {
            result.failure = "\(read.diagnostics.count) diagnostic(s) with --strict; not written"
        }
        guard result.failure == nil else { return result }
        let format = targetFormat(destination: destination, source: source)
        let written: [UInt8]
        if format == .csv {
            written = csvBytes(read.calendars, name: name, &result)
        } else {
            written = format.write(
                read.calendars, csv: csv.options, jscalendar: JSCalendarVersion(rawValue: jscalendarVersion) ?? .rfc8984
            )
        }
        do {
            try Output.emit(written, to: destination)
        } catch {
            result.failure = ErrorText.line(error, subject: destination)
        }
        return result
    }

    /// The calendars as a CSV table, with a warning for each item CSV has no row or column for.
    private func csvBytes(_ calendars: [ICalendar], name: String, _ result: inout FileResult) -> [UInt8] {
        let table = CSVCalendar.write(calendars, options: csv.options)
        for item in table.leftOut {
            let title = item.summary.map { "\"\($0)\"" } ?? "an item without SUMMARY"
            result.diagnostics.append(
                Diagnostic(
                    .warning, file: name, line: item.line,
                    item.isOverride
                        ? "\(title) is an overridden instance (RECURRENCE-ID): CSV has no column for it; not written"
                        : "\(title) has EXDATEs: CSV has no column for them; its row stands for the whole series",
                    code: "csv-left-out"))
        }
        return Array(table.text.utf8)
    }

    /// Converts a JSCalendar Group an entry at a time (`JSCalendarStreamRead`) into iCalendar, jCal or xCal, when the
    /// output is a file (a fallback discards it). False, having done nothing, for anything else, and for a document
    /// of another shape or one the reader refuses: read whole, which says what is wrong with it.
    private func convertJSCalendarStreaming(
        _ source: String, name: String, to destination: String, format: CalendarFormat, _ result: inout FileResult
    ) -> Bool {
        let type = (try? FileManager.default.attributesOfItem(atPath: destination))?[.type] as? FileAttributeType
        guard let writer = CalendarStreamWriter(format: format), destination != "-",
            type == nil || type == .typeRegular
        else { return false }
        var calendar = ICalendar()
        var index = 0
        return written(to: destination, &result, givingUp: { $0 is JSCalendarStreamRead.Fallback }) {
            sink, counts, result in
            result.diagnostics = try JSCalendarStreamRead.read(
                contentsOf: source, file: name,
                opening: { opened in
                    calendar = opened
                    sink = try Output.Sink(destination)
                    try sink?.write(writer.opening(opened))
                },
                run: { components in
                    try sink?.write(writer.run(components, index: index))
                    index += 1
                    var run = ICalendar()
                    run.components = components
                    counts.merge(run.componentCounts, uniquingKeysWith: +)
                })
            try sink?.write(writer.closing(calendar))
            return true
        }
    }

    /// Converts a large iCalendar file a run of components at a time (`ICS.stream`), in memory bounded by the runs
    /// in flight, when nothing needs the whole calendar at once: no --normalize-timezones, --repair or --strict (a
    /// file that fails must not be written at all), and an output other than CSV. False, having done nothing, for
    /// anything else (standard input, a pipe, an input of another shape): it is read whole.
    private func convertStreaming(
        _ source: String, name: String, to destination: String, _ result: inout FileResult
    ) -> Bool {
        guard source != "-", !normalizeTimezones, !repair, !strict, target.app == nil else { return false }
        let format = targetFormat(destination: destination, source: source)
        switch from ?? CalendarFormat(pathExtension: source) ?? .ics {
        case .ics: break
        case .jscalendar, .jcal:
            return convertJSCalendarStreaming(source, name: name, to: destination, format: format, &result)
        case .xcal, .csv: return false
        }
        if format == .jscalendar {
            let version = JSCalendarVersion(rawValue: jscalendarVersion) ?? .rfc8984
            var stream = JSCalendarStream(version: version)
            return streamed(
                source, name: name, to: destination, &result, opening: { stream.opening($0) },
                transform: { components, _ in JSCalendarStream.prepared(components, version: version) },
                consume: { try stream.take($0) }, closing: { _ in stream.closing() })
        }
        guard let writer = CalendarStreamWriter(format: format) else { return false }
        return streamed(
            source, name: name, to: destination, &result, opening: writer.opening,
            transform: { components, run in writer.run(components, index: run) }, consume: { $0 },
            closing: writer.closing)
    }

    /// Streams `source` into `destination` through `ICS.stream`: `opening`'s bytes, each run's (`transform` on
    /// every core, `consume` in order) and `closing`'s, written through a temporary file. False, having written
    /// nothing, for a file of another shape, and when the writer gives up (`JSCalendarStream.Refusal`): it is read
    /// whole then.
    private func streamed<Made: Sendable>(
        _ source: String, name: String, to destination: String, _ result: inout FileResult,
        opening: (ICalendar) throws -> [UInt8],
        transform: @escaping @Sendable ([CalendarComponent], Int) -> Made,
        consume: (Made) throws -> [UInt8], closing: (ICalendar) -> [UInt8]
    ) -> Bool {
        written(to: destination, &result, givingUp: { $0 is JSCalendarStream.Refusal }) { sink, counts, result in
            let read = try ICS.stream(
                contentsOf: source, file: name,
                opening: { calendar in
                    sink = try Output.Sink(destination)
                    try sink?.write(opening(calendar))
                },
                transform: { components, run in
                    var calendar = ICalendar()
                    calendar.components = components
                    return (made: transform(components, run), counts: calendar.componentCounts)
                },
                consume: { made in
                    try sink?.write(consume(made.made))
                    counts.merge(made.counts, uniquingKeysWith: +)
                })
            guard let read else { return false }
            result.diagnostics = read.diagnostics
            try sink?.write(closing(read.calendar))
            return true
        }
    }

    /// Runs one streamed conversion, which opens `sink` and counts the components it writes: committed when it
    /// streamed (true), discarded when it fails (its failure said in `result`) or gives up (`givingUp`: false, and
    /// the file is read whole). False, with nothing written, when it did not stream.
    private func written(
        to destination: String, _ result: inout FileResult, givingUp: (any Error) -> Bool,
        _ body: (inout Output.Sink?, inout [String: Int], inout FileResult) throws -> Bool
    ) -> Bool {
        var sink: Output.Sink?
        var counts: [String: Int] = [:]
        do {
            guard try body(&sink, &counts, &result) else { return false }
            try sink?.commit()
        } catch {
            sink?.discard()
            if givingUp(error) { return false }
            result.failure = ErrorText.line(error, subject: destination)
        }
        result.counts = counts.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) }
        return true
    }
}

extension CalendarFormat: ExpressibleByArgument {}

/// What converting one input gave, for the diagnostics printout and `--report json`.
struct FileResult: Sendable {
    var input: String
    var output: String
    var diagnostics: [Diagnostic] = []
    var counts: [(key: String, value: JSONValue)] = []
    var failure: String?

    var json: JSONValue {
        .object([
            ("input", .string(input)), ("output", .string(output)), ("ok", .bool(failure == nil)),
            ("error", failure.map(JSONValue.string) ?? .null), ("counts", .object(counts)),
            ("diagnostics", .array(diagnostics.map(\.json))),
        ])
    }
}
