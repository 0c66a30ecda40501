import CalendarModel
import Foundation

/// `--only speed` (part of `make bench`): issue 63's figures in one run, whole processes taking turns — the import
/// of gen_ics.py 20000 and its convert against libical's read and write of the file, the year agenda against
/// libical's bare expansion, JSCalendar against jCal (time on the 20,000-event file, peak memory on the 200,000-event
/// one), and `agenda --week` on a store of gen_ics.py 100000 against libical's convert. With `--before PATH`, the
/// same commands of another icskit binary beside them (what got slower).
enum SpeedBench {
    struct Setup {
        var icskit: String
        var before: String?
        var input: String
        var big: String
        var shared: String
        var runs: Int
        var scratch: URL
        var tool: (String) -> String
        var command: String
    }

    /// One row: the command measured, what it is held against, and the goal.
    struct Row {
        var suffix: String
        var against: String
        var limit: Double
    }

    /// libical's read, parse, serialize and write of the 20,000-event file: what most rows and the floors are
    /// held against.
    static let libicalBaseline = "libical C: read, parse, serialize, write"

    static let rows = [
        Row(suffix: "import 20000 (empty store)", against: libicalBaseline, limit: 1.0),
        Row(suffix: "agenda 2026 --json", against: "libical C: parse + foreach_recurrence 2026", limit: 1.0),
        Row(suffix: "convert 20000 ics → ics", against: libicalBaseline, limit: 0.5),
        Row(suffix: "convert 20000 → JSCalendar", against: "convert 20000 → jCal", limit: 1.2),
        Row(
            suffix: "agenda --week 2026-W48 (100k store)", against: libicalBaseline,
            limit: 0.15),
    ]

    /// The week listed, 2026-W48 in UTC, in seconds (Monday 2026-11-23 to Monday 2026-11-30), for the floor.
    static let week = (from: "1795392000", to: "1795996800")
    /// What SQLite and libical alone take to read and parse the items the week's instances name (in C).
    static let weekFloor = "libical C, SQLite C: the week's items read and parsed"
    /// What SQLite alone takes to write the rows an import of the 20,000-event file writes (in C).
    static let importFloor = "SQLite C: the import's rows copied into an empty store"

