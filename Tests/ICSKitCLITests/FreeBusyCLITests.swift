import Foundation
import XCTest

/// `icskit freebusy` on three calendars whose busy times overlap across Europe/Berlin's DST change (25 October
/// 2026), one of them written in New York time (still on EDT that week) and one in UTC.
final class FreeBusyCLITests: XCTestCase {
    let calendars = ["alice", "bob", "carol"].map { CLI.fixture("hand/freebusy/\($0).ics") }
    let window = ["--from", "2026-10-23", "--to", "2026-10-28", "--tz", "Europe/Berlin"]

    func testCommonFreeSlotsFollowTheClockAcrossTheDSTChange() throws {
        let run = try CLI.run(["freebusy"] + calendars + window + ["--find", "1h", "--within", "09:00-18:00"])
        XCTAssertEqual(run.status, 0, run.stderr)
        // Alice's stand-up stays at 09:00 local on both sides of the change; Bob's 11:00Z lunch is 12:00 in CET;
        // Carol's 10:00 New York call is 15:00 in Berlin; the tentative 12:30 block counts as busy; Bob's
        // transparent focus time and cancelled meeting do not.
        XCTAssertEqual(
            run.stdout.split(separator: "\n").map(String.init),
            [
                "2026-10-23 10:00–12:30  (2h30m)",
                "2026-10-23 14:00–18:00  (4h)",
                "2026-10-24 10:00–18:00  (8h)",
                "2026-10-25 10:00–18:00  (8h)",
                "2026-10-26 10:00–12:00  (2h)",
                "2026-10-26 13:00–15:00  (2h)",
                "2026-10-26 16:00–18:00  (2h)",
                "2026-10-27 10:30–18:00  (7h30m)",
            ])
        let long = try CLI.run(
            ["freebusy"] + calendars + window + [
                "--find", "3h", "--within", "09:00-18:00",
                "--json",
            ])
        let slots = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(long.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(
            slots.map { $0["start"] as? String },
            [
                "2026-10-23T14:00:00+02:00", "2026-10-24T10:00:00+02:00",
                "2026-10-25T10:00:00+01:00", "2026-10-27T10:30:00+01:00",
            ])
        XCTAssertEqual(slots.first?["minutes"] as? Int, 240)
        // Without --within the whole window counts: the night between the 23rd and the 24th is free.
        let nights = try CLI.run(["freebusy"] + calendars + window + ["--find", "12h"])
        XCTAssertTrue(nights.stdout.hasPrefix("2026-10-23 14:00–2026-10-24 09:00  (19h)"), nights.stdout)
    }

    func testOneVFreeBusyPerCalendarInUTC() throws {
        let run = try CLI.run(["freebusy"] + calendars + window)
        XCTAssertEqual(run.status, 0, run.stderr)
        let blocks = run.stdout.components(separatedBy: "BEGIN:VFREEBUSY\r\n").dropFirst()
        XCTAssertEqual(blocks.count, 3)
        func periods(_ block: String) -> [String] {
            block.components(separatedBy: "\r\n").filter { $0.hasPrefix("FREEBUSY") }
        }
        let alice = periods(blocks[blocks.startIndex])
        XCTAssertEqual(alice.count, 5, "one stand-up a day")
        XCTAssertEqual(alice.first, "FREEBUSY;FBTYPE=BUSY:20261023T070000Z/20261023T080000Z", "CEST: UTC+2")
        XCTAssertEqual(alice.last, "FREEBUSY;FBTYPE=BUSY:20261027T080000Z/20261027T090000Z", "CET: UTC+1")
        XCTAssertEqual(
            periods(blocks[blocks.startIndex + 1]), ["FREEBUSY;FBTYPE=BUSY:20261026T110000Z/20261026T120000Z"],
            "transparent and cancelled events are not busy")
        XCTAssertEqual(
            periods(blocks[blocks.startIndex + 2]),
            [
                "FREEBUSY;FBTYPE=BUSY-TENTATIVE:20261023T103000Z/20261023T120000Z",
                "FREEBUSY;FBTYPE=BUSY:20261026T140000Z/20261026T150000Z",
                "FREEBUSY;FBTYPE=BUSY:20261027T083000Z/20261027T093000Z",
            ])
        XCTAssertTrue(
            run.stdout.contains("DTSTART:20261022T220000Z\r\nDTEND:20261027T230000Z\r\n"), "the window in UTC")
        // Other programs read it: python icalendar, when installed, finds the three VFREEBUSY and their periods.
        let file = try CLI.temporaryDirectory().appendingPathComponent("busy.ics")
        try Data(run.stdout.utf8).write(to: file)
        let python = StoreCLITests.python([
            "-c",
            """
            import sys, icalendar
            cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            fb = cal.walk('VFREEBUSY')
            print(len(fb), sum(len(c.get('FREEBUSY') if isinstance(c.get('FREEBUSY'), list) else [c.get('FREEBUSY')]) for c in fb))
            """, file.path,
        ])
        if python.stderr.contains("No module named") || python.status == 127 {
            print("python icalendar is not installed: the VFREEBUSY acceptance check did not run (make deps)")
        } else {
            XCTAssertEqual(python.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "3 9", python.stderr)
        }
    }

    func testUsageErrors() throws {
        XCTAssertEqual(try CLI.run(["freebusy", calendars[0], "--within", "09:00-18:00"]).status, 2)
        XCTAssertEqual(try CLI.run(["freebusy", calendars[0], "--find", "soon"]).status, 2)
        XCTAssertEqual(try CLI.run(["freebusy", calendars[0], "--find", "1h", "--within", "18:00-09:00"]).status, 2)
    }

    /// Without files freebusy reads the store, as agenda and todo do: the same slots as from the files.
    func testTheStoreGivesTheSameSlotsAsTheFiles() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite").path
        for (file, name) in zip(calendars, ["Alice", "Bob", "Carol"]) {
            XCTAssertEqual(try CLI.run(["import", file, "--calendar", name, "--store", store, "-q"]).status, 0)
        }
        let arguments = window + ["--find", "1h", "--within", "09:00-18:00"]
        let fromFiles = try CLI.run(["freebusy"] + calendars + arguments)
        let fromStore = try CLI.run(["freebusy", "--store", store] + arguments)
        XCTAssertEqual(fromStore.status, 0, fromStore.stderr)
        XCTAssertEqual(fromStore.stdout, fromFiles.stdout)
        XCTAssertTrue(fromStore.stdout.contains("2026-10-23 10:00–12:30  (2h30m)"), fromStore.stdout)
        // One calendar only: Alice alone is free more often.
        let alice = try CLI.run(["freebusy", "--store", store, "--calendar", "Alice"] + arguments)
        XCTAssertNotEqual(alice.stdout, fromStore.stdout)
        XCTAssertEqual(try CLI.run(["freebusy", "--store", store, "--calendar", "Nobody"] + arguments).status, 1)
    }
}
