import Foundation

/// A subscribed feed of `gen_ics.py 20000` served by scripts/feed_server.py on 127.0.0.1: the first fetch, a
/// refresh answered 304, and a refresh of a feed without validators whose body did not change — each a whole
/// `icskit` process.
enum FeedBench {
    static func run(icskit binary: String, input: String, runs: Int, scratch: URL, command: String) throws -> String {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/feed_server.py").path
        server.arguments = ["python3", script, "--lifetime", "600", "--serve", input]
        let stdin = Pipe(), stdout = Pipe()
        server.standardInput = stdin
        server.standardOutput = stdout
        try server.run()
        defer {
            try? stdin.fileHandleForWriting.close()
            server.terminate()
            server.waitUntilExit()
        }
        var line = Data()
        while true {
            let byte = stdout.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte.first == 0x0A { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            throw BenchError("scripts/feed_server.py did not start")
        }
        let store = scratch.appendingPathComponent("feed.sqlite").path
        func icskit(_ arguments: [String]) -> [String] { [binary] + arguments + ["--store", store, "-q"] }
        let feed = { (mode: String) in "http://127.0.0.1:\(port)/feed/\(mode).ics" }
        let first = try StoreBench.timed(icskit(["subscribe", feed("correct"), "--into", "feed"]))
        _ = try StoreBench.timed(icskit(["subscribe", feed("none"), "--into", "plain"]))
        var notModified = Measurement(name: "icskit refresh, answered 304 Not Modified", seconds: [], peakKB: 0)
        var unchanged = Measurement(
            name: "icskit refresh, no validators, the same 10 MB body", seconds: [], peakKB: 0)
        for _ in 0..<max(runs, 5) { notModified.add(try StoreBench.timed(icskit(["refresh", "feed"]))) }
        for _ in 0..<runs { unchanged.add(try StoreBench.timed(icskit(["refresh", "plain"]))) }
        let goal = 0.05
        return [
            "### Feeds: gen_ics.py 20000 as a web calendar on 127.0.0.1", "",
            "- date: \(ISO8601DateFormatter().string(from: Date()))",
            "- machine: \(Report.machine)",
            "- command: `\(command)`; median of the runs; served by scripts/feed_server.py (python http.server)", "",
            "| whole process | median s | peak RSS MB | goal | |",
            "|---|---:|---:|---:|---|",
            "| icskit subscribe (first fetch + merge into an empty calendar) | \(Report.format(first.seconds)) | "
                + "\(first.peakKB / 1024) | | |",
            "| \(notModified.name) | \(String(format: "%.3f", notModified.median)) | \(notModified.peakKB / 1024) | "
                + "≤ \(Report.format(goal)) s | \(notModified.median <= goal ? "met" : "**NOT met**") |",
            "| \(unchanged.name) | \(Report.format(unchanged.median)) | \(unchanged.peakKB / 1024) | | |",
            "",
            "- The 304 refresh is \(Report.ratio(notModified.median, goal)) of its goal; the unchanged body is "
                + "downloaded and digested, not parsed or merged.",
        ].joined(separator: "\n")
    }
}
