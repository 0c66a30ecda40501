import Foundation
import ICSKitTestSupport
import XCTest

/// `icskit sync CAL --caldav URL` against Radicale and Xandikos, with python caldav as a second client that
/// changes the collection between syncs.
final class CalDAVSyncCLITests: XCTestCase {
    var scratch: URL!
    var store: String { scratch.appendingPathComponent("store.sqlite").path }

    override func setUpWithError() throws { scratch = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { if let scratch { try? FileManager.default.removeItem(at: scratch) } }

    func icskit(_ arguments: [String]) throws -> CLI.Run {
        try CLI.run(
            arguments + ["--store", store], timeout: 120, environment: ["ICSKIT_PASSWORD": DAVServer.password])
    }

    func syncJSON(_ arguments: [String] = []) throws -> [String: Any] {
        try CLI.syncReport(try icskit(["sync", "--json"] + arguments))
    }

    func stored() throws -> [String] { try CLI.storedItems(calendar: "Work", store: store) }

    func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init).sorted() }

    func testRadicale() throws { try bothWays(.radicale) }

    /// A resource whose name holds a space, `%`, `#` and a non-ASCII letter (put there by another client) is read,
    /// written back and deleted under the very name the server gave, percent-encoded as its hrefs are.
    func testAnOddResourceNameRoundTripsThroughSyncWithRadicale() throws {
        let server = try DAVServer(.radicale, folder: scratch)
        defer { server.stop() }
        let name = "a b%c#d é.ics"
        _ = try server.peer(["create-at", name, "odd@test", "Odd name", "20261205T100000Z"])
        let first = try icskit(["sync", "Work", "--caldav", server.collection, "--user", DAVServer.user])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try stored(), ["odd@test Odd name"])
        XCTAssertEqual(try icskit(["edit", "odd@test", "--summary", "Changed here"]).status, 0)
        let pushed = try syncJSON()
        XCTAssertEqual(pushed["updated"] as? Int, 1, "\(pushed)")
        XCTAssertEqual(lines(try server.peer(["list"])), ["odd@test Changed here"])
        XCTAssertEqual(lines(try server.peer(["names"])), [name], "written to the same resource, not a new one")
        XCTAssertEqual(try icskit(["rm", "odd@test"]).status, 0)
        XCTAssertEqual(try syncJSON()["deleted"] as? Int, 1)
        XCTAssertEqual(try server.peer(["names"]).trimmingCharacters(in: .whitespacesAndNewlines), "")
    }

    /// A user name and password in the --caldav or --discover URL are that run's credentials: the store keeps the
    /// collection's URL without them (and the user name as the partner's user), and no output shows the password.
    func testAPasswordInTheCalDAVURLIsUsedButNeverStoredOrShown() throws {
        let server = try DAVServer(.radicale, folder: scratch)
        defer { server.stop() }
        let secret = "s3cr3t-Pa55"
        func withPassword(_ url: String) -> String {
            url.replacingOccurrences(of: "http://", with: "http://\(DAVServer.user):\(secret)@")
        }
        XCTAssertEqual(
            try icskit(["import", CLI.fixture("hand/recurring-todos.ics"), "--calendar", "Work", "-q"]).status, 0)
        var runs: [CLI.Run] = []
        runs.append(
            try CLI.run(["sync", "--discover", withPassword("http://127.0.0.1:\(server.port)/"), "--store", store]))
        runs.append(
            try CLI.run(["sync", "Work", "--caldav", withPassword(server.collection), "--json", "--store", store]))
        runs.append(try icskit(["sync", "--json"]))  // the password from ICSKIT_PASSWORD, the user name kept
        for run in runs {
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertFalse((run.stdout + run.stderr).contains(secret), run.stdout + run.stderr)
        }
        XCTAssertTrue(runs[0].stdout.contains(server.collection), runs[0].stdout)
        XCTAssertTrue(runs[1].stderr.contains("used for this run only"), runs[1].stderr)
        XCTAssertTrue(runs[2].stdout.contains(server.collection), runs[2].stdout)
        XCTAssertEqual(lines(try server.peer(["list"])), try stored())
        for path in [store, store + "-wal", store + "-shm"] {
            let bytes = FileManager.default.contents(atPath: path) ?? Data()
            XCTAssertNil(bytes.range(of: Data(secret.utf8)), path)
        }
        XCTAssertEqual(
            try CLI.sqlite(store, "SELECT user || ' ' || location FROM syncPartner;"),
            "\(DAVServer.user) \(server.collection)\n")
    }
    func testXandikos() throws { try bothWays(.xandikos) }

    func bothWays(_ kind: DAVServer.Kind) throws {
        let server = try DAVServer(kind, folder: scratch)
        defer { server.stop() }
        let discovered = try icskit([
            "sync", "--discover", "http://127.0.0.1:\(server.port)/", "--user", DAVServer.user,
        ])
        XCTAssertEqual(discovered.status, 0, discovered.stderr)
        XCTAssertTrue(discovered.stdout.contains(server.collection), discovered.stdout)

        XCTAssertEqual(
            try icskit(["import", CLI.fixture("hand/recurring-todos.ics"), "--calendar", "Work", "-q"]).status, 0)
        let first = try icskit(["sync", "Work", "--caldav", server.collection, "--user", DAVServer.user, "--json"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(lines(try server.peer(["list"])), try stored(), "the server holds what the store holds")
        XCTAssertTrue(try syncJSON()["idle"] as? Bool ?? false, "no change: one listing, nothing fetched")

        // The second client edits one item, deletes one, creates one; the store takes all three.
        _ = try server.peer(["summary", "once@example.org", "Renew passport today"])
        _ = try server.peer(["delete", "diary@example.org"])
        _ = try server.peer(["create", "peer-new@test", "From the other client", "20261205T100000Z"])
        let pulled = try XCTUnwrap(try syncJSON()["pulled"] as? [String: Any])
        XCTAssertEqual([pulled["added"], pulled["updated"], pulled["deleted"]] as? [Int], [1, 1, 1])
        XCTAssertEqual(lines(try server.peer(["list"])), try stored())
        XCTAssertTrue(try stored().contains("once@example.org Renew passport today"))
        XCTAssertTrue(try syncJSON()["idle"] as? Bool ?? false)

        // Changes here go there: a todo done (the whole series), an item deleted.
        XCTAssertEqual(try icskit(["done", "report@example.org", "--series"]).status, 0)
        XCTAssertEqual(try icskit(["rm", "standup@example.org", "--yes"]).status, 0)
        let pushed = try syncJSON()
        XCTAssertEqual([pushed["updated"], pushed["deleted"]] as? [Int], [1, 1])
        XCTAssertEqual(lines(try server.peer(["list"])), try stored())
        XCTAssertFalse(try server.peer(["list"]).contains("standup@"))

        // Both sides change the same series, in different properties (a new summary there, the whole series done
        // here): merged property by property against the base, both changes kept.
        _ = try server.peer(["summary", "plants@example.org", "Water the ferns"])
        XCTAssertEqual(try icskit(["done", "plants@example.org", "--series"]).status, 0)
        let merged = try syncJSON()
        XCTAssertEqual(
            (merged["pulled"] as? [String: Any])?["merged"] as? Int, 1, "the series (its override was done already)")
        XCTAssertEqual((merged["pulled"] as? [String: Any])?["conflicts"] as? Int, 0)
        XCTAssertTrue(try stored().contains("plants@example.org Water the ferns"))
        let exported = try icskit(["export", "--calendar", "Work"]).stdout
        XCTAssertEqual(exported.components(separatedBy: "STATUS:COMPLETED").count - 1, 3, "report and both plants")
        XCTAssertEqual(lines(try server.peer(["list"])), try stored())
        XCTAssertTrue(try syncJSON()["idle"] as? Bool ?? false)

        // An override added here goes there inside its series' resource; removed there, it goes here too.
        let override = scratch.appendingPathComponent("override.ics")
        try """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VTODO\r
        UID:report@example.org\r
        DTSTAMP:20260101T000000Z\r
        RECURRENCE-ID;TZID=Europe/Berlin:20260112T090000\r
        DTSTART;TZID=Europe/Berlin:20260112T110000\r
        SUMMARY:Weekly report (late)\r
        END:VTODO\r
        END:VCALENDAR\r

        """.write(to: override, atomically: true, encoding: .utf8)
        XCTAssertEqual(try icskit(["import", override.path, "--calendar", "Work", "-q"]).status, 0)
        XCTAssertEqual(try syncJSON()["updated"] as? Int, 1, "the series' one resource")
        XCTAssertTrue(try server.peer(["list"]).contains("report@example.org Weekly report (late)"))
        _ = try server.peer(["masters-only", "report@example.org"])
        XCTAssertEqual((try syncJSON()["pulled"] as? [String: Any])?["deleted"] as? Int, 1)
        XCTAssertFalse(try stored().contains("report@example.org Weekly report (late)"))
        XCTAssertEqual(lines(try server.peer(["list"])), try stored())

        // Deleted there, changed here: the change wins, and the item goes back to the server.
        _ = try server.peer(["delete", "once@example.org"])
        XCTAssertEqual(try icskit(["done", "once@example.org"]).status, 0)
        let revived = try syncJSON()
        XCTAssertEqual(revived["created"] as? Int, 1)
        XCTAssertTrue(try server.peer(["list"]).contains("once@example.org"))
        XCTAssertEqual(lines(try server.peer(["list"])), try stored())

        // A second calendar of this store may not bind the same collection (each would copy the other's items into
        // it, issue 59); another store's calendar may, and its first sync brings everything down.
        let twice = try icskit(["sync", "Copy", "--caldav", server.collection, "--user", DAVServer.user])
        XCTAssertEqual(twice.status, 1, twice.stderr)
        XCTAssertTrue(twice.stderr.contains("already syncs with calendar \"Work\""), twice.stderr)
        let other = scratch.appendingPathComponent("other.sqlite").path
        let copy = try CLI.run(
            ["sync", "Copy", "--caldav", server.collection, "--user", DAVServer.user, "--store", other], timeout: 120,
            environment: ["ICSKIT_PASSWORD": DAVServer.password])
        XCTAssertEqual(copy.status, 0, copy.stderr)
        XCTAssertEqual(try CLI.storedItems(calendar: "Copy", store: other), try stored())

        // The server forgets the sync token (a reset): the sync lists everything instead, and misses nothing.
        let token = CLI.python([
            "-c",
            "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); "
                + "print(db.execute('SELECT syncToken FROM syncPartner').fetchone()[0]); "
                + "db.execute(\"UPDATE syncPartner SET syncToken = syncToken || '-forgotten'\"); db.commit()",
            store,
        ])
        XCTAssertEqual(token.status, 0, token.stderr)
        XCTAssertFalse(token.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "a sync token was kept")
        _ = try server.peer(["summary", "once@example.org", "Renew passport after the reset"])
        let afterReset = try XCTUnwrap(try syncJSON()["pulled"] as? [String: Any])
        XCTAssertEqual(afterReset["updated"] as? Int, 1)
        XCTAssertEqual(lines(try server.peer(["list"])), try stored())
        XCTAssertTrue(try syncJSON()["idle"] as? Bool ?? false)
    }

    /// A sync killed (SIGKILL) at any point, then run again: the server and the store end up equal, with no item
    /// twice and the store sound.
    func testASyncKilledAtRandomPointsFinishesLater() throws {
        let server = try DAVServer(.radicale, folder: scratch)
        defer { server.stop() }
        var calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
        for index in 0..<120 {
            calendar +=
                "BEGIN:VEVENT\r\nUID:item-\(index)@test\r\nDTSTAMP:20261101T000000Z\r\n"
                + "DTSTART:202612\(String(format: "%02d", index % 28 + 1))T090000Z\r\nSUMMARY:Item \(index)\r\nEND:VEVENT\r\n"
        }
        calendar += "END:VCALENDAR\r\n"
        let file = scratch.appendingPathComponent("many.ics")
        try calendar.write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try icskit(["import", file.path, "--calendar", "Work", "-q"]).status, 0)
        let seed = SeededGenerator.seed(from: "ICSKIT_KILL_SEED")
        print("sync kill delays: seed \(seed) (ICSKIT_KILL_SEED=\(seed) replays them)")
        var generator = SeededGenerator(seed: seed)
        var killed = 0
        for round in 0..<6 {
            let delay = Double.random(in: 0.05...0.6, using: &generator)
            let run = try CLI.run(
                (round == 0 ? ["sync", "Work", "--caldav", server.collection, "--user", DAVServer.user] : ["sync"])
                    + ["--store", store, "-q"],
                timeout: delay, environment: ["ICSKIT_PASSWORD": DAVServer.password])
            if run.timedOut { killed += 1 }
            if round % 2 == 1 {
                _ = try server.peer(["create", "peer-\(round)@test", "Peer \(round)", "20261210T080000Z"])
            }
        }
        let finish = try icskit(["sync"])
        XCTAssertEqual(finish.status, 0, finish.stderr)
        let there = lines(try server.peer(["list"]))
        XCTAssertEqual(there, try stored(), "killed \(killed) time(s)")
        XCTAssertEqual(Set(there).count, there.count, "no item twice")
        XCTAssertEqual(there.count, 123)
        XCTAssertEqual(try icskit(["check-store"]).status, 0)
        XCTAssertTrue(try syncJSON()["idle"] as? Bool ?? false)
    }
}
