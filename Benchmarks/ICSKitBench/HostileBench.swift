import Foundation

/// The time limits the tests used to assert, measured here instead (tests assert behaviour, benchmarks time):
/// a sub-daily RRULE that can never match, a text agenda against the JSON one over thirty years, and the replay of
/// every fuzz finding kept as a regression fixture.
enum HostileBench {
    static func run(icskit: String, fuzz: String, fixtures: URL, runs: Int, scratch: URL, command: String) throws
        -> String
    {
        func write(_ name: String, _ events: [String]) throws -> String {
            let path = scratch.appendingPathComponent(name).path
            let body = events.map { "BEGIN:VEVENT\r\n" + $0 + "END:VEVENT\r\n" }.joined()
            try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\n" + body + "END:VCALENDAR\r\n")
                .write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        // Every 8 hours from 09:30 the hours are 09, 17 and 01: never 03 or 06 (the RRULE fuzzer's find, which once
        // walked 400 years of periods, 11 s).
        let never = try write(
            "never.ics",
            [
                "UID:never@bench\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260105T093000Z\r\n"
                    + "RRULE:FREQ=HOURLY;BYHOUR=3,6;BYMINUTE=5,15,25;INTERVAL=8;COUNT=6\r\n"
            ])
        let years = try write(
            "years.ics",
            (0..<40).map { index in
                "UID:r\(index)@bench\r\nDTSTAMP:20260101T000000Z\r\n"
                    + "DTSTART:20000103T\(String(format: "%02d", 6 + index % 12))0000Z\r\nDURATION:PT1H\r\n"
                    + "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR\r\nSUMMARY:Series \(index)\r\n"
            })
        let window = ["--from", "2000-01-01", "--to", "2030-01-01", "--tz", "Europe/Berlin", "-q"]
        let measured = try Measure.processes([
            (
                "agenda of an hourly rule that never matches, a year",
                [
                    icskit, "agenda", never, "--from", "2026-01-01", "--to", "2027-01-01", "--json", "-q",
                ], runs
            ),
            ("agenda of 40 weekly series over 30 years, JSON", [icskit, "agenda", years, "--json"] + window, runs),
            ("agenda of 40 weekly series over 30 years, text", [icskit, "agenda", years] + window, runs),
        ])
        let (lineValidate, lineImport) = try oneLongLine(icskit: icskit, runs: runs, scratch: scratch)
        let page = try secondlyPage(icskit: icskit, runs: runs, scratch: scratch, write: write)
        let scaled = try HostileScaleBench.run(icskit: icskit, runs: runs, scratch: scratch)
        var slowest = (name: "", seconds: 0.0)
        for target in ["ics", "jcal", "xcal", "csv", "rrule", "store"] {
            let folder = fixtures.appendingPathComponent(target)
            for file in ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() {
                let start = Measure.now()
                _ = try Measure.spawnAndWait([fuzz, target, folder.appendingPathComponent(file).path])
                let seconds = Measure.now() - start
                if seconds > slowest.seconds { slowest = ("\(target)/\(file)", seconds) }
            }
        }
        let (never1, json, text) = (measured[0].median, measured[1].median, measured[2].median)
        func verdict(_ met: Bool) -> String { met ? "met" : "**NOT met**" }
        return [
            "### Hostile inputs: time limits once asserted by tests, and linear growth", "",
            "- date: \(ISO8601DateFormatter().string(from: Date()))",
            "- machine: \(Report.machine)",
            "- command: `\(command)`; median of \(runs) runs, taking turns; the fuzz findings once each", "",
            "| case | s | goal | |", "|---|---:|---:|---|",
            "| \(measured[0].name) | \(Report.format(never1)) | ≤ 1.00 s | \(verdict(never1 <= 1)) |",
            "| \(measured[1].name) | \(Report.format(json)) | | |",
            "| \(measured[2].name) | \(Report.format(text)) | ≤ 4× JSON | \(verdict(text <= json * 4)) "
                + "(\(Report.ratio(text, json))) |",
            "| \(lineValidate.name) | \(Report.format(lineValidate.median)) | ≤ 3.00 s | "
                + "\(verdict(lineValidate.median <= 3)) |",
            "| \(lineImport.name) | \(Report.format(lineImport.median)) | ≤ 3.00 s | \(verdict(lineImport.median <= 3)) |",
            "| \(page.name) | \(Report.format(page.median)) | ≤ 1.00 s, ≤ 100 MB | "
                + "\(verdict(page.median <= 1 && page.peakKB <= 100 << 10)) (\(page.peakKB >> 10) MB) |",
            "| slowest fuzz finding replayed (\(slowest.name)) | \(Report.format(slowest.seconds)) | ≤ 20 s | "
                + "\(verdict(slowest.seconds <= 20)) |",
        ]
        .joined(separator: "\n") + "\n" + HostileScaleBench.rows(scaled).joined(separator: "\n")
    }

    /// A calendar whose DESCRIPTION is one unfolded line of 100 MB (each block of a long line was once searched again
    /// for the line's start: 4.7 s to validate 50 MB), validated, and imported into an empty store each run.
    static func oneLongLine(icskit: String, runs: Int, scratch: URL) throws -> (Measurement, Measurement) {
        let path = scratch.appendingPathComponent("one-line-100mb.ics").path
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        file.write(
            Data(
                ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nBEGIN:VEVENT\r\nUID:long@bench\r\n"
                    + "DTSTAMP:20260101T000000Z\r\nDTSTART:20260105T093000Z\r\nSUMMARY:Long\r\nDESCRIPTION:").utf8))
        let block = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<100 { file.write(block) }
        file.write(Data("\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8))
        try file.close()
        let validate = try Measure.processes([("validate of one 100 MB line", [icskit, "validate", path], runs)])[0]
        var imported = Measurement(name: "import of one 100 MB line (empty store)", seconds: [], peakKB: 0)
        let store = scratch.appendingPathComponent("one-line.sqlite").path
        for _ in 0..<runs {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
            imported.add(try StoreBench.timed([icskit, "import", path, "--calendar", "Long", "-q", "--store", store]))
        }
        try? FileManager.default.removeItem(atPath: path)
        return (validate, imported)
    }

    /// A week page of five FREQ=SECONDLY series (750 bytes of ICS; the page once took 10 s and 812 MB and was 257 MB).
    static func secondlyPage(
        icskit: String, runs: Int, scratch: URL, write: (String, [String]) throws -> String
    ) throws -> Measurement {
        let file = try write(
            "secondly.ics",
            (0..<5).map { index in
                "UID:s\(index)@bench\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20261123T00000\(index)Z\r\n"
                    + "DURATION:PT1S\r\nRRULE:FREQ=SECONDLY\r\nSUMMARY:Tick \(index)\r\n"
            })
        let store = scratch.appendingPathComponent("secondly.sqlite").path
        _ = try StoreBench.timed([icskit, "import", file, "--calendar", "Ticks", "-q", "--store", store])
        let page = scratch.appendingPathComponent("secondly.html").path
        return try Measure.processes([
            (
                "export --format html --week of five FREQ=SECONDLY series",
                [
                    icskit, "export", "--format", "html", "--week", "2026-W48", "--tz", "UTC", "--store", store, "-o",
                    page,
                ],
                runs
            )
        ])[0]
    }
}
