import Foundation
import XCTest

/// `icskit convert --to/--from xcal` through the built binary; our xCal checked against RFC 6321's schema structure
/// by Python's own XML parser (scripts/xcal-structure.py).
final class XCalCLITests: XCTestCase {
    func testConformingCorpusFilesGiveSchemaValidXCal() throws {
        let corpus = try CLI.requireCorpus()
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let inputs = try FileManager.default.subpathsOfDirectory(atPath: corpus.path)
            .filter { $0.hasSuffix(".ics") }.sorted().map { corpus.appendingPathComponent($0).path }
        let hand = [
            "hand/tasks.ics", "hand/all-day-and-tasks.ics", "hand/categories-escaped.ics",
            "hand/freebusy/alice.ics", "hand/freebusy/bob.ics", "hand/freebusy/carol.ics",
        ].map(CLI.fixture)
        let run = try CLI.run(
            ["convert", "--to", "xcal", "--out-dir", out.path, "--report", "json", "-q"]
                + inputs + hand)
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let files = report?["files"] as? [[String: Any]] ?? []
        XCTAssertEqual(files.count, inputs.count + hand.count)
        // Files that iCalendar-validate without a single diagnostic: xCal of non-conforming input mirrors what it
        // holds (a value that fits no type travels as <unknown>), which the schema cannot allow.
        let conforming = files.filter { ($0["ok"] as? Bool) == true && ($0["diagnostics"] as? [Any])?.isEmpty == true }
            .compactMap { $0["output"] as? String }
        XCTAssertGreaterThanOrEqual(conforming.count, 45)
        let script = CLI.package.appendingPathComponent("scripts/xcal-structure.py").path
        let check = StoreCLITests.python([script] + conforming)
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertTrue(check.stdout.hasSuffix("checked \(conforming.count) files, 0 problems\n"), check.stdout)
    }

    func testTheCheckerCatchesWhatTheSchemaForbids() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad.xml")
        try Data(
            """
            <?xml version="1.0"?>
            <icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0"><vcalendar><properties>
            <version><text>2.0</text></version></properties><components><vevent><properties>
            <dtstart><text>tomorrow</text></dtstart><rrule><recur><byday>MO</byday><freq>WEEKLY</freq></recur></rrule>
            </properties><components><vtodo><properties/></vtodo></components></vevent></components></vcalendar>
            </icalendar>
            """.utf8
        ).write(to: bad)
        let script = CLI.package.appendingPathComponent("scripts/xcal-structure.py").path
        let check = StoreCLITests.python([script, bad.path])
        XCTAssertEqual(check.status, 1)
        for expected in [
            "dtstart: value types ['text']", "<recur> does not start with <freq>",
            "<vtodo> may not stand inside <vevent>",
        ] {
            XCTAssertTrue(check.stdout.contains(expected), "\(expected) not in \(check.stdout)")
        }
    }

    func testRoundTripThroughTheBinary() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let xml = directory.appendingPathComponent("tasks.xml").path
        let toXCal = try CLI.run(["convert", CLI.fixture("hand/tasks.ics"), "-o", xml])
        XCTAssertEqual(toXCal.status, 0, toXCal.stderr)
        let back = try CLI.run(["convert", xml, "--to", "ics"])
        XCTAssertEqual(back.status, 0, back.stderr)
        let original = try CLI.run(["convert", CLI.fixture("hand/tasks.ics")])
        XCTAssertEqual(back.stdout, original.stdout)
        // Sniffed from the content when the name says nothing.
        let piped = try CLI.run(["convert", "--to", "jcal"], stdin: try Data(contentsOf: URL(fileURLWithPath: xml)))
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertTrue(piped.stdout.hasPrefix("[\"vcalendar\""))
    }

    func testADoctypeIsRefusedAndNothingIsWritten() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("evil.xml")
        try Data(
            """
            <?xml version="1.0"?>
            <!DOCTYPE icalendar [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0"><vcalendar><properties>
            <prodid><text>&x;</text></prodid></properties><components/></vcalendar></icalendar>
            """.utf8
        ).write(to: input)
        let output = directory.appendingPathComponent("evil.ics").path
        let run = try CLI.run(["convert", input.path, "-o", output])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(
            run.stderr.contains(
                "evil.xml:2:1: error: cannot read the XML: a document type declaration "
                    + "(<!DOCTYPE) is refused"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }
}
