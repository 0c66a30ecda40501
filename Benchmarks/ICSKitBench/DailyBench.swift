import Foundation

/// The daily commands on a store of gen_ics.py 100000 (about 102,500 items), beside khal on the same events (a
/// vdir ICSKit exports, khal's cache built before the runs): `search` (khal search), `show`, `agenda --week` (khal
/// list of that week) and `remind --within 1d`, whole processes, medians.
enum DailyBench {
    static func run(icskit binary: String, shared: String, runs: Int, scratch: URL, command: String) throws -> String {
        let folder = scratch.appendingPathComponent("daily")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let input = folder.appendingPathComponent("bench-100000.ics").path
        guard let text = Measure.output(["python3", shared + "/tools/gen_ics.py", "100000"]) else {
            throw BenchError("python3 \(shared)/tools/gen_ics.py 100000 failed")
        }
        try (text + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let store = folder.appendingPathComponent("store.sqlite").path
        func icskit(_ arguments: [String]) -> [String] { [binary] + arguments + ["--store", store] }
        guard Measure.output(icskit(["import", input, "--calendar", "Big", "-q"])) != nil else {
            throw BenchError("the import of \(input) failed")
        }
        // The search index is made by the first search after an import: once, before the runs (and timed).
        let indexStart = Measure.now()
        _ = Measure.output(icskit(["search", "warm-up"]))
        let indexing = Measure.now() - indexStart
        // The instances of the months a listing needs are kept by the first listing of them: once, timed.
        let keepStart = Measure.now()
        _ = Measure.output(icskit(["agenda", "--week", "2026-W48", "--tz", "UTC"]))
        let keepingWeek = Measure.now() - keepStart
        let keepMoreStart = Measure.now()
        _ = Measure.output(icskit(["remind", "--within", "1d", "--now", "2026-11-25T08:00:00Z", "--tz", "UTC"]))
        let keepingRemind = Measure.now() - keepMoreStart

        var commands: [(name: String, arguments: [String], runs: Int)] = [
            ("icskit search 98397", icskit(["search", "98397", "--tz", "UTC"]), runs),
            (
                "icskit show evt-098397@bench.example", icskit(["show", "evt-098397@bench.example", "--tz", "UTC"]),
                runs
            ),
            ("icskit agenda --week 2026-W48", icskit(["agenda", "--week", "2026-W48", "--tz", "UTC"]), runs),
            (
                "icskit remind --within 1d",
                icskit(["remind", "--within", "1d", "--now", "2026-11-25T08:00:00Z", "--tz", "UTC"]), runs
            ),
        ]
        let khal = try khalSetUp(icskit: icskit, folder: folder)
        if let khal {
            commands += [
                ("khal search 98397", khal + ["search", "98397"], runs),
                ("khal list 2026-11-23 7d", khal + ["list", "2026-11-23", "7d"], runs),
            ]
        }
        let measured = try Measure.processes(commands)
        let goals: [String: Double] = [
            "icskit search 98397": 0.05, "icskit show evt-098397@bench.example": 0.03,
            "icskit agenda --week 2026-W48": 0.1, "icskit remind --within 1d": 0.1,
        ]
        // Peak RSS is left out: the children's rusage holds the import's peak, not each command's.
        let khalTimes = [
            "icskit search 98397": measured.first { $0.name == "khal search 98397" }?.median,
            "icskit agenda --week 2026-W48": measured.first { $0.name == "khal list 2026-11-23 7d" }?.median,
        ]
        var rows = ["| command | median s | goal | | vs khal |", "|---|---:|---:|---|---:|"]
        for measurement in measured {
            let goal = goals[measurement.name]
            let khal = khalTimes[measurement.name].flatMap { $0 }.map { Report.ratio(measurement.median, $0) } ?? ""
            rows.append(
                "| \(measurement.name) | \(Report.format(measurement.median)) | "
                    + (goal.map { "≤ \(Report.format($0)) s" } ?? "") + " | "
                    + (goal.map { measurement.median <= $0 ? "met" : "**NOT met**" } ?? "") + " | \(khal) |")
        }
        return [
            "### Daily commands: a store of gen_ics.py 100000 (102,515 items), beside khal", "",
            "- date: \(ISO8601DateFormatter().string(from: Date()))",
            "- machine: \(Report.machine)",
            "- command: `\(command)`; whole processes taking turns, median of \(runs); the search index made by the "
                + "first search after the import: \(Report.format(indexing)) s, once; the instances of November kept by "
                + "the first agenda: \(Report.format(keepingWeek)) s, of December (remind looks 7 days back and 35 ahead) by "
                + "the first remind: \(Report.format(keepingRemind)) s, once"
                + (khal == nil ? "; khal not found (make venv), its rows left out" : "; khal's cache built before"),
            "", rows.joined(separator: "\n"),
        ].joined(separator: "\n")
    }

    /// khal over a vdir of the same items, its cache built; nil when khal is not installed.
    static func khalSetUp(icskit: ([String]) -> [String], folder: URL) throws -> [String]? {
        guard Measure.output(["khal", "--version"]) != nil else { return nil }
        let vdir = folder.appendingPathComponent("vdir")
        guard Measure.output(icskit(["export", "--calendar", "Big", "--vdir", vdir.path])) != nil else {
            throw BenchError("the vdir export for khal failed")
        }
        let config = folder.appendingPathComponent("khal.conf")
        try """
        [calendars]
        [[big]]
        path = \(vdir.path)
        type = calendar
        [locale]
        timeformat = %H:%M
        dateformat = %Y-%m-%d
        longdateformat = %Y-%m-%d
        datetimeformat = %Y-%m-%d %H:%M
        longdatetimeformat = %Y-%m-%d %H:%M
        local_timezone = UTC
        default_timezone = UTC
        [sqlite]
        path = \(folder.appendingPathComponent("khal.db").path)

        """.write(to: config, atomically: true, encoding: .utf8)
        let khal = ["khal", "-c", config.path]
        guard Measure.output(khal + ["list", "2026-11-23", "1d"]) != nil else {
            throw BenchError("khal could not read the vdir")
        }
        return khal
    }
}
