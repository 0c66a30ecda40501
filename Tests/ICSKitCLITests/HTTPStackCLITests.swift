import Foundation
import ICSKitTestSupport
import XCTest

/// The HTTP stack against real local servers: `--timeout` is the deadline of the whole fetch, compressed feeds are
/// read and compression bombs refused, and HTTPS_PROXY / HTTP_PROXY / NO_PROXY choose the way, through a proxy the
/// test starts (scripts/http_proxy.py).
final class HTTPStackCLITests: FeedServerTestCase {
    func icskit(_ arguments: [String], environment: [String: String] = [:]) throws -> CLI.Run {
        try CLI.run(arguments + ["--store", store], timeout: 90, environment: environment)
    }

    func storedCount(_ calendar: String) throws -> Int {
        let run = try icskit(["export", "--calendar", calendar])
        return run.stdout.components(separatedBy: "BEGIN:VEVENT").count - 1
    }

    /// The deadline is the whole fetch's, retries included: the drip is cut off and said to be, and nothing is
    /// kept. (How long that takes is BENCHMARKS.md's, not a test's.)
    func testASlowDripServerIsCutOffAtTheTimeout() throws {
        let run = try icskit(["subscribe", server.feed("drip"), "--into", "Drip", "--timeout", "2"])
        XCTAssertEqual(run.status, 1)
        XCTAssertFalse(run.timedOut)
        XCTAssertTrue(run.stderr.contains("no complete answer from 127.0.0.1 within 2"), run.stderr)
        // Never fetched, it is not kept; registered without a fetch, its refresh is cut off alike.
        XCTAssertTrue(run.stderr.contains("Drip: not subscribed"), run.stderr)
        XCTAssertEqual(try icskit(["subscribe", server.feed("drip"), "--into", "Drip", "--no-fetch"]).status, 0)
        let refresh = try icskit(["refresh", "Drip", "--timeout", "1"])
        XCTAssertEqual(refresh.status, 1)
        XCTAssertTrue(refresh.stderr.contains("no complete answer from 127.0.0.1 within 1"), refresh.stderr)
        XCTAssertEqual(try storedCount("Drip"), 0)
    }

    func testAGzipFeedIsReadAndAGzipBombRefused() throws {
        let read = try icskit(["subscribe", server.feed("gzip"), "--into", "Zipped"])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(try storedCount("Zipped"), 2)
        let bomb = try icskit(["subscribe", server.feed("bomb"), "--into", "Bomb"])
        XCTAssertEqual(bomb.status, 1)
        XCTAssertTrue(bomb.stderr.contains("decompresses to more than"), bomb.stderr)
        XCTAssertEqual(try storedCount("Bomb"), 0)
    }

    /// scripts/http_proxy.py on a free port, and the requests it saw (`METHOD target`, one a line).
    final class Proxy {
        let process = Process()
        let input = Pipe()
        let log: URL
        let port: Int

        init(folder: URL, garbage: Bool = false) throws {
            log = folder.appendingPathComponent("proxy.log")
            try Data().write(to: log)
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments =
                [
                    TestEnvironment.pythonExecutable,
                    TestEnvironment.package.appendingPathComponent("scripts/http_proxy.py").path,
                ] + (garbage ? ["--garbage"] : [])
            process.standardInput = input
            process.standardOutput = output
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()
            let line = String(decoding: output.fileHandleForReading.availableLine(), as: UTF8.self)
            guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw Requirement.broken("the proxy did not start: \(line)")
            }
            self.port = port
        }

        var requests: [String] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        func stop() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    /// A proxy that answers what is no HTTP is named as the fault, not the server behind it (issue 59).
    func testABrokenProxyIsBlamedNotTheServerBehindIt() throws {
        let proxy = try Proxy(folder: scratch, garbage: true)
        defer { proxy.stop() }
        let run = try icskit(
            ["subscribe", server.feed("correct"), "--into", "Broken", "--timeout", "10"],
            environment: [
                "HTTP_PROXY": "http://127.0.0.1:\(proxy.port)", "HTTPS_PROXY": "http://127.0.0.1:\(proxy.port)",
            ])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(
            run.stderr.contains(
                "the proxy 127.0.0.1 port \(proxy.port) (HTTPS_PROXY, HTTP_PROXY) closed the connection or answered "
                    + "what is no HTTP; check the proxy"), run.stderr)
        XCTAssertFalse(run.stderr.contains("before it answered"), run.stderr)
        XCTAssertEqual(try server.log().count, 0, "nothing reached the server")
    }

    func testProxiesFromTheEnvironmentAreUsedAndNOPROXYBypassesThem() throws {
        let proxy = try Proxy(folder: scratch)
        defer { proxy.stop() }
        let viaProxy = [
            "HTTP_PROXY": "http://127.0.0.1:\(proxy.port)", "HTTPS_PROXY": "http://127.0.0.1:\(proxy.port)",
        ]
        let plain = try icskit(["subscribe", server.feed("correct"), "--into", "Plain"], environment: viaProxy)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(try storedCount("Plain"), 2)
        // AsyncHTTPClient tunnels plain http through the proxy as well (CONNECT), as curl does with -p.
        XCTAssertEqual(proxy.requests, ["CONNECT 127.0.0.1:\(server.port)"], "through the proxy")
        XCTAssertEqual(try server.log().count, 1)

        // https through the proxy is a CONNECT tunnel; the certificate is still the server's, checked end to end.
        let secure = try FeedServer(
            tls: true, certificate: "private-localhost", serving: CLI.fixture("hand/recurring-todos.ics"))
        defer { secure.stop() }
        let tunnelled = try icskit(
            ["subscribe", secure.feed("correct"), "--into", "Secure", "--ca-file", CLI.fixture("tls/ca-cert.pem")],
            environment: viaProxy)
        XCTAssertEqual(tunnelled.status, 0, tunnelled.stderr)
        XCTAssertEqual(proxy.requests.last, "CONNECT 127.0.0.1:\(secure.port)")

        // NO_PROXY names the host: straight to the server, the proxy sees nothing more.
        let seen = proxy.requests.count
        let direct = try icskit(
            ["refresh", "Plain", "--force"], environment: viaProxy.merging(["NO_PROXY": "localhost,127.0.0.1"]) { $1 })
        XCTAssertEqual(direct.status, 0, direct.stderr)
        XCTAssertEqual(proxy.requests.count, seen)
        XCTAssertEqual(try server.log().count, 2)
        let bad = try icskit(["refresh", "Plain", "--force"], environment: ["HTTP_PROXY": "socks5://127.0.0.1:1"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("not an http:// proxy"), bad.stderr)
    }
}
