import CalendarSync
import Foundation
import ICSKitTestSupport
import XCTest

/// A real CalDAV server from the test virtual environment (Radicale or Xandikos), on 127.0.0.1 on a free port, in
/// a folder of the test's own; `timeout` bounds its life even if the test dies, `stop()` ends it.
final class DAVServer {
    enum Kind: String { case radicale, xandikos }

    let kind: Kind
    let process = Process()
    let port: Int
    /// The calendar collection the tests sync with.
    let collection: String
    static let user = "test", password = "s3cr3t-Pa55"

    /// `authenticated`: Radicale asks for the password (htpasswd) as a server that needs one does; without, it
    /// takes any user (behind a proxy that authenticates).
    /// `lifetime` bounds the server's life in seconds even if the test dies.
    init(_ kind: Kind, folder: URL, authenticated: Bool = true, lifetime: Int = 600) throws {
        self.kind = kind
        let bin = URL(fileURLWithPath: CLI.pythonExecutable).deletingLastPathComponent()
        port = try Self.freePort()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        switch kind {
        case .radicale:
            let config = folder.appendingPathComponent("radicale.conf")
            try "\(Self.user):\(Self.password)\n".write(
                to: folder.appendingPathComponent("users"), atomically: true, encoding: .utf8)
            try """
            [server]
            hosts = 127.0.0.1:\(port)
            [auth]
            \(authenticated ? "type = htpasswd" : "type = none")
            htpasswd_filename = \(folder.appendingPathComponent("users").path)
            htpasswd_encryption = plain
            [storage]
            filesystem_folder = \(folder.appendingPathComponent("collections").path)
            [logging]
            level = warning
            """.write(to: config, atomically: true, encoding: .utf8)
            process.arguments = [
                "timeout", String(lifetime), CLI.pythonExecutable, "-m", "radicale", "--config", config.path,
            ]
            collection = "http://127.0.0.1:\(port)/\(Self.user)/work/"
        case .xandikos:
            let xandikos = bin.appendingPathComponent("xandikos").path
            process.arguments = [
                "timeout", String(lifetime), xandikos, "serve", "--defaults", "-d",
                folder.appendingPathComponent("data").path,
                "-l", "127.0.0.1", "-p", String(port),
            ]
            collection = "http://127.0.0.1:\(port)/user/calendars/calendar/"
        }
        let log = folder.appendingPathComponent("\(kind.rawValue).log")
        try Data().write(to: log)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = try FileHandle(forWritingTo: log)
        do { try process.run() } catch { throw Requirement.broken("\(kind.rawValue) cannot start: \(error)") }
        let deadline = Date(timeIntervalSinceNow: 20)
        let client = HTTPClient(timeout: 2, retries: 0, credentials: (Self.user, Self.password))
        while Date() < deadline {
            if (try? client.send(HTTPRequest("OPTIONS", URL(string: "http://127.0.0.1:\(port)/")!))) != nil { break }
            guard process.isRunning else {
                throw Requirement.broken(
                    "\(kind.rawValue) did not start from \(bin.path) (make venv installs it): "
                        + ((try? String(contentsOf: log, encoding: .utf8)) ?? ""))
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        if kind == .radicale {
            // Said at once (no 401 comes when Radicale asks for no password, and the user is who the request says).
            let basic = "Basic " + Data("\(Self.user):\(Self.password)".utf8).base64EncodedString()
            let made = try client.send(
                HTTPRequest("MKCALENDAR", URL(string: collection)!, headers: [("Authorization", basic)]))
            XCTAssertEqual(made.status, 201, "MKCALENDAR")
        }
    }

    deinit { stop() }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// A port nothing listens on now (the kernel's choice for port 0).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw Requirement.broken("no free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on 127.0.0.1 at `port`.
    static func isListening(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// scripts/caldav_peer.py (python caldav) against the collection.
    func peer(_ arguments: [String]) throws -> String {
        let run = CLI.python(
            [CLI.package.appendingPathComponent("scripts/caldav_peer.py").path, collection, Self.user, Self.password]
                + arguments)
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout
    }
}
