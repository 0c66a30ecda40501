import CalendarSync
import Foundation
import ICSKitTestSupport
import XCTest

/// `icskit serve` as HTTP: conditional requests, HEAD, gzip, free/busy, one 404 for everything it does not have,
/// and hostile clients on loopback.
final class ServeHTTPCLITests: StoreCLITestCase {
    func servedShare(_ arguments: [String] = []) throws -> (ServedStore, String) {
        let file = path("planner.ics")
        try ShareServeCLITests.planner(today: Date()).write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try icskit(["import", file, "--calendar", "Work", "-q"]).status, 0)
        let printed = try icskit(["share", "Work", "--level", "titles"]).stdout
        let server = try ServedStore(store: store, folder: directory, arguments: arguments)
        return (server, server.url(printed))
    }

    func testConditionalGetsAndHead() throws {
        let (server, url) = try servedShare()
        let first = try server.get(url, headers: [("Accept-Encoding", "identity")])
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(first[header: "Content-Type"], "text/calendar; charset=utf-8")
        let tag = try XCTUnwrap(first[header: "ETag"])
        let modified = try XCTUnwrap(first[header: "Last-Modified"])
        XCTAssertTrue(tag.hasPrefix("\"") && !tag.hasPrefix("W/"), "a strong entity tag: \(tag)")
        XCTAssertTrue(modified.hasSuffix(" GMT"), modified)
        let again = try server.get(url)
        XCTAssertEqual(again.body, first.body, "the same bytes again (ICSKit's client asks for gzip and unpacks)")
        XCTAssertEqual(again[header: "ETag"], String(tag.dropLast()) + "-gzip\"")
        XCTAssertEqual(again[header: "Last-Modified"], modified)
        XCTAssertEqual(
            try server.get(url, headers: [("Accept-Encoding", "deflate")])[header: "ETag"], tag, "no deflate")

        // RFC 9110 §13.1.2: If-None-Match compares weakly, takes lists and *; it wins over If-Modified-Since.
        for value in [tag, "W/" + tag, "\"other\", " + tag, "*"] {
            let answer = try server.get(url, headers: [("If-None-Match", value), ("Accept-Encoding", "identity")])
            XCTAssertEqual(answer.status, 304, value)
            XCTAssertEqual(answer.body, [], value)
            XCTAssertEqual(answer[header: "ETag"], tag)
        }
        XCTAssertEqual(try server.get(url, headers: [("If-None-Match", "\"other\"")]).status, 200)
        XCTAssertEqual(try server.get(url, headers: [("If-Modified-Since", modified)]).status, 304)
        XCTAssertEqual(
            try server.get(url, headers: [("If-Modified-Since", "Sat, 01 Jan 2000 00:00:00 GMT")]).status, 200)
        XCTAssertEqual(
            try server.get(url, headers: [("If-None-Match", "\"other\""), ("If-Modified-Since", modified)]).status,
            200, "If-Modified-Since is ignored beside If-None-Match")

        let head = try server.get(url, method: "HEAD")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.body, [])
        XCTAssertEqual(head[header: "ETag"], tag)
        XCTAssertEqual(head[header: "Content-Length"], String(first.body.count))

        // A change to the calendar is a new feed: a new tag, and the old one no longer matches.
        XCTAssertEqual(
            try icskit(["add", "event", "Late addition", "--start", "tomorrow 20:00", "--calendar", "Work"]).status, 0)
        let changed = try server.get(url, headers: [("If-None-Match", tag), ("Accept-Encoding", "identity")])
        XCTAssertEqual(changed.status, 200)
        XCTAssertNotEqual(changed[header: "ETag"], tag)
        XCTAssertTrue(String(decoding: changed.body, as: UTF8.self).contains("Late addition"))
    }

    func testGzipIsAnotherRepresentationWithItsOwnTag() throws {
        let (server, url) = try servedShare()
        let plain = try server.get(url, headers: [("Accept-Encoding", "identity")])
        let script = """
            import gzip, http.client, sys, urllib.parse
            url = urllib.parse.urlsplit(sys.argv[1])
            connection = http.client.HTTPConnection(url.hostname, url.port, timeout=20)
            connection.request("GET", url.path, headers={"Accept-Encoding": "gzip"})
            answer = connection.getresponse()
            body = answer.read()
            print(answer.status, answer.getheader("Content-Encoding"), answer.getheader("ETag"),
                  answer.getheader("Vary"), len(body))
            sys.stdout.flush()
            sys.stdout.buffer.write(gzip.decompress(body))
            """
        let run = CLI.python(["-c", script, url])
        XCTAssertEqual(run.status, 0, run.stderr)
        let firstLine = run.stdout.prefix { $0 != "\n" }.split(separator: " ").map(String.init)
        XCTAssertEqual(firstLine.prefix(2), ["200", "gzip"])
        XCTAssertEqual(firstLine[2], String(plain[header: "ETag"]!.dropLast()) + "-gzip\"")
        XCTAssertEqual(firstLine[3], "Accept-Encoding")
        XCTAssertLessThan(Int(firstLine[4]) ?? .max, plain.body.count)
        XCTAssertEqual(String(run.stdout.drop { $0 != "\n" }.dropFirst()), String(decoding: plain.body, as: UTF8.self))
    }

    func testFreeBusyAndOneNotFoundForEverythingElse() throws {
        let (server, url) = try servedShare()
        let base = String(url.dropLast(4))
        let busy = try server.get(base + "/freebusy?start=2000-01-01&end=2000-02-01")
        XCTAssertEqual(busy.status, 200)
        let text = String(decoding: busy.body, as: UTF8.self)
        XCTAssertTrue(text.contains("BEGIN:VFREEBUSY") && !text.contains("FREEBUSY;"), "nothing before the window")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let (from, to) = (formatter.string(from: Date()), formatter.string(from: Date() + 14 * 86_400))
        let week = String(decoding: try server.get(base + "/freebusy?start=\(from)&end=\(to)").body, as: UTF8.self)
        XCTAssertTrue(week.contains("FREEBUSY;FBTYPE=BUSY-TENTATIVE:"), week)
        XCTAssertFalse(week.contains("Dentist") || week.contains("Therapy"), week)
        XCTAssertEqual(try server.get(base + "/freebusy?start=tomorrow").status, 400)
        XCTAssertEqual(try server.get(base + "/freebusy?start=2026-01-01&end=2028-01-01").status, 400)

        let unknown = "http://127.0.0.1:\(server.port)/feeds/" + String(repeating: "A", count: 43) + ".ics"
        let answers = try [
            unknown, "http://127.0.0.1:\(server.port)/", "http://127.0.0.1:\(server.port)/feeds/x.ics",
            url + "/freebusy", url.replacingOccurrences(of: "/feeds/", with: "/feeds/%2e%2e/"),
        ].map { try server.get($0) }
        for answer in answers {
            XCTAssertEqual(answer.status, 404)
            XCTAssertEqual(answer.body, answers[0].body, "the same 404 for every miss")
        }
        XCTAssertEqual(try server.get(url, method: "PUT").status, 405)
        XCTAssertEqual(try server.get(url, method: "DELETE").status, 405)
        XCTAssertEqual(try server.get(url).status, 200, "still serving")
    }

    func testHostileClientsAreAnsweredWithoutHarm() throws {
        let (server, url) = try servedShare(["--idle-timeout", "2"])
        let good = String(url[url.range(of: "/feeds/")!.lowerBound...])
        let probe = CLI.python([
            CLI.package.appendingPathComponent("scripts/feed_probe.py").path, "hostile", "127.0.0.1",
            String(server.port), good,
        ])
        XCTAssertEqual(probe.status, 0, probe.stderr)
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
        for name in ["dotdot", "encoded", "encoded-token", "other"] {
            XCTAssertEqual(result[name] as? Int, 404, name)
        }
        XCTAssertEqual(result["64k-header"] as? Int, 431, "a 64 KB head is refused")
        XCTAssertTrue([400, 404].contains(result["bare-lf"] as? Int ?? 0), "bare LFs are answered: \(result)")
        XCTAssertEqual(result["drip-closed"] as? Bool, true, "a slow drip is cut off")
        XCTAssertLessThan(result["drip-seconds"] as? Double ?? 99, 10, "within the idle timeout (2 s), not later")
        XCTAssertEqual(result["idle-refused"] as? Int, 0, "connections are taken, and the idle ones closed")
        XCTAssertEqual(result["good-while-idle"] as? Int, 200, "a subscriber still gets its feed")
        XCTAssertEqual(result["good-after"] as? Int, 200)
        XCTAssertTrue(server.process.isRunning)
        XCTAssertEqual(try server.get(url).status, 200)
    }

    func testServeSaysWhereItListensAndRefusesBadAddresses() throws {
        let (server, _) = try servedShare()
        // Stopped as soon as it said where it listens: TERM is handled from then on, not lost in a window.
        let began = Date()
        server.stop()
        XCTAssertLessThan(Date().timeIntervalSince(began), 10, "TERM stopped it")
        let log = try String(contentsOf: server.log, encoding: .utf8)
        XCTAssertTrue(log.contains("Only this machine can reach it"), log)
        XCTAssertEqual(try icskit(["serve", "--listen", "nowhere"], status: 2).status, 2)
        let help = try icskit(["serve", "--help"]).stdout
        XCTAssertTrue(help.contains("127.0.0.1") && help.contains("TLS proxy"), help)
    }
}
