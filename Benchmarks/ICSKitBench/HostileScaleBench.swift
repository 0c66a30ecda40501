import Foundation

/// Work that must grow linearly with hostile data (issues 46 and 59), each measured at two sizes: a title of many
/// line breaks listed by `agenda` (once quadratic: 2 MB 7.8 s, 8 MB 64 s), the answers of many attendees received
/// by `invite` in one run (once quadratic: 400 answers to a 1,000-attendee event 29 s), and forged requests kept
/// aside (once quadratic per UID: 8,000 messages 15 s).
enum HostileScaleBench {
    struct Pair {
        var name: String
        var small: Measurement
        var large: Measurement
        /// How much larger the large input is.
        var factor: Double
        /// The figure the issue reported for the small input, seconds.
        var before: Double
    }

    static func run(icskit: String, runs: Int, scratch: URL) throws -> [Pair] {
        [
            try lineBreaks(icskit: icskit, runs: runs, scratch: scratch), try replies(icskit: icskit, scratch: scratch),
            try held(icskit: icskit, scratch: scratch),
        ]
    }

    /// Forged REQUESTs for an item made here, each kept aside (issue 59: the queue was quadratic per UID, 8,000
    /// messages 15 s): one `invite` run of 2,000, and of 8,000 (past the cap of 1,000 an item, the oldest go).
    static func held(icskit: String, scratch: URL) throws -> Pair {
        func measure(_ count: Int) throws -> Measurement {
            let folder = scratch.appendingPathComponent("held-\(count)")
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = folder.appendingPathComponent("store.sqlite").path
            let uid = "mine@bench"
            let mine = folder.appendingPathComponent("mine.ics").path
            try
                ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n"
                + "DTSTAMP:20261128T000000Z\r\nDTSTART:20261201T100000Z\r\nSUMMARY:Mine\r\nEND:VEVENT\r\n"
                + "END:VCALENDAR\r\n").write(toFile: mine, atomically: true, encoding: .utf8)
            _ = try StoreBench.timed([icskit, "import", mine, "--store", store, "-q"])
            let messages = (0..<count).map { index in
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n"
                    + "DTSTAMP:20261128T000000Z\r\nSEQUENCE:\(index)\r\nDTSTART:20261201T100000Z\r\n"
                    + "SUMMARY:Forged \(index)\r\nORGANIZER:mailto:m@evil.example\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            }
            let file = folder.appendingPathComponent("forged.ics").path
            try messages.joined().write(toFile: file, atomically: true, encoding: .utf8)
            var measurement = Measurement(
                name: "invite of \(count) forged requests, kept aside", seconds: [], peakKB: 0)
            // Messages not applied make the exit status 1.
            measurement.add(try StoreBench.timed([icskit, "invite", file, "--store", store, "--json"], accepted: [1]))
            try? FileManager.default.removeItem(at: folder)
            return measurement
        }
        // The issue's 15 s was for 8,000 messages; growing quadratically, 2,000 took a sixteenth of it.
        return Pair(
            name: "invite of forged requests kept aside", small: try measure(2_000), large: try measure(8_000),
            factor: 4,
            before: 15.0 / 16)
    }

    /// One event whose SUMMARY and DESCRIPTION are `megabytes` of `a\n`, written as TEXT escapes.
    static func lineBreaks(icskit: String, runs: Int, scratch: URL) throws -> Pair {
        func file(_ megabytes: Int) throws -> String {
            let text = String(repeating: "a\\n", count: megabytes << 20 / 6)
            let path = scratch.appendingPathComponent("breaks-\(megabytes).ics").path
            try
                ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nBEGIN:VEVENT\r\nUID:breaks@bench\r\n"
                + "DTSTAMP:20260101T000000Z\r\nDTSTART:20261201T090000Z\r\nSUMMARY:\(text)\r\nDESCRIPTION:\(text)\r\n"
                + "END:VEVENT\r\nEND:VCALENDAR\r\n").write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let window = ["--from", "2026-12-01", "--to", "2026-12-02", "--tz", "UTC", "-q"]
        let measured = try Measure.processes([
            ("agenda, a title of line breaks, 2 MB", [icskit, "agenda", try file(2)] + window, runs),
            ("agenda, a title of line breaks, 8 MB", [icskit, "agenda", try file(8)] + window, runs),
        ])
        return Pair(
            name: "agenda of a title of line breaks", small: measured[0], large: measured[1], factor: 4, before: 7.8)
    }

