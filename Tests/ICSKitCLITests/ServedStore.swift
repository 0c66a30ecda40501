import CalendarSync
import Foundation
import ICSKitTestSupport
import XCTest

/// `icskit serve` run by a test: the built binary on 127.0.0.1, on a port the system chooses (read from the line it
/// prints first), stopping by itself after `lifetime` seconds even if the test dies; `stop()` ends it sooner.
final class ServedStore {
    let process = Process()
    let port: Int
    let log: URL

    init(store: String, folder: URL, arguments: [String] = [], lifetime: Int = 300) throws {
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments =
            ["serve", "--store", store, "--listen", "127.0.0.1:0", "--stop-after", String(lifetime)] + arguments
        let output = folder.appendingPathComponent("serve-\(UUID().uuidString).out")
        log = folder.appendingPathComponent("serve-\(UUID().uuidString).err")
        try Data().write(to: output)
        try Data().write(to: log)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let deadline = Date(timeIntervalSinceNow: 30)
        var found: Int?
        while found == nil, Date() < deadline, process.isRunning {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first, line.hasSuffix("/feeds/"),
                let colon = line.lastIndex(of: ":")
            {
                found = Int(line[line.index(after: colon)...].dropLast("/feeds/".count))
            } else {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        guard let found else {
            process.terminate()
            throw Requirement.broken(
                "icskit serve did not start: " + ((try? String(contentsOf: log, encoding: .utf8)) ?? ""))
        }
        port = found
    }

    deinit { stop() }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// The served address of a share's URL as `icskit share` printed it (the base it names swapped for this server).
    func url(_ printed: String) -> String {
        guard let feeds = printed.range(of: "/feeds/") else { return printed }
        return "http://127.0.0.1:\(port)" + printed[feeds.lowerBound...].trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// One request through ICSKit's HTTP client.
    func get(_ url: String, method: String = "GET", headers: [(String, String)] = []) throws -> HTTPResponse {
        try HTTPClient(timeout: 20, retries: 0).send(
            HTTPRequest(method, URL(string: url)!, headers: headers.map { (name: $0.0, value: $0.1) }))
    }
}
