import Foundation

/// The redesign step's figures (issue 47), in one run taking turns: `agenda --week` on a store of gen_ics.py 100000
/// and the import of gen_ics.py 20000 against libical's own convert of that file, the year agenda against libical's
/// bare expansion, and `search`, `show` and the week beside the binary from before the step (`--before PATH`).
enum StepBench {
    static func run(
        icskit binary: String, before: String?, input: String, shared: String, runs: Int, scratch: URL,
        tool: (String) -> String, command: String
    ) throws -> String {
        let folder = scratch.appendingPathComponent("step")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let big = folder.appendingPathComponent("bench-100000.ics").path
        guard let text = Measure.output(["python3", shared + "/tools/gen_ics.py", "100000"]) else {
            throw BenchError("python3 \(shared)/tools/gen_ics.py 100000 failed")
        }
        try (text + "\n").write(toFile: big, atomically: true, encoding: .utf8)
        // Each binary its own store of the 100,000 items (the new one's schema differs), its index made once.
        var binaries = [("icskit", binary)]
        if let before { binaries.append(("before", before)) }
        var commands: [(name: String, arguments: [String], runs: Int)] = [
            (
                "libical C: convert 20000",
                [tool("libical-baseline"), input, folder.appendingPathComponent("c.ics").path], runs
            ),
            ("libical C: parse + foreach_recurrence 2026", [tool("libical-recurrence-baseline"), input, "2026"], runs),
        ]
        for (name, path) in binaries {
            let store = folder.appendingPathComponent("\(name).sqlite").path
            guard Measure.output([path, "import", big, "--calendar", "Big", "-q", "--store", store]) != nil else {
                throw BenchError("\(name): the import of \(big) failed")
            }
            _ = Measure.output([path, "agenda", "--week", "2026-W48", "--tz", "UTC", "--store", store])
            _ = Measure.output([path, "search", "warm-up", "--store", store])
            let empty = folder.appendingPathComponent("\(name)-import.sqlite").path
            commands += [
                (
                    "\(name) agenda --week 2026-W48",
                    [path, "agenda", "--week", "2026-W48", "--tz", "UTC", "--store", store], runs
                ),
                ("\(name) search 98397", [path, "search", "98397", "--tz", "UTC", "--store", store], runs),
                (
                    "\(name) show evt-098397",
                    [path, "show", "evt-098397@bench.example", "--tz", "UTC", "--store", store], runs
                ),
                (
                    "\(name) import 20000 (empty store)",
                    [
                        "/bin/sh", "-c", "rm -f \"$1\"*; exec \"$2\" import \"$3\" --calendar B -q --store \"$1\"",
                        "sh",
                        empty, path, input,
                    ], runs
                ),
                (
                    "\(name) agenda 2026 --json",
                    [
                        path, "agenda", input, "--from", "2026-01-01", "--to", "2027-01-01", "--tz", "UTC", "--json",
                        "-q",
                    ],
                    runs
                ),
            ]
        }
        let measured = try Measure.processes(commands)
        func median(_ name: String) -> Double? { measured.first { $0.name == name }?.median }
        let convert = median("libical C: convert 20000") ?? .nan
        let expansion = median("libical C: parse + foreach_recurrence 2026") ?? .nan
        // What each figure is held against, and the goal.
        let goals: [(suffix: String, against: String, baseline: Double?, goal: String, limit: Double?)] = [
            ("agenda --week 2026-W48", "libical convert", convert, "≤ 0.5×", 0.5),
            ("import 20000 (empty store)", "libical convert", convert, "≤ 1.2×", 1.2),
            ("agenda 2026 --json", "libical expansion", expansion, "≤ 1.0×", 1.0),
            ("search 98397", "before", median("before search 98397"), "0.8–1.2×", nil),
            ("show evt-098397", "before", median("before show evt-098397"), "0.8–1.2×", nil),
        ]
        var rows = [
            "| command | median s | ratio | against | goal | | before s |", "|---|---:|---:|---|---:|---|---:|",
        ]
        for goal in goals {
            guard let seconds = median("icskit " + goal.suffix) else { continue }
            let ratio = goal.baseline.map { seconds / $0 }
            let met: String
            if let ratio, let limit = goal.limit {
                met = ratio <= limit ? "met" : "**NOT met**"
            } else if let ratio {
                met = ratio >= 0.8 && ratio <= 1.2 ? "met" : (ratio < 0.8 ? "faster" : "**NOT met**")
            } else {
                met = ""
            }
            let previous = median("before " + goal.suffix).map(Report.format) ?? ""
            rows.append(
                "| icskit \(goal.suffix) | \(Report.format(seconds)) | "
                    + (ratio.map { String(format: "%.2f×", $0) } ?? "")
                    + " | \(goal.against) | \(goal.goal) | \(met) | "
                    + "\(previous) |")
        }
        rows.append("| libical C: convert 20000 | \(Report.format(convert)) | | | | | |")
        rows.append("| libical C: parse + foreach_recurrence 2026 | \(Report.format(expansion)) | | | | | |")
        return [
            "### The redesign step: listing, import and year agenda against libical, beside the binary before it", "",
            "- date: \(ISO8601DateFormatter().string(from: Date()))",
            "- machine: \(Report.machine)",
            "- command: `\(command)`; whole processes taking turns, median of \(runs); the store of gen_ics.py 100000 "
                + "imported by each binary, its week indexed and its search index made before the runs; the import "
                + "into a new store each run (`sh -c 'rm; exec icskit import'`)"
                + (before == nil ? "; no --before binary given, its column left empty" : ""),
            "", rows.joined(separator: "\n"),
        ].joined(separator: "\n")
    }
}
