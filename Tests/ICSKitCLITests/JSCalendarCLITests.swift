import Foundation
import XCTest

/// `icskit convert --to jscalendar` and `--from jscalendar` (issue 51), run as a user runs them: a batch with
/// `--out-dir`, `--jobs` and `--report json`, back again with the same agenda, the 2.0 draft's names, a broken file
/// refused with its place, and the differential generator's calendars through JSCalendar and back as python
/// icalendar and recurring-ical-events see them.
final class JSCalendarCLITests: XCTestCase {
    func testABatchGoesToJSCalendarAndBackWithTheSameAgenda() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputs = ["corpus-copies/outlook-2010.ics", "hand/weekly-count-override.ics", "hand/tasks.ics"]
        let json = directory.appendingPathComponent("json"), back = directory.appendingPathComponent("back")
        let run = try CLI.run(
            ["convert"] + inputs.map(CLI.fixture)
                + ["--to", "jscalendar", "--out-dir", json.path, "--jobs", "2", "--report", "json", "-q"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["converted"] as? Int, 3)
        let written = try FileManager.default.contentsOfDirectory(atPath: json.path).sorted()
        XCTAssertEqual(written, ["outlook-2010.json", "tasks.json", "weekly-count-override.json"])
        let group = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: json.appendingPathComponent("tasks.json")))
                as? [String: Any])
        XCTAssertEqual(group["@type"] as? String, "Group")
        XCTAssertEqual((group["entries"] as? [[String: Any]])?.first?["@type"] as? String, "Task")

        // Read back by its content (a .json that is JSCalendar, not jCal), or said with --from.
        let again = try CLI.run(
            ["convert"] + written.map { json.appendingPathComponent($0).path }
                + ["--from", "jscalendar", "--to", "ics", "--out-dir", back.path, "-q"])
        XCTAssertEqual(again.status, 0, again.stderr)
        for input in inputs {
            let name = (input as NSString).lastPathComponent
            XCTAssertEqual(
                try CLI.agendaLines(
                    back.appendingPathComponent(name).path, from: "2000-01-01", to: "2030-01-01",
                    components: "event,todo"),
                try CLI.agendaLines(CLI.fixture(input), from: "2000-01-01", to: "2030-01-01", components: "event,todo"),
                name)
        }
        let sniffed = try CLI.run([
            "agenda", json.appendingPathComponent("weekly-count-override.json").path, "--from",
            "2000-01-01", "--to", "2030-01-01", "-q",
        ])
        XCTAssertEqual(sniffed.status, 0, sniffed.stderr)
        XCTAssertFalse(sniffed.stdout.isEmpty)

        let draft = try CLI.run([
            "convert", CLI.fixture("hand/weekly-count-override.ics"), "--to", "jscalendar", "--jscalendar-version", "2",
            "-q",
        ])
        XCTAssertTrue(draft.stdout.contains("\"recurrenceRule\": {"), draft.stdout)
        XCTAssertFalse(draft.stdout.contains("\"recurrenceRules\""))
        let wrong = try CLI.run([
            "convert", CLI.fixture("hand/tasks.ics"), "--to", "jscalendar", "--jscalendar-version", "3",
        ])
        XCTAssertEqual(wrong.status, 2)
        XCTAssertTrue(wrong.stderr.contains("--jscalendar-version is 1 or 2"), wrong.stderr)
    }

    func testABrokenFileIsRefusedWithItsPlaceAndNothingWritten() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad.json")
        try Data("{\n  \"@type\": \"Event\",\n  \"uid\": \"u\",\n  \"title\": 5\n}\n".utf8).write(to: bad)
        let out = directory.appendingPathComponent("out.ics")
        let run = try CLI.run(["convert", bad.path, "--from", "jscalendar", "-o", out.path])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(
            run.stderr.contains("bad.json:4:12: error: JSCalendar at /title: expected a string; nothing read"),
            run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
    }

    /// 300 generated calendars a vocabulary: the same properties and instances for python icalendar and
    /// recurring-ical-events after ICS → JSCalendar → ICS.
    func testGeneratedCalendarsComeBackAsPythonReadsThem() throws {
        try CLI.requirePythonTools()
        for version in ["1", "2"] {
            let run = CLI.python([
                CLI.package.appendingPathComponent("scripts/jscalendar_roundtrip.py").path, "--icskit", CLI.binary,
                "--seed", "7", "--count", "300", "--version", version,
            ])
            XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
            XCTAssertTrue(run.stdout.contains("\"differing\": 0"), run.stdout)
        }
    }
}