    static func run(_ setup: Setup) throws -> String {
        let folder = setup.scratch.appendingPathComponent("speed")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let out = { (name: String) in folder.appendingPathComponent(name).path }
        let store100k = try storeInput(setup, folder: folder)
        var commands: [(name: String, arguments: [String], runs: Int)] = [
            (
                libicalBaseline,
                [setup.tool("libical-baseline"), setup.input, out("c.ics")], setup.runs
            ),
            (
                "libical C: parse + foreach_recurrence 2026",
                [setup.tool("libical-recurrence-baseline"), setup.input, "2026"], setup.runs
            ),
        ]
        for tool in ["libical-week-baseline", "sqlite-import-floor"]
        where !FileManager.default.isExecutableFile(atPath: setup.tool(tool)) {
            throw BenchError("\(setup.tool(tool)) is missing: `make bench` builds it")
        }
        var binaries = [("icskit", setup.icskit)]
        if let before = setup.before { binaries.append(("before", before)) }
        // JSCalendar of the big file: its peak memory, once per binary, first (while this process is small).
        var bigPeaks: [String: Int] = [:]
        for (name, path) in binaries {
            let (status, usage) = try Measure.spawnAndWait([
                path, "convert", "-q", setup.big, "--to", "jscalendar", "-o", out("big.jscal.json"),
            ])
            guard status == 0 else {
                throw BenchError("\(name): convert \(setup.big) --to jscalendar exited \(status)")
            }
            bigPeaks[name] = Int(usage.ru_maxrss) / 1024
            // And read back into iCalendar (an entry at a time since `JSCalendarStreamRead`).
            let (backStatus, backUsage) = try Measure.spawnAndWait([
                path, "convert", "-q", out("big.jscal.json"), "--from", "jscalendar", "-o", out("big.back.ics"),
            ])
            guard backStatus == 0 else { throw BenchError("\(name): convert big.jscal.json back exited \(backStatus)") }
            bigPeaks["back " + name] = Int(backUsage.ru_maxrss) / 1024
        }
        var weekItems = ""
        for (name, path) in binaries {
            let store = out("\(name)-100k.sqlite")
            guard Measure.output([path, "import", store100k, "--calendar", "Big", "-q", "--store", store]) != nil else {
                throw BenchError("\(name): the import of \(store100k) failed")
            }
            // The week's months are indexed by the first listing: once, before the runs.
            _ = Measure.output([path, "agenda", "--week", "2026-W48", "--tz", "UTC", "--store", store])
            if name == "icskit" {
                let floor = [setup.tool("libical-week-baseline"), store, week.from, week.to]
                guard let items = Measure.output(floor) else { throw BenchError("\(weekFloor) failed on \(store)") }
                weekItems = items
                commands.append((weekFloor, floor, setup.runs))
                // The rows of one import of the 20,000-event file, copied again by SQLite alone each run.
                let imported = out("floor-source.sqlite")
                guard
                    Measure.output([path, "import", setup.input, "--calendar", "B", "-q", "--store", imported]) != nil
                else { throw BenchError("\(name): the import of \(setup.input) failed") }
                commands.append(
                    (
                        importFloor,
                        [
                            "/bin/sh", "-c", "rm -f \"$1\"*; exec \"$2\" \"$3\" \"$1\"", "sh", out("floor.sqlite"),
                            setup.tool("sqlite-import-floor"), imported,
                        ], setup.runs
                    ))
            }
            let empty = out("\(name)-import.sqlite")
            commands += [
                (
                    "\(name) import 20000 (empty store)",
                    [
                        "/bin/sh", "-c", "rm -f \"$1\"*; exec \"$2\" import \"$3\" --calendar B -q --store \"$1\"",
                        "sh",
                        empty, path, setup.input,
                    ], setup.runs
                ),
                (
                    "\(name) agenda 2026 --json",
                    [
                        path, "agenda", setup.input, "--from", "2026-01-01", "--to", "2027-01-01", "--tz", "UTC",
                        "--json", "-q",
                    ],
                    setup.runs
                ),
                (
                    "\(name) convert 20000 ics → ics", [path, "convert", "-q", setup.input, "-o", out("o.ics")],
                    setup.runs
                ),
                (
                    "\(name) convert 20000 → JSCalendar",
                    [path, "convert", "-q", setup.input, "--to", "jscalendar", "-o", out("o.jscal.json")], setup.runs
                ),
                (
                    "\(name) convert 20000 → jCal",
                    [path, "convert", "-q", setup.input, "--to", "jcal", "-o", out("o.jcal.json")], setup.runs
                ),
                (
                    "\(name) agenda --week 2026-W48 (100k store)",
                    [path, "agenda", "--week", "2026-W48", "--tz", "UTC", "--store", store], setup.runs
                ),
            ]
        }
        let measured = try Measure.processes(commands)
        func median(_ name: String) -> Double? { measured.first { $0.name == name }?.median }
        var table = [
            "| work | icskit s | against | its s | ratio | goal | | before s |",
            "|---|---:|---|---:|---:|---:|---|---:|",
        ]
        for row in rows {
            guard let seconds = median("icskit " + row.suffix) else { continue }
            let base = median(row.against) ?? median("icskit " + row.against) ?? .nan
            let ratio = seconds / base
            table.append(
                "| \(row.suffix) | \(Report.format(seconds)) | \(row.against) | \(Report.format(base)) | "
                    + String(format: "%.2f×", ratio) + " | ≤ " + String(format: "%.2f×", row.limit) + " | "
                    + (ratio <= row.limit ? "met" : "**NOT met**") + " | "
                    + (median("before " + row.suffix).map(Report.format) ?? "") + " |")
        }
        let peak = bigPeaks["icskit"] ?? 0
        table.append(
            "| convert 200000 → JSCalendar, peak memory | \(peak) MB | | | | ≤ 64 MB | "
                + (peak <= 64 ? "met" : "**NOT met**") + " | " + (bigPeaks["before"].map { "\($0) MB" } ?? "") + " |")
        let back = bigPeaks["back icskit"] ?? 0
        table.append(
            "| convert 200000 JSCalendar → iCalendar, peak memory | \(back) MB | | | | ≤ 64 MB | "
                + (back <= 64 ? "met" : "**NOT met**") + " | "
                + (bigPeaks["back before"].map { "\($0) MB" } ?? "") + " |")
        if let week = median(weekFloor), let rows = median(importFloor), let base = median(libicalBaseline) {
            table += floors(against: (libicalBaseline, base), rows: rows, week: (week, weekItems))
        }
        table += ["", try tricks(setup)]
        return [
            "### Speed: import, the year, convert, JSCalendar and the week against libical", "",
            "- date: \(ISO8601DateFormatter().string(from: Date()))",
            "- machine: \(Report.machine)",
            "- command: `\(setup.command)`; whole processes taking turns, median of \(setup.runs); the import into a "
                + "new store each run (`sh -c 'rm; exec icskit import'`); the week on a store of gen_ics.py 100000 "
                + "whose week was indexed before the runs; the JSCalendar peak from one convert of "
                + "\(URL(fileURLWithPath: setup.big).lastPathComponent)"
                + (setup.before == nil
                    ? "; no --before binary given, its column left empty" : "; before: \(setup.before!)"),
            "", table.joined(separator: "\n"),
        ].joined(separator: "\n")
    }

