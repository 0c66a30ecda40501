import Foundation
import XCTest

/// `icskit convert`, run as a subprocess.
final class ConvertCLITests: XCTestCase {
    func testICSToJCalAndBackKeepsTheContent() throws {
        let directory = try CLI.temporaryDirectory()
        let json = directory.appendingPathComponent("outlook.json").path
        let back = directory.appendingPathComponent("outlook.ics").path
        let source = CLI.fixture("corpus-copies/outlook-2010.ics")
        XCTAssertEqual(try CLI.run(["convert", source, "-o", json]).status, 0)
        let parsed = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [Any]
        XCTAssertEqual(parsed?.first as? String, "vcalendar")
        XCTAssertEqual(try CLI.run(["convert", json, "-o", back]).status, 0)
        let original = try String(contentsOfFile: source, encoding: .utf8)
        let again = try String(contentsOfFile: back, encoding: .utf8)
        XCTAssertTrue(again.contains("\r\n"))
        XCTAssertEqual(properties(again), properties(original))
    }

    /// Property names in order, with the UID values: a jCal trip may respell, but not drop or reorder.
    private func properties(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n ", with: "")
            .replacingOccurrences(of: "\n\t", with: "").split(separator: "\n").map { line in
                let name = line.prefix { $0 != ":" && $0 != ";" }
                return name == "UID" || name == "BEGIN" || name == "END" ? String(line) : String(name)
            }
    }

    func testStandardInputToStandardOutput() throws {
        let input = try Data(contentsOf: URL(fileURLWithPath: CLI.fixture("corpus-copies/khal-recuid-no-master.ics")))
        let run = try CLI.run(["convert", "--to", "jcal"], stdin: input)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("[\"vcalendar\""), run.stdout)
        let back = try CLI.run(["convert", "-", "--from", "jcal", "--to", "ics"], stdin: Data(run.stdout.utf8))
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(back.stdout.components(separatedBy: "BEGIN:VEVENT").count, 3)
        XCTAssertTrue(back.stdout.contains("RECURRENCE-ID:20140707T053000\r\n"), back.stdout)
    }

    func testBatchConvertsTheGoodFilesAndReportsTheBadOne() throws {
        let directory = try CLI.temporaryDirectory()
        let bad = directory.appendingPathComponent("notes.ics")
        try Data("just some notes\n".utf8).write(to: bad)
        let out = directory.appendingPathComponent("out")
        let run = try CLI.run([
            "convert", CLI.fixture("corpus-copies/outlook-2010.ics"), bad.path,
            CLI.fixture("corpus-copies/google-issue52.ics"), "--out-dir", out.path, "--to", "jcal",
            "--report", "json", "--jobs", "2",
        ])
        XCTAssertEqual(run.status, 1)
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        XCTAssertEqual(written, ["google-issue52.json", "outlook-2010.json"], "no temporary files left behind")
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["converted"] as? Int, 2)
        XCTAssertEqual(report["failed"] as? Int, 1)
        let files = try XCTUnwrap(report["files"] as? [[String: Any]])
        XCTAssertEqual(files.map { $0["ok"] as? Bool }, [true, false, true], "report keeps input order")
        XCTAssertEqual(files[1]["error"] as? String, "no calendar data")
        XCTAssertEqual((files[0]["counts"] as? [String: Int])?["VEVENT"], 1)
        XCTAssertTrue(run.stderr.contains("notes.ics:1: error: no iCalendar data found"), run.stderr)
        // A batch ends with one line that sums it up.
        let last = run.stderr.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(last.hasPrefix("3 files: 2 converted, 1 failed; "), last)
        XCTAssertTrue(last.contains("1 error") || last.contains(" errors"), last)

        // --max-diagnostics keeps long lists short and says how many it held back.
        let noisy = try CLI.run([
            "convert", CLI.fixture("hand/bad-values.ics"), CLI.fixture("hand/broken-structure.ics"), "--out-dir",
            directory.appendingPathComponent("noisy").path, "--max-diagnostics", "1",
        ])
        let lines = noisy.stderr.split(separator: "\n")
        XCTAssertEqual(
            lines.filter { $0.contains("bad-values.ics:") && $0.contains(": error: ") }.count, 1, noisy.stderr)
        XCTAssertTrue(noisy.stderr.contains("bad-values.ics: "), noisy.stderr)
        XCTAssertTrue(lines.contains { $0.hasSuffix("more diagnostics not shown (--max-diagnostics)") }, noisy.stderr)
        XCTAssertTrue(lines.last?.hasPrefix("2 files: ") == true, noisy.stderr)
    }

    func testParallelAndSerialBatchesAgree() throws {
        let corpus = try CLI.requireCorpus()
        let inputs = try FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent("icaljs").path)
            .filter { $0.hasSuffix(".ics") }.sorted().map { corpus.appendingPathComponent("icaljs/" + $0).path }
        let directory = try CLI.temporaryDirectory()
        let serial = directory.appendingPathComponent("serial"), parallel = directory.appendingPathComponent("parallel")
        _ = try CLI.run(["convert", "-q", "--out-dir", serial.path] + inputs)
        _ = try CLI.run(["convert", "-q", "--jobs", "2", "--out-dir", parallel.path] + inputs)
        let names = try FileManager.default.contentsOfDirectory(atPath: serial.path).sorted()
        XCTAssertEqual(names.count, inputs.count)
        for name in names {
            XCTAssertEqual(
                try Data(contentsOf: serial.appendingPathComponent(name)),
                try Data(contentsOf: parallel.appendingPathComponent(name)), name)
        }
    }

    func testAFailedConversionLeavesTheExistingOutputAlone() throws {
        let directory = try CLI.temporaryDirectory()
        let destination = directory.appendingPathComponent("result.ics")
        try Data("OLD".utf8).write(to: destination)
        let run = try CLI.run(["convert", "--strict", CLI.fixture("hand/windows-1252.ics"), "-o", destination.path])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(try String(contentsOf: destination, encoding: .utf8), "OLD")
        XCTAssertTrue(run.stderr.contains("with --strict; not written"), run.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["result.ics"])
        let lenient = try CLI.run(["convert", CLI.fixture("hand/windows-1252.ics"), "-o", destination.path])
        XCTAssertEqual(lenient.status, 0)
        XCTAssertTrue(try String(contentsOf: destination, encoding: .utf8).contains("SUMMARY:Café € 5 – Grüße"))
    }

    func testUsageErrorsExitWithTwo() throws {
        let twoInputs = try CLI.run(["convert", CLI.fixture("hand/tasks.ics"), CLI.fixture("hand/uids.ics")])
        XCTAssertEqual(twoInputs.status, 2)
        XCTAssertTrue(twoInputs.stderr.contains("several inputs need --out-dir"), twoInputs.stderr)
        XCTAssertEqual(try CLI.run(["convert", "--to", "pdf", CLI.fixture("hand/tasks.ics")]).status, 2)
        XCTAssertEqual(try CLI.run(["convert", "--jobs", "0", CLI.fixture("hand/tasks.ics")]).status, 2)
    }

    func testMissingInputFailsThatFile() throws {
        let run = try CLI.run(["convert", "/nonexistent/calendar.ics"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("/nonexistent/calendar.ics: failed: cannot read"), run.stderr)
    }
}

