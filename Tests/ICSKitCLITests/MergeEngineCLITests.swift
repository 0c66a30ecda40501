import Foundation
import XCTest

/// The one merge engine through every door, as a user meets it: an organizer's move and a local room change both
/// kept and reported field by field; an import followed by a merge of the next export; a forced merge of a cut
/// file undone by the complete file; dry runs that list every planned change.
final class MergeEngineCLITests: XCTestCase {
    var directory: URL!
    var store: String { directory.appendingPathComponent("store.sqlite").path }

    override func setUpWithError() throws { directory = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func workshop(start: String = "090000", end: String = "100000", extra: String = "", modified: String = "01")
        -> String
    {
        "BEGIN:VEVENT\r\nUID:workshop@org.example\r\nDTSTAMP:202611\(modified)T080000Z\r\n"
            + "LAST-MODIFIED:202611\(modified)T080000Z\r\nDTSTART;TZID=Europe/Berlin:20261203T\(start)\r\n"
            + "DTEND;TZID=Europe/Berlin:20261203T\(end)\r\nSUMMARY:Workshop\r\n\(extra)END:VEVENT\r\n"
    }

    func file(_ name: String, _ body: String, complete: Bool = true) throws -> String {
        let url = directory.appendingPathComponent(name)
        try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body + (complete ? "END:VCALENDAR\r\n" : ""))
            .write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func icskit(_ arguments: [String], status: Int32 = 0) throws -> CLI.Run {
        let run = try CLI.run(arguments + ["--store", store])
        XCTAssertEqual(run.status, status, "icskit \(arguments.joined(separator: " ")): \(run.stdout) \(run.stderr)")
        return run
    }

    func json(_ run: CLI.Run) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
    }

    func exported(_ calendar: String) throws -> String { try icskit(["export", "--calendar", calendar]).stdout }

    func testTheOrganizersMoveAndTheLocalRoomChangeAreBothKept() throws {
        _ = try icskit(["merge", try file("work.ics", workshop()), "--into", "Work", "-q"])
        _ = try icskit(["edit", "Workshop", "--location", "Room R"])
        let moved = try file("work2.ics", workshop(start: "130000", end: "140000", modified: "10"))
        let plan = try icskit(["merge", moved, "--into", "Work", "--dry-run"]).stdout
        XCTAssertTrue(
            plan.contains("merged: \"Workshop\" DTSTART 09:00 → 13:00 (external), LOCATION → \"Room R\" (local)"), plan)
        XCTAssertTrue(plan.contains("would be: 0 added, 0 updated, 1 merged"), plan)
        XCTAssertFalse(try exported("Work").contains("T130000"), "a dry run writes nothing")
        let run = try icskit(["merge", moved, "--into", "Work", "--json"])
        let action = try XCTUnwrap((try json(run)["actions"] as? [[String: Any]])?.first)
        XCTAssertEqual(action["action"] as? String, "merged")
        let changes = try XCTUnwrap(action["changes"] as? [[String: Any]])
        XCTAssertEqual(changes.map { $0["name"] as? String }, ["DTSTART", "LOCATION"])
        XCTAssertEqual(changes[0]["from"] as? String, "09:00")
        XCTAssertEqual(changes[0]["to"] as? String, "13:00")
        XCTAssertEqual(changes[0]["side"] as? String, "external")
        XCTAssertEqual(changes[1]["side"] as? String, "local")
        XCTAssertTrue(changes[1]["from"] is NSNull)
        let stored = try exported("Work")
        XCTAssertTrue(stored.contains("DTSTART;TZID=Europe/Berlin:20261203T130000"), stored)
        XCTAssertTrue(stored.contains("LOCATION:Room R"), stored)
        // The next export, unchanged, keeps both again.
        XCTAssertTrue(try icskit(["merge", moved, "--into", "Work"]).stdout.contains("0 merged"))
    }

    func testTheSameFieldChangedOnBothSidesReportsBothValuesAndTheWinner() throws {
        _ = try icskit(["merge", try file("work.ics", workshop()), "--into", "Work", "-q"])
        _ = try icskit(["edit", "Workshop", "--location", "Room R"])
        let theirs = try file("work2.ics", workshop(extra: "LOCATION:Room S\r\n", modified: "10"))
        let local = try icskit(["merge", theirs, "--into", "Work", "--dry-run", "--prefer", "local"]).stdout
        XCTAssertTrue(
            local.contains("LOCATION → \"Room R\" (local) / \"Room S\" (external): local wins"), local)
        let run = try icskit(["merge", theirs, "--into", "Work", "--prefer", "external", "--json"])
        let report = try json(run)
        XCTAssertEqual(report["conflicts"] as? Int, 1)
        let change = try XCTUnwrap(
            ((report["actions"] as? [[String: Any]])?.first?["changes"] as? [[String: Any]])?.first)
        XCTAssertEqual(change["name"] as? String, "LOCATION")
        XCTAssertEqual(change["local"] as? String, "\"Room R\"")
        XCTAssertEqual(change["external"] as? String, "\"Room S\"")
        XCTAssertEqual(change["to"] as? String, "\"Room S\"")
        XCTAssertEqual(change["side"] as? String, "external")
        XCTAssertTrue(try exported("Work").contains("LOCATION:Room S"))
    }

