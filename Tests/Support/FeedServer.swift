import CalendarSync
import Foundation
import XCTest

/// scripts/feed_server.py, started for one test on 127.0.0.1 (a free port), stopped when the test ends: it stops by
/// itself when its standard input closes or after `lifetime` seconds.
public final class FeedServer {
    public let process = Process()
    private let input = Pipe()
    public let port: Int
    private let client = HTTPClient(timeout: 10, retries: 0)

    /// `https` when started with a test certificate (Fixtures/tls: `localhost`, self-signed for 127.0.0.1 and
    /// localhost; `private-localhost`, the same names signed by the test CA `ca-cert.pem`; `wrong-host`, signed by
    /// that CA for calendar.example.org).
    public let scheme: String

    public init(
        lifetime: Int = 120, tls: Bool = false, certificate: String = "localhost", serving file: String? = nil
    ) throws {
        scheme = tls ? "https" : "http"
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                TestEnvironment.pythonExecutable,
                TestEnvironment.package.appendingPathComponent("scripts/feed_server.py").path,
                "--lifetime", String(lifetime),
            ]
            + (tls
                ? [
                    "--tls", TestEnvironment.fixture("tls/\(certificate)-cert.pem"),
                    TestEnvironment.fixture("tls/\(certificate)-key.pem"),
                ] : [])
            + (file.map { ["--serve", $0] } ?? [])
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableLine(), as: UTF8.self)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw Requirement.broken(
                "the feed server did not start (\(TestEnvironment.pythonExecutable)): \"\(line)\"")
        }
        self.port = port
    }

    deinit { stop() }

    public func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The URL of a feed in a mode (see the script).
    public func feed(_ name: String, host: String = "127.0.0.1") -> String {
        "\(scheme)://\(host):\(port)/feed/\(name).ics"
    }

    /// Sets the calendar every feed serves.
    public func serve(_ calendar: String) throws {
        let answer = try client.send(
            HTTPRequest("PUT", URL(string: "http://127.0.0.1:\(port)/calendar")!, body: Array(calendar.utf8)))
        XCTAssertEqual(answer.status, 204)
    }

    /// Serves the feed `name` in another mode from now on.
    public func setMode(_ name: String, _ mode: String) throws {
        let answer = try client.send(
            HTTPRequest("PUT", URL(string: "http://127.0.0.1:\(port)/mode/\(name)")!, body: Array(mode.utf8)))
        XCTAssertEqual(answer.status, 204)
    }

    /// The feed requests so far: path, the validators sent, the status answered, and the client's port (one per
    /// connection).
    public func log() throws -> [(
        path: String, ifNoneMatch: String?, ifModifiedSince: String?, status: Int, host: String, authorized: Bool,
        clientPort: Int
    )] {
        let answer = try client.send(HTTPRequest("GET", URL(string: "http://127.0.0.1:\(port)/log")!))
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(answer.body)) as? [[String: Any]])
        return entries.compactMap { entry in
            guard let path = entry["path"] as? String, path.hasPrefix("/feed/") else { return nil }
            return (
                path, entry["if_none_match"] as? String, entry["if_modified_since"] as? String,
                entry["status"] as? Int ?? 0, entry["host"] as? String ?? "", entry["authorization"] as? Bool ?? false,
                entry["client_port"] as? Int ?? 0
            )
        }
    }
}

extension FileHandle {
    /// Bytes up to and including the first line feed (or the end).
    public func availableLine() -> Data {
        var line = Data()
        while true {
            let byte = readData(ofLength: 1)
            if byte.isEmpty { return line }
            line.append(byte)
            if byte.first == 0x0A { return line }
        }
    }
}
