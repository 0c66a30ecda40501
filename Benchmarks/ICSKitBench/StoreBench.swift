import Foundation

/// The store's figures on `gen_ics.py 20000` output: import into an empty store, merge re-runs, a week's export,
/// each as a whole `icskit` process with its own `--store`, beside calcurse's import of the same file.
enum StoreBench {
    struct Row {
        var measurement: Measurement
        /// The goal in seconds, if the issue names one.
        var goal: Double?
        var what: String
    }

    static func run(icskit binary: String, input: String, runs: Int, scratch: URL, command: String) throws -> String {
        let path = { (name: String) in scratch.appendingPathComponent(name).path }
        // The same items with every DTSTAMP new (Google writes a new one on every export), and 1 % of the events
        // with a changed SUMMARY. Made by a child process: a child spawned later starts with this process's peak
        // RSS as its own, so this one must not hold the file's text.
        let restamped = path("restamped.ics"), changed = path("one-percent.ics")
        guard let made = Measure.output([CommandLine.arguments[0], "--make-variants", input, restamped, changed]),
            let changedCount = Int(made)
        else {
            throw BenchError("could not write the merge inputs beside \(input)")
        }

        let imported = path("import.sqlite"), merged = path("merge.sqlite"), week = "2026-W10"
        func icskit(_ arguments: [String], store: String) -> [String] { [binary] + arguments + ["--store", store] }
        // One store holds the import (for the export), the other the merge base; both made before timing.
        let first = try timed(icskit(["merge", input, "--into", "bench", "-q"], store: merged))
        _ = try timed(icskit(["import", input, "--calendar", "bench", "-q"], store: imported))

        var importRuns: [Double] = [], importPeak = 0
        var identical = Measurement(name: "", seconds: [], peakKB: 0)
        var restampedRun = identical, onePercent = identical, export = identical
        for _ in 0..<runs {
            // Import into an empty store.
            let fresh = path("fresh.sqlite")
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: fresh + suffix) }
            let (seconds, peak) = try timed(icskit(["import", input, "--calendar", "bench", "-q"], store: fresh))
            importRuns.append(seconds)
            importPeak = max(importPeak, peak)
            // Merge re-runs: the file merged last time again, the same items re-stamped, 1 % changed; then back.
            identical.add(try timed(icskit(["merge", input, "--into", "bench", "-q"], store: merged)))
            restampedRun.add(try timed(icskit(["merge", restamped, "--into", "bench", "-q"], store: merged)))
            onePercent.add(try timed(icskit(["merge", changed, "--into", "bench", "-q"], store: merged)))
            _ = try timed(icskit(["merge", input, "--into", "bench", "-q"], store: merged))
            export.add(
                try timed(
                    icskit(
                        ["export", "--calendar", "bench", "--week", week, "-o", path("week.ics")],
                        store: imported)))
        }
        let weekText = (try? String(contentsOfFile: path("week.ics"), encoding: .utf8)) ?? ""
        let weekEvents = weekText.components(separatedBy: "BEGIN:VEVENT").count - 1

        // calcurse: import into an empty data folder, then the same file again (it duplicates every item).
        var calcurse: Measurement?
        var calcurseNote = "calcurse is not installed (`apt-get install calcurse`): no ratios."
        if let version = Measure.output(["calcurse", "--version"])?.split(separator: "\n").first {
            var measurement = Measurement(name: "calcurse -i (\(version))", seconds: [], peakKB: 0)
            for _ in 0..<min(runs, 3) {
                let folder = path("calcurse")
                try? FileManager.default.removeItem(atPath: folder)
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                // calcurse exits 1 when it skipped items it cannot represent; that still is its import.
                measurement.add(try timed(["calcurse", "-D", folder, "-q", "-i", input], accepted: [0, 1]))
            }
            let appointments = path("calcurse/apts")
            let once = lineCount(appointments)
            _ = try timed(["calcurse", "-D", path("calcurse"), "-q", "-i", input], accepted: [0, 1])
            calcurse = measurement
            calcurseNote =
                "calcurse keeps \(once) appointment lines after one import and \(lineCount(appointments)) "
                + "after importing the same file again (it duplicates); icskit's re-import changes nothing."
        }

        let rows = [
            Row(
                measurement: Measurement(name: "icskit import (empty store)", seconds: importRuns, peakKB: importPeak),
                goal: 0.5, what: "import"),
            Row(
                measurement: identical.named("icskit merge, the same file again"), goal: 0.3,
                what: "re-run, byte-identical: planned from the merge base"),
            Row(
                measurement: restampedRun.named("icskit merge, same items, every DTSTAMP new"), goal: 0.5,
                what: "re-run, no item changed: scanned, every item left out of decoding"),
            Row(
                measurement: onePercent.named("icskit merge, 1 % of events changed (\(changedCount))"), goal: 0.4,
                what: "update"),
            Row(
                measurement: export.named("icskit export --week \(week) (\(weekEvents) VEVENTs)"), goal: 0.2,
                what: "export"),
        ]
        var lines = [
            "### Store: gen_ics.py 20000 through the SQLite store", "",
            "- date: \(ISO8601DateFormatter().string(from: Date()))",
            "- machine: \(Report.machine)",
            "- command: `\(command)`; median of \(runs) runs (calcurse: \(calcurse?.seconds.count ?? 0)); "
                + "the first merge into an empty calendar took \(Report.format(first.seconds)) s", "",
            "| whole process | median s | peak RSS MB | vs calcurse import | goal | |",
            "|---|---:|---:|---:|---:|---|",
        ]
        for row in rows {
            let median = row.measurement.median
            let goal = row.goal.map { "≤ \(Report.format($0)) s" } ?? "—"
            let met = row.goal.map { median <= $0 ? "met" : "**NOT met**" } ?? ""
            lines.append(
                "| \(row.measurement.name) | \(Report.format(median)) | \(row.measurement.peakKB / 1024) | "
                    + "\(calcurse.map { Report.ratio(median, $0.median) } ?? "—") | \(goal) | \(met) |")
        }
        if let calcurse {
            lines.append(
                "| \(calcurse.name) | \(Report.format(calcurse.median)) | \(calcurse.peakKB / 1024) | 1.00× | | |")
            let speedup = calcurse.median / importRuns.sorted()[runs / 2]
            lines += [
                "",
                "- icskit imports the file **\(Report.format(speedup))×** faster than calcurse (goal ≥ 30×: "
                    + (speedup >= 30 ? "met" : "**NOT met**") + ").",
            ]
        } else {
            lines.append("")
        }
        lines.append("- " + calcurseNote)
        lines.append(
            "- A merge reads only what changed since the source's last merge: the byte-identical file not at all "
                + "(its digest is the last one's), and of another file it decodes only the items whose lines differ "
                + "from what the merge base recorded (DTSTAMP and LAST-MODIFIED aside); the re-stamped re-run leaves "
                + "out every item, the 1 % run all but the changed ones.")
        return lines.joined(separator: "\n")
    }

    static func timed(_ arguments: [String], accepted: Set<Int32> = [0]) throws -> (seconds: Double, peakKB: Int) {
        let start = Measure.now()
        let (status, usage) = try Measure.spawnAndWait(arguments)
        guard accepted.contains(status) else {
            throw BenchError("\(arguments.joined(separator: " ")) exited \(status)")
        }
        return (Measure.now() - start, Int(usage.ru_maxrss))
    }

    /// `ICSKitBench --make-variants INPUT RESTAMPED CHANGED`: writes both variants, prints how many events changed.
    static func makeVariants(_ arguments: [String]) throws {
        guard arguments.count == 3 else { throw BenchError("--make-variants INPUT RESTAMPED CHANGED") }
        let text = try String(contentsOfFile: arguments[0], encoding: .utf8)
        try restamp(text).write(toFile: arguments[1], atomically: true, encoding: .utf8)
        let (changedText, count) = changeOnePercent(text)
        try changedText.write(toFile: arguments[2], atomically: true, encoding: .utf8)
        print(count)
    }

    /// Every DTSTAMP line with a new value.
    static func restamp(_ text: String) -> String {
        text.components(separatedBy: "\r\n").map {
            $0.hasPrefix("DTSTAMP:") ? "DTSTAMP:20261122T000000Z" : $0
        }.joined(separator: "\r\n")
    }

    /// Every hundredth event's SUMMARY changed; returns the text and how many events changed.
    static func changeOnePercent(_ text: String) -> (String, Int) {
        var events = 0, changed = 0, inChosenEvent = false, done = false
        let lines = text.components(separatedBy: "\r\n").map { line -> String in
            if line == "BEGIN:VEVENT" {
                events += 1
                (inChosenEvent, done) = (events % 100 == 0, false)
            } else if line == "END:VEVENT" {
                inChosenEvent = false
            }
            guard inChosenEvent, !done, line.hasPrefix("SUMMARY:") else { return line }
            (changed, done) = (changed + 1, true)
            return "SUMMARY:Changed " + line.dropFirst("SUMMARY:".count)
        }
        return (lines.joined(separator: "\r\n"), changed)
    }

    static func lineCount(_ path: String) -> Int {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").count
    }
}

extension Measurement {
    mutating func add(_ run: (seconds: Double, peakKB: Int)) {
        seconds.append(run.seconds)
        peakKB = max(peakKB, run.peakKB)
    }

    func named(_ name: String) -> Measurement { Measurement(name: name, seconds: seconds, peakKB: peakKB) }
}
