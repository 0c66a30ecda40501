import Foundation
import XCTest

/// What a merge did, by name: every added, updated, deleted and conflicting item with its title and start, and
/// for a conflict which side won and why; `--json` carries the same.
final class MergeReportCLITests: XCTestCase {
    var directory: URL!
    var store: String { directory.appendingPathComponent("store.sqlite").path }

    override func setUpWithError() throws { directory = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func event(_ uid: String, _ summary: String, start: String, extra: String = "") -> String {
        "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;TZID=Europe/Berlin:\(start)\r\n"
            + "DURATION:PT1H\r\nSUMMARY:\(summary)\r\n\(extra)END:VEVENT\r\n"
    }

    func file(_ name: String, _ body: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body + "END:VCALENDAR\r\n")
            .write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func icskit(_ arguments: [String]) throws -> CLI.Run {
        let run = try CLI.run(arguments + ["--store", store])
        XCTAssertEqual(run.status, 0, "icskit \(arguments.joined(separator: " ")): \(run.stderr)")
        return run
    }

    func testEveryChangeIsNamedByTitleAndStart() throws {
        let first = try file(
            "v1.ics",
            event("a@x", "Standup", start: "20261124T091500") + event("b@x", "Retro", start: "20261126T160000")
                + event("c@x", "Lunch", start: "20261125T120000"))
        _ = try icskit(["merge", first, "--into", "Work", "-q"])
        // The source renamed Standup, dropped Retro, kept Lunch and added Demo.
        let second = try file(
            "v2.ics",
            event("a@x", "Standup (new room)", start: "20261124T091500")
                + event("c@x", "Lunch", start: "20261125T120000")
                + event("d@x", "Demo", start: "20261127T140000"))
        let plan = try icskit(["merge", second, "--into", "Work", "--dry-run", "--max-delete", "100"]).stdout
        XCTAssertTrue(
            plan.contains("update: \"Standup (new room)\" SUMMARY \"Standup\" → \"Standup (new room)\"  (a@x: "), plan)
        XCTAssertTrue(plan.contains("delete: \"Retro\" (2026-11-26 16:00 Europe/Berlin) b@x"), plan)
        XCTAssertTrue(plan.contains("add: \"Demo\" (2026-11-27 14:00 Europe/Berlin) d@x"), plan)
        let merged = try icskit(["merge", second, "--into", "Work", "--json", "--max-delete", "100"])
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(merged.stdout.utf8)) as? [String: Any])
        let actions = try XCTUnwrap(report["actions"] as? [[String: Any]])
        let retro = try XCTUnwrap(actions.first { $0["uid"] as? String == "b@x" })
        XCTAssertEqual(retro["action"] as? String, "delete")
        XCTAssertEqual(retro["title"] as? String, "Retro", "named though it is gone from the file")
        XCTAssertEqual(retro["start"] as? String, "2026-11-26 16:00 Europe/Berlin")
        let demo = try XCTUnwrap(actions.first { $0["uid"] as? String == "d@x" })
        XCTAssertEqual(demo["title"] as? String, "Demo")
    }

    func testAConflictSaysWhichSideWonAndWhy() throws {
        let first = try file("v1.ics", event("a@x", "Standup", start: "20261124T091500"))
        _ = try icskit(["merge", first, "--into", "Work", "-q"])
        // Moved here, then moved there later (its DTSTAMP is the newer).
        _ = try icskit(["edit", "a@x", "--start", "2026-11-24 10:00", "--tz", "Europe/Berlin"])
        let theirs = event("a@x", "Standup", start: "20261124T110000").replacingOccurrences(
            of: "DTSTAMP:20260101T000000Z", with: "DTSTAMP:20991231T000000Z")
        let merged = try icskit(["merge", try file("v2.ics", theirs), "--into", "Work"]).stdout
        XCTAssertTrue(
            merged.contains(
                "conflict, update: \"Standup\" DTSTART 09:15 → 10:00 (local) / 11:00 (external): external wins  "
                    + "(a@x: changed on both sides, some fields differently; those take the external value (the external "
                    + "version is newer))"), merged)
        XCTAssertTrue(merged.contains("1 conflict\n"), merged)
    }
}