    /// A REQUEST with 2,000 attendees received into a fresh store, then one `invite` run of an answer from each of
    /// 400 of them (or 1,600): each size once, the store made again each time. Each answer rewrites the item, so the
    /// work grows with answers times attendees; the answers alone grow it linearly.
    static func replies(icskit: String, scratch: URL) throws -> Pair {
        func measure(attendees: Int, answers: Int) throws -> Measurement {
            let folder = scratch.appendingPathComponent("replies-\(attendees)")
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let people = (0..<attendees).map { "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:p\($0)@bench\r\n" }
            let head = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\n"
            let request = folder.appendingPathComponent("request.ics").path
            try
                (head + "METHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:all@bench\r\nDTSTAMP:20260101T000000Z\r\nSEQUENCE:0\r\n"
                + "DTSTART:20261201T090000Z\r\nSUMMARY:All hands\r\nORGANIZER:mailto:boss@bench\r\n"
                + people.joined() + "END:VEVENT\r\nEND:VCALENDAR\r\n").write(
                    toFile: request, atomically: true, encoding: .utf8)
            let answers = try (0..<answers).map { index in
                let path = folder.appendingPathComponent(String(format: "reply-%05d.ics", index)).path
                try
                    (head + "METHOD:REPLY\r\nBEGIN:VEVENT\r\nUID:all@bench\r\nDTSTAMP:20260102T000000Z\r\n"
                    + "SEQUENCE:0\r\nORGANIZER:mailto:boss@bench\r\nATTENDEE;PARTSTAT=ACCEPTED:mailto:p\(index)@bench\r\n"
                    + "END:VEVENT\r\nEND:VCALENDAR\r\n").write(toFile: path, atomically: true, encoding: .utf8)
                return path
            }
            let store = folder.appendingPathComponent("store.sqlite").path
            _ = try StoreBench.timed([icskit, "invite", request, "--store", store])
            var measurement = Measurement(
                name: "invite of \(answers.count) answers to a \(attendees)-attendee event", seconds: [], peakKB: 0)
            measurement.add(try StoreBench.timed([icskit, "invite"] + answers + ["--store", store, "--json"]))
            try? FileManager.default.removeItem(at: folder)
            return measurement
        }
        return Pair(
            name: "invite of the answers of many attendees", small: try measure(attendees: 2_000, answers: 400),
            large: try measure(attendees: 2_000, answers: 1_600), factor: 4, before: 29)
    }

    /// The table rows: each size's median, the growth against the input's, and the small one against the issue's.
    static func rows(_ pairs: [Pair]) -> [String] {
        pairs.flatMap { pair -> [String] in
            let growth = pair.large.median / max(pair.small.median, 0.001)
            // Linear with a constant start: the larger input at most 1.5 times its factor slower.
            let linear = growth <= pair.factor * 1.5
            return [
                "| \(pair.small.name) | \(Report.format(pair.small.median)) | before: \(Report.format(pair.before)) s | "
                    + "\(Report.ratio(pair.small.median, pair.before)) of before |",
                "| \(pair.large.name) | \(Report.format(pair.large.median)) | ≤ \(Int(pair.factor * 1.5))× the "
                    + "smaller (input \(Int(pair.factor))×) | \(linear ? "met" : "**NOT met**") "
                    + "(\(String(format: "%.1f", growth))×) |",
            ]
        }
    }
}
