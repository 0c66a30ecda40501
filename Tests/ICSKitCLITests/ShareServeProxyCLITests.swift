import Foundation
import ICSKitTestSupport
import XCTest

/// docs/SHARING.md's nginx server block, as written there, in front of `icskit serve` with a certificate made for
/// the test: a feed fetched over TLS through it, gzip and 304 included.
final class ShareServeProxyCLITests: StoreCLITestCase {
    /// The nginx block of docs/SHARING.md (the fenced block after `<!-- nginx -->`).
    static func documentedBlock() throws -> String {
        let text = try String(
            contentsOf: CLI.package.appendingPathComponent("docs/SHARING.md"), encoding: .utf8)
        guard let marker = text.range(of: "<!-- nginx -->\n```nginx\n"),
            let end = text.range(of: "\n```", range: marker.upperBound..<text.endIndex)
        else { throw Requirement.broken("docs/SHARING.md has no nginx block after <!-- nginx -->") }
        return String(text[marker.upperBound..<end.lowerBound])
    }

    func testTheDocumentedNginxBlockServesAFeedOverTLS() throws {
        let nginx = "/usr/sbin/nginx"
        guard FileManager.default.isExecutableFile(atPath: nginx) else {
            throw Requirement.missing("nginx is not installed (apt-get install nginx-light; .ci/run does)")
        }
        let file = path("planner.ics")
        try ShareServeCLITests.planner(today: Date()).write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try icskit(["import", file, "--calendar", "Work", "-q"]).status, 0)
        let printed = try icskit(["share", "Work", "--base-url", "https://cal.example.org"]).stdout
        XCTAssertTrue(printed.hasPrefix("https://cal.example.org/feeds/"), printed)
        let server = try ServedStore(store: store, folder: directory)

        // A certificate for cal.example.org, and nginx on a free port with the documented block.
        let (certificate, key) = (path("cert.pem"), path("key.pem"))
        let made = try CLI.run(
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=cal.example.org",
                "-addext", "subjectAltName=DNS:cal.example.org", "-keyout", key, "-out", certificate,
            ], executable: "/usr/bin/openssl", timeout: 60)
        XCTAssertEqual(made.status, 0, made.stderr)
        let port = try DAVServer.freePort()
        let block = try Self.documentedBlock()
            .replacingOccurrences(of: "listen 443 ssl;", with: "listen 127.0.0.1:\(port) ssl;")
            .replacingOccurrences(of: "/etc/letsencrypt/live/cal.example.org/fullchain.pem", with: certificate)
            .replacingOccurrences(of: "/etc/letsencrypt/live/cal.example.org/privkey.pem", with: key)
            .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(server.port)")
        let prefix = directory.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
        let temporary = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map {
            "\($0)_temp_path \(prefix.path)/\($0);"
        }.joined(separator: "\n")
        try """
        daemon off;
        pid \(prefix.path)/nginx.pid;
        error_log \(prefix.path)/error.log warn;
        events { worker_connections 64; }
        http {
        access_log off;
        \(temporary)
        \(block)
        }
        """.write(to: prefix.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let proxy = Process()
        proxy.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        proxy.arguments = ["120", nginx, "-p", prefix.path, "-c", prefix.appendingPathComponent("nginx.conf").path]
        proxy.standardError = FileHandle.nullDevice
        try proxy.run()
        defer {
            proxy.terminate()
            proxy.waitUntilExit()
        }
        let deadline = Date(timeIntervalSinceNow: 20)
        while !DAVServer.isListening(port), Date() < deadline, proxy.isRunning { Thread.sleep(forTimeInterval: 0.05) }
        let log = (try? String(contentsOf: prefix.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        XCTAssertTrue(DAVServer.isListening(port), "nginx did not start: \(log)")

        // Python's TLS client, trusting the test's certificate, reaching cal.example.org at 127.0.0.1.
        let feedPath = String(printed[printed.range(of: "/feeds/")!.lowerBound...])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let script = """
            import gzip, http.client, ssl, sys
            context = ssl.create_default_context(cafile=sys.argv[1])
            def get(path, headers):
                connection = http.client.HTTPSConnection("127.0.0.1", int(sys.argv[2]), context=context, timeout=20)
                connection._tunnel_host = None
                connection.host = "cal.example.org"
                connection.sock = context.wrap_socket(
                    __import__("socket").create_connection(("127.0.0.1", int(sys.argv[2]))),
                    server_hostname="cal.example.org")
                connection.request("GET", path, headers=headers)
                answer = connection.getresponse()
                return answer, answer.read()
            answer, body = get(sys.argv[3], {"Accept-Encoding": "gzip"})
            tag = answer.getheader("ETag")
            print(answer.status, answer.getheader("Content-Encoding"), "BEGIN:VCALENDAR" in gzip.decompress(body).decode())
            again, _ = get(sys.argv[3], {"Accept-Encoding": "gzip", "If-None-Match": tag})
            missing, _ = get("/feeds/" + "A" * 43 + ".ics", {})
            other, _ = get("/", {})
            print(again.status, missing.status, other.status)
            """
        let run = CLI.python(["-c", script, certificate, String(port), feedPath])
        XCTAssertEqual(run.status, 0, run.stderr + log)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "200 gzip True", "the feed, gzipped, over TLS")
        XCTAssertEqual(lines.dropFirst().first, "304 404 404", "304 through the proxy; 404 for the rest")
    }
}