extension ConvertCLITests {
    /// Outlook's Windows zone names become bare IANA names, each with one tzdata VTIMEZONE.
    func testNormalizeTimezonesGivesBareIANANames() throws {
        let run = try CLI.run(["convert", "--normalize-timezones", CLI.fixture("hand/windows-zone-names.ics")])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
        XCTAssertEqual(
            lines.filter { $0.hasPrefix("TZID:") }.sorted(), ["TZID:America/New_York", "TZID:Europe/Berlin"])
        XCTAssertTrue(lines.contains("DTSTART;TZID=Europe/Berlin:20260710T090000"), run.stdout)
        XCTAssertTrue(lines.contains("DTSTART;TZID=Europe/Berlin:20260115T090000"), "display name → Europe/Berlin")
        XCTAssertTrue(lines.contains("DTSTART;TZID=America/New_York:20261101T013000"))
        XCTAssertFalse(run.stdout.contains("Standard Time") || run.stdout.contains("freeassociation"))
        // The zone nothing can name stays as it was, and says so.
        XCTAssertTrue(lines.contains("DTSTART;TZID=Customized Time Zone:20260115T090000"))
        XCTAssertTrue(
            run.stderr.contains(":29: warning: TZID \"Customized Time Zone\" names no known zone"), run.stderr)
        XCTAssertTrue(
            run.stderr.contains(
                ":8: warning: TZID \"W. Europe Standard Time\" has no VTIMEZONE in this "
                    + "calendar and is a Windows time-zone name; read as Europe/Berlin"), run.stderr)
    }
}