    func testAnUpdateNamesTheFieldsItChanges() throws {
        _ = try icskit(["merge", try file("work.ics", workshop()), "--into", "Work", "-q"])
        let moved = try file("work2.ics", workshop(start: "140000", end: "160000", modified: "10"))
        let text = try icskit(["merge", moved, "--into", "Work"]).stdout
        XCTAssertTrue(text.contains("update: \"Workshop\" DTSTART 09:00 → 14:00, DTEND 10:00 → 16:00"), text)
        XCTAssertTrue(text.contains("0 added, 1 updated, 0 merged, 0 deleted, 0 unchanged"), text)
    }

    /// A newcomer imports an export, then merges the next one: what the export dropped is deleted.
    func testAnImportIsTheMergeBaseOfTheNextMerge() throws {
        let other =
            "BEGIN:VEVENT\r\nUID:lunch@org.example\r\nDTSTAMP:20261101T080000Z\r\n"
            + "DTSTART:20261202T120000Z\r\nSUMMARY:Lunch\r\nEND:VEVENT\r\n"
        _ = try icskit(["import", try file("f.ics", workshop() + other), "--calendar", "C", "-q"])
        let text = try icskit(["merge", try file("f2.ics", workshop()), "--into", "C"]).stdout
        XCTAssertTrue(text.contains("delete: \"Lunch\""), text)
        XCTAssertTrue(text.contains("0 added, 0 updated, 0 merged, 1 deleted, 1 unchanged"), text)
        XCTAssertFalse(try exported("C").contains("Lunch"))
        // A local edit survives an import of the same export again: the import merges, it does not overwrite.
        _ = try icskit(["edit", "Workshop", "--location", "Room R"])
        let again = try icskit(["import", try file("f3.ics", workshop()), "--calendar", "C"]).stdout
        XCTAssertTrue(again.contains("0 added, 0 updated, 1 unchanged"), again)
        XCTAssertTrue(try exported("C").contains("LOCATION:Room R"))
    }

    /// `--force-delete` of a cut file takes away what the cut lacks; the complete file brings all of it back,
    /// because only `rm` makes local deletions.
    func testAForcedMergeOfACutFileIsUndoneByTheCompleteFile() throws {
        let events = (0..<30).map { index in
            "BEGIN:VEVENT\r\nUID:e\(index)@org.example\r\nDTSTAMP:20261101T080000Z\r\n"
                + "DTSTART:202612\(String(format: "%02d", index % 28 + 1))T090000Z\r\nSUMMARY:Event \(index)\r\nEND:VEVENT\r\n"
        }
        let full = try file("full.ics", events.joined())
        _ = try icskit(["merge", full, "--into", "W", "-q"])
        let cut = try file("cut.ics", events.prefix(12).joined() + "BEGIN:VEVENT\r\nUID:e12@org", complete: false)
        // Forced or not, a cut file exits 1: it is incomplete, whatever the merge was allowed to do with it.
        let forced = try json(try icskit(["merge", cut, "--into", "W", "--force-delete", "--json", "-q"], status: 1))
        XCTAssertEqual(forced["deleted"] as? Int, 18)
        let back = try json(try icskit(["merge", full, "--into", "W", "--json"]))
        XCTAssertEqual(back["added"] as? Int, 18, "\(back)")
        let actions = try XCTUnwrap(back["actions"] as? [[String: Any]])
        XCTAssertFalse(actions.contains { $0["action"] as? String == "stay-deleted" })
        XCTAssertEqual(try exported("W").components(separatedBy: "BEGIN:VEVENT").count - 1, 30)
        // What `rm` deleted stays deleted.
        _ = try icskit(["rm", "e0@org.example"])
        let after = try json(try icskit(["merge", full, "--into", "W", "--json"]))
        XCTAssertEqual(after["added"] as? Int, 0)
        XCTAssertEqual(try exported("W").components(separatedBy: "BEGIN:VEVENT").count - 1, 29)
    }

    /// The first merge of a cut file has no base and so nothing to withhold: it still takes what the file holds up
    /// to the cut, leaves out the item the cut is inside of, and exits 1 saying why.
    func testAFirstMergeOfATruncatedFileExitsOne() throws {
        let cut = try file(
            "cut.ics",
            "BEGIN:VEVENT\r\nUID:a@org\r\nDTSTAMP:20261101T080000Z\r\nDTSTART:20261201T090000Z\r\nSUMMARY:Kept\r\n"
                + "END:VEVENT\r\nBEGIN:VEVENT\r\nUID:b@org\r\nDTSTAMP:20261101T080000Z\r\nDTST", complete: false)
        let first = try icskit(["merge", cut, "--into", "New"], status: 1)
        XCTAssertTrue(first.stdout.contains("1 added"), first.stdout)
        XCTAssertTrue(first.stderr.contains("\(cut): the file ends early (truncated)"), first.stderr)
        XCTAssertTrue(try exported("New").contains("UID:a@org"))
        XCTAssertFalse(try exported("New").contains("UID:b@org"))
        let again = try icskit(["merge", cut, "--into", "New", "--json"], status: 1)
        XCTAssertEqual(try json(again)["added"] as? Int, 0)
        XCTAssertEqual(try icskit(["merge", cut, "--into", "New", "--dry-run", "-q"], status: 1).status, 1)
    }
}
