import Foundation
import ICSKitTestSupport
import XCTest

/// Digest authentication (RFC 7616) against Apache httpd's mod_auth_digest (Debian's apache2, started by the test on
/// 127.0.0.1 with a configuration of its own): a feed behind it, and a CalDAV collection (Radicale) behind it as a
/// reverse proxy. The password never crosses the wire; a wrong one is refused.
final class DigestCLITests: XCTestCase {
    var scratch: URL!
    var store: String { scratch.appendingPathComponent("store.sqlite").path }
    static let user = "ana", password = "d1gest-Pa55", realm = "icskit"

    override func setUpWithError() throws { scratch = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { if let scratch { try? FileManager.default.removeItem(at: scratch) } }

    /// Apache on a free port: `/private/` serves `www/private/` and `/dav/` proxies to `backend`, both behind Digest.
    final class Apache {
        let process = Process()
        let port: Int

        init(folder: URL, backend: Int?) throws {
            let binary = "/usr/sbin/apache2"
            guard FileManager.default.isExecutableFile(atPath: binary) else {
                throw Requirement.missing("Apache httpd is not installed (apt-get install apache2)")
            }
            port = try DAVServer.freePort()
            let modules = "/usr/lib/apache2/modules"
            let hash = MD5Hex.of("\(DigestCLITests.user):\(DigestCLITests.realm):\(DigestCLITests.password)")
            try "\(DigestCLITests.user):\(DigestCLITests.realm):\(hash)\n".write(
                to: folder.appendingPathComponent("digest.passwd"), atomically: true, encoding: .utf8)
            let auth = """
                    AuthType Digest
                    AuthName "\(DigestCLITests.realm)"
                    AuthDigestProvider file
                    AuthUserFile "\(folder.path)/digest.passwd"
                    Require valid-user
                """
            var config = """
                ServerRoot "\(folder.path)"
                Listen 127.0.0.1:\(port)
                ServerName 127.0.0.1
                PidFile "\(folder.path)/httpd.pid"
                ErrorLog "\(folder.path)/error.log"
                Mutex file:\(folder.path)
                User nobody
                Group nogroup
                LoadModule mpm_event_module \(modules)/mod_mpm_event.so
                LoadModule authn_core_module \(modules)/mod_authn_core.so
                LoadModule authn_file_module \(modules)/mod_authn_file.so
                LoadModule authz_core_module \(modules)/mod_authz_core.so
                LoadModule authz_user_module \(modules)/mod_authz_user.so
                LoadModule auth_digest_module \(modules)/mod_auth_digest.so
                LoadModule headers_module \(modules)/mod_headers.so
                LoadModule proxy_module \(modules)/mod_proxy.so
                LoadModule proxy_http_module \(modules)/mod_proxy_http.so
                DocumentRoot "\(folder.path)/www"
                <Directory "\(folder.path)/www">
                    Require all granted
                </Directory>
                <Location "/private/">
                \(auth)
                </Location>

                """
            if let backend {
                config += """
                    <Location "/dav/">
                    \(auth)
                        RequestHeader set X-Script-Name /dav
                        RequestHeader unset Authorization
                        ProxyPass "http://127.0.0.1:\(backend)/"
                        ProxyPassReverse "http://127.0.0.1:\(backend)/"
                    </Location>

                    """
            }
            let file = folder.appendingPathComponent("httpd.conf")
            try config.write(to: file, atomically: true, encoding: .utf8)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["timeout", "300", binary, "-f", file.path, "-DFOREGROUND"]
            process.standardOutput = FileHandle.nullDevice
            let output = folder.appendingPathComponent("apache.out")
            try Data().write(to: output)
            process.standardError = try FileHandle(forWritingTo: output)
            try process.run()
            let deadline = Date(timeIntervalSinceNow: 20)
            while Date() < deadline {
                if DAVServer.isListening(port) { return }
                guard process.isRunning else { break }
                Thread.sleep(forTimeInterval: 0.1)
            }
            let log = ["apache.out", "error.log"].compactMap {
                try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
            }.joined()
            throw Requirement.broken("Apache httpd did not start: \(log)")
        }

        func stop() {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
    }

    func testAFeedBehindDigestAuthentication() throws {
        let folder = scratch.appendingPathComponent("apache")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("www/private"), withIntermediateDirectories: true)
        try FeedCLITests.calendar([("a@feed", "Opening", "20261201T090000Z"), ("b@feed", "Talk", "20261202T090000Z")])
            .write(to: folder.appendingPathComponent("www/private/cal.ics"), atomically: true, encoding: .utf8)
        let apache = try Apache(folder: folder, backend: nil)
        defer { apache.stop() }
        let url = "http://127.0.0.1:\(apache.port)/private/cal.ics"
        let wrong = try CLI.run(
            ["subscribe", url, "--into", "Wrong", "--user", Self.user, "--store", store], timeout: 60,
            environment: ["ICSKIT_PASSWORD": "not-it"])
        XCTAssertEqual(wrong.status, 1, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("401"), wrong.stderr)
        let right = try CLI.run(
            ["subscribe", url, "--into", "Digest", "--user", Self.user, "--store", store, "--json"], timeout: 60,
            environment: ["ICSKIT_PASSWORD": Self.password])
        XCTAssertEqual(right.status, 0, right.stderr)
        let exported = try CLI.run(["export", "--calendar", "Digest", "--store", store])
        XCTAssertEqual(exported.stdout.components(separatedBy: "BEGIN:VEVENT").count - 1, 2)
    }

    func testACalDAVCollectionBehindDigestAuthentication() throws {
        // Apache asks for the password (Digest) and passes the requests on: Radicale asks for none.
        let dav = try DAVServer(.radicale, folder: scratch, authenticated: false)
        defer { dav.stop() }
        let folder = scratch.appendingPathComponent("apache")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("www"), withIntermediateDirectories: true)
        let apache = try Apache(folder: folder, backend: dav.port)
        defer { apache.stop() }
        let environment = ["ICSKIT_PASSWORD": Self.password]
        XCTAssertEqual(
            try CLI.run([
                "import", CLI.fixture("hand/recurring-todos.ics"), "--calendar", "Work", "-q", "--store", store,
            ])
            .status, 0)
        let collection = "http://127.0.0.1:\(apache.port)/dav/\(DAVServer.user)/work/"
        let first = try CLI.run(
            ["sync", "Work", "--caldav", collection, "--user", Self.user, "--json", "--store", store], timeout: 120,
            environment: environment)
        XCTAssertEqual(first.status, 0, first.stderr)
        let stored = try CLI.storedItems(calendar: "Work", store: store)
        XCTAssertEqual(try dav.peer(["list"]).split(separator: "\n").map(String.init).sorted(), stored)
        // The other client edits an item on the server; the next sync through Apache takes it.
        _ = try dav.peer(["summary", "once@example.org", "Renew passport today"])
        let second = try CLI.run(["sync", "--json", "--store", store], timeout: 120, environment: environment)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(
            try CLI.storedItems(calendar: "Work", store: store).contains("once@example.org Renew passport today"))
    }
}

/// MD5 as hex, for the htdigest file the test writes (python's hashlib, an implementation other than ICSKit's).
enum MD5Hex {
    static func of(_ text: String) -> String {
        CLI.python(["-c", "import hashlib,sys; print(hashlib.md5(sys.argv[1].encode()).hexdigest())", text]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