    /// What the required libraries alone take of the baseline the import's and the week's goals are held against
    /// (`against`), and what that leaves ICSKit.
    static func floors(against: (name: String, seconds: Double), rows: Double, week: (seconds: Double, items: String))
        -> [String]
    {
        let row = { (work: String, seconds: Double) in
            "| \(work) | \(Report.format(seconds)) | \(against.name) | \(Report.format(against.seconds)) | "
                + String(format: "%.2f×", seconds / against.seconds) + " |"
        }
        let weekRatio = week.seconds / against.seconds
        let weekLimit = Self.goal(of: "agenda --week")
        return [
            "", "| floor, in C (not ICSKit) | s | against | its s | ratio |", "|---|---:|---|---:|---:|",
            row(
                "the rows an import of 20000 writes (items, categories, relations, merge base) copied by SQLite alone "
                    + "into an empty store of the same schema and triggers (INSERT … SELECT, one transaction)", rows),
            row(
                "the \(week.items) items of the week's instances read from the 100k store by SQLite and parsed whole "
                    + "by libical (no expansion, order or output)", week.seconds),
            "",
            "- The import's goal leaves ICSKit the baseline less SQLite's own writing of the rows: "
                + String(format: "%.2f×", 1 - rows / against.seconds) + " of it for reading the file, deriving each "
                + "row's columns through its zones, its fingerprint and the zone comparison.",
            weekRatio > weekLimit
                ? "- The week's goal (≤ " + String(format: "%.2f×", weekLimit) + ") is below what SQLite and libical "
                    + "alone take to read and parse the items the index names: items read whole from their "
                    + "iCalendar text cannot meet it."
                : "- The week's goal leaves ICSKit " + String(format: "%.2f×", weekLimit - weekRatio)
                    + " of the baseline beyond reading and parsing the items the index names.",
        ]
    }

    /// The goal of the row whose work starts with `prefix`.
    static func goal(of prefix: String) -> Double { rows.first { $0.suffix.hasPrefix(prefix) }?.limit ?? .nan }

    /// gen_ics.py 100000, written once into the scratch folder by a shell (this process stays small: a child
    /// spawned from it starts with its peak memory as its own).
    static func storeInput(_ setup: Setup, folder: URL) throws -> String {
        let path = folder.appendingPathComponent("bench-100000.ics").path
        let (status, _) = try Measure.spawnAndWait([
            "/bin/sh", "-c", "python3 \"$1\" 100000 > \"$2\"", "sh", setup.shared + "/tools/gen_ics.py", path,
        ])
        guard status == 0 else { throw BenchError("python3 \(setup.shared)/tools/gen_ics.py 100000 failed") }
        return path
    }

    /// The speed tricks measurable in this process, each with and without (BENCHMARKS.md names them).
    static func tricks(_ setup: Setup) throws -> String {
        let calendars = try ICS.read(contentsOf: setup.input).calendars
        var options = ExpansionOptions()
        options.viewerZoneName = "UTC"
        let (from, to) = (Date(timeIntervalSince1970: 1_767_225_600), Date(timeIntervalSince1970: 1_798_761_600))
        func expand(inParts: Bool) -> Measurement {
            var options = options
            options.inParts = inParts
            return Measure.inProcess("expansion of 2026 " + (inParts ? "in parts" : "in order"), runs: setup.runs) {
                for calendar in calendars { _ = calendar.occurrences(from: from, to: to, options: options) }
            }
        }
        let (inOrder, inParts) = (expand(inParts: false), expand(inParts: true))
        return [
            "| trick, in process | with s | without s | with / without |", "|---|---:|---:|---:|",
            "| `ExpansionInParts` (Recurrence/ExpansionInParts.swift): the year of gen_ics.py 20000 expanded | "
                + "\(Report.format(inParts.median)) | \(Report.format(inOrder.median)) | "
                + "\(Report.ratio(inParts.median, inOrder.median)) |",
        ].joined(separator: "\n")
    }
}
