import Foundation
import ICSKitTestSupport
import XCTest

/// Issue 60: the shapes task apps write for a repeating todo ticked off, each read as that app shows it
/// (Fixtures/todo-shapes, docs/TODOS.md says where each shape comes from); and ICSKit's own shape through a CalDAV
/// sync with Radicale and a vdir read by todoman.
final class TodoShapesCLITests: XCTestCase {
    var scratch: URL!
    var store: String { scratch.appendingPathComponent("store.sqlite").path }

    override func setUpWithError() throws { scratch = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { if let scratch { try? FileManager.default.removeItem(at: scratch) } }

    /// `todo --json` of a fixture at 2026-11-28 12:00 UTC: each line `summary due open|done`, in list order.
    func shown(_ name: String, filter: String = "all") throws -> [String] {
        let run = try CLI.run([
            "todo", CLI.fixture("todo-shapes/\(name).ics"), "--filter", filter, "--json", "--tz", "Europe/Berlin",
            "--now", "2026-11-28T12:00:00Z",
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        return rows.map { row in
            let due = (row["due"] as? String).map { String($0.prefix(16)) } ?? "-"
            return "\(row["summary"] as? String ?? "") \(due) \(row["completed"] as? Bool == true ? "done" : "open")"
        }
    }

    func testEachAppsShapeIsShownAsThatAppShowsIt() throws {
        // Thunderbird and eM Client: an override of each occurrence done; the list shows the next open one.
        XCTAssertEqual(try shown("thunderbird-override"), ["Water the plants 2026-11-16T10:00 open"])
        XCTAssertEqual(
            try shown("thunderbird-override", filter: "completed"),
            ["Water the plants 2026-11-02T10:00 done", "Water the plants 2026-11-09T10:00 done"])
        // jtx Board: overrides of the occurrences done, dates.
        XCTAssertEqual(try shown("jtx-board-override"), ["Stretching 2026-11-18 open"])
        // Tasks.org: the master moved to the next occurrence, nothing else.
        XCTAssertEqual(try shown("tasks-org-moved"), ["Take out the bins 2026-11-30 open"])
        // todoman: the one done keeps its UID and loses its rule; a new UID carries the rule forward.
        XCTAssertEqual(try shown("todoman-split"), ["Pay rent 2026-11-01 done", "Pay rent 2026-12-01 open"])
        // Apple Reminders: a completed copy under a new UID, the series moved forward.
        XCTAssertEqual(try shown("apple-reminders-copy"), ["Vitamins 2026-11-24 done", "Vitamins 2026-11-25 open"])
        XCTAssertEqual(try shown("apple-reminders-copy", filter: "open"), ["Vitamins 2026-11-25 open"])
        // Nextcloud Tasks 0.18: the master itself completed, and with it the whole series (as Nextcloud shows it).
        XCTAssertEqual(try shown("nextcloud-tasks-master"), ["Laundry 2026-11-07 done"])
        XCTAssertEqual(try shown("nextcloud-tasks-master", filter: "open"), [])
        // COMPLETED without STATUS is done (RFC 5545 §3.8.2.1).
        XCTAssertEqual(try shown("completed-without-status"), ["Book the train 2026-11-20T18:00 done"])
    }

    /// Ticked off here, synced to Radicale and read back by a second store; written to a vdir and listed by todoman.
    func testTheNewStatesThroughRadicaleAndTodoman() throws {
        let add = try CLI.run([
            "add", "todo", "Water plants", "--due", "2026-12-02", "--repeat", "weekly", "--calendar", "Home",
            "--store", store,
        ])
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertEqual(try CLI.run(["done", "Water plants", "--store", store]).status, 0)
        let here = try CLI.run(["todo", "--json", "--filter", "all", "--store", store]).stdout

        let server = try DAVServer(.radicale, folder: scratch)
        defer { server.stop() }
        let password = ["ICSKIT_PASSWORD": DAVServer.password]
        let pushed = try CLI.run(
            ["sync", "Home", "--caldav", server.collection, "--user", DAVServer.user, "--store", store], timeout: 120,
            environment: password)
        XCTAssertEqual(pushed.status, 0, pushed.stderr)
        let other = scratch.appendingPathComponent("other.sqlite").path
        let pulled = try CLI.run(
            ["sync", "Home", "--caldav", server.collection, "--user", DAVServer.user, "--store", other], timeout: 120,
            environment: password)
        XCTAssertEqual(pulled.status, 0, pulled.stderr)
        let there = try CLI.run(["todo", "--json", "--filter", "all", "--store", other]).stdout
        XCTAssertEqual(there, here, "the same open occurrence after the round trip")
        XCTAssertTrue(there.contains("\"due\": \"2026-12-09\""), there)
        let completed = try CLI.run(["todo", "--filter", "completed", "--store", other, "--no-ids"]).stdout
        XCTAssertTrue(completed.contains("[x] Water plants  due 2026-12-02  (an occurrence)"), completed)

        // todoman reads one VTODO a file, the series' master, and applies no override: it lists the series at its
        // first due date, open (docs/TODOS.md). ICSKit lists the occurrence after the one done.
        let bin = URL(fileURLWithPath: CLI.pythonExecutable).deletingLastPathComponent()
        let todo = bin.appendingPathComponent("todo").path
        guard FileManager.default.isExecutableFile(atPath: todo) else {
            throw Requirement.missing("todoman is not in \(bin.path) (make venv installs it)")
        }
        let vdir = scratch.appendingPathComponent("vdir/home")
        let written = try CLI.run(
            ["sync", "Home", "--vdir", vdir.path, "--store", other], timeout: 120, environment: password)
        XCTAssertEqual(written.status, 0, written.stderr)
        let config = scratch.appendingPathComponent("todoman.py")
        try """
        path = "\(vdir.path)"
        date_format = "%Y-%m-%d"
        time_format = "%H:%M"
        cache_path = "\(scratch.appendingPathComponent("todoman.sqlite").path)"
        """.write(to: config, atomically: true, encoding: .utf8)
        let listed = try CLI.run(
            ["--config", config.path, "--porcelain", "list", "--status", "ANY"], executable: todo, timeout: 60)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.count, 1, listed.stdout)
        XCTAssertEqual(rows.first?["summary"] as? String, "Water plants")
        XCTAssertEqual(rows.first?["completed"] as? Bool, false)
        let due = try XCTUnwrap(rows.first?["due"] as? Int)
        XCTAssertEqual(
            ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(due))).prefix(10),
            "2026-12-02", "todoman: the master's due date")
    }
}
