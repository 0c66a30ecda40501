import CalendarModel
import Foundation
import XCTest

/// `icskit validate`, run as a subprocess.
final class ValidateCLITests: XCTestCase {
    /// Every intentionally malformed corpus file: no crash (status below 128) and at least one path:line: line.
    func testEveryMalformedCorpusFileGetsALocatedDiagnostic() throws {
        let corpus = try CLI.requireCorpus()
        let provenance = try String(contentsOf: corpus.appendingPathComponent("PROVENANCE.tsv"), encoding: .utf8)
        let malformed = provenance.split(whereSeparator: \.isNewline).dropFirst().compactMap { row -> String? in
            let columns = row.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count > 4 else { return nil }
            let notes = columns[4]
            let broken =
                (notes.contains("intentionally malformed") || notes.contains("intentionally invalid"))
                && !notes.contains("not intentionally malformed")
            return broken ? String(columns[0]) : nil
        }
        XCTAssertGreaterThan(malformed.count, 30)
        for path in malformed {
            let file = corpus.appendingPathComponent(path).path
            let run = try CLI.run(["validate", file])
            XCTAssertLessThan(run.status, 128, "\(path) crashed the validator")
            XCTAssertTrue(
                run.stdout.split(separator: "\n").contains { $0.hasPrefix(file + ":") && $0.contains(": ") },
                "\(path): no path:line: diagnostic in \(run.stdout)")
        }
    }

    /// jCal and xCal diagnostics name the line of the property or component (and the column of a value whose
    /// shape is not jCal's), as iCalendar's do, not line 0.
    func testJCalAndXCalDiagnosticsAreLocated() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jcal = folder.appendingPathComponent("bad.json").path
        try """
        ["vcalendar",
          [["version", {}, "text", "2.0"], ["prodid", {}, "text", "-//t//EN"]],
          [
            ["vevent",
              [
                ["uid", {}, "text", "a@x"],
                ["dtstamp", {}, "date-time", "2026-01-01T00:00:00Z"],
                ["dtstart", {}, "date-time", "2026-02-30T09:00:00"]
              ],
              []
            ]
          ]
        ]
        """.write(toFile: jcal, atomically: true, encoding: .utf8)
        let run = try CLI.run(["validate", jcal])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stdout.contains(jcal + ":8: error: DTSTART value \"20260230T090000\""), run.stdout)
        let shape = folder.appendingPathComponent("shape.json").path
        try
            "[\"vcalendar\", [[\"version\", {}, \"text\", \"2.0\"]],\n [[\"vevent\", [\n   [\"uid\", {}, \"text\"]\n ], []]]]"
            .write(toFile: shape, atomically: true, encoding: .utf8)
        let shaped = try CLI.run(["validate", shape])
        XCTAssertTrue(
            shaped.stdout.contains(shape + ":3:4: error: jCal at /2/0/1/0: expected [name, {parameters}"), shaped.stdout
        )
        // The same calendar as xCal: the DTSTART's line.
        let xcal = folder.appendingPathComponent("bad.xml").path
        try icskitConvert(jcal, to: xcal)
        let xml = try String(contentsOfFile: xcal, encoding: .utf8).components(separatedBy: "\n")
        let line = try XCTUnwrap(xml.firstIndex { $0.contains("<dtstart>") }) + 1
        let fromXML = try CLI.run(["validate", xcal])
        XCTAssertTrue(fromXML.stdout.contains(xcal + ":\(line): error: DTSTART value"), fromXML.stdout)
    }

    func icskitConvert(_ input: String, to output: String) throws {
        let run = try CLI.run(["convert", input, "-o", output, "-q"])
        XCTAssertLessThan(run.status, 2, run.stderr)
    }

    func testExitStatusFollowsSeverity() throws {
        let clean = try CLI.run(["validate", CLI.fixture("corpus-copies/google-issue52.ics")])
        XCTAssertEqual(clean.status, 0, clean.stdout + clean.stderr)
        let errors = try CLI.run(["validate", CLI.fixture("hand/bad-values.ics")])
        XCTAssertEqual(errors.status, 1)
        XCTAssertTrue(errors.stdout.contains("hand/bad-values.ics:7: error: DTSTART value \"foo\""), errors.stdout)
        let warningsOnly = try CLI.run(["validate", CLI.fixture("hand/windows-1252.ics")])
        XCTAssertEqual(warningsOnly.status, 0)
        let strict = try CLI.run(["validate", "--strict", CLI.fixture("hand/windows-1252.ics")])
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.stdout.contains(":8: error: bytes that are not UTF-8"), strict.stdout)
        XCTAssertEqual(try CLI.run(["validate"]).status, 2, "no files is a usage error")
        XCTAssertEqual(try CLI.run(["validate", "--no-such-flag", "x.ics"]).status, 2)
    }

    func testJSONReport() throws {
        let run = try CLI.run(["validate", "--json", CLI.fixture("hand/uids.ics"), CLI.fixture("hand/tasks.ics")])
        XCTAssertEqual(run.status, 1)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["ok"] as? Bool, false)
        let files = try XCTUnwrap(json["files"] as? [[String: Any]])
        XCTAssertEqual(files.count, 2)
        XCTAssertEqual(files[0]["errors"] as? Int, 2)
        let diagnostics = try XCTUnwrap(files[0]["diagnostics"] as? [[String: Any]])
        XCTAssertTrue(
            diagnostics.contains {
                $0["line"] as? Int == 15 && ($0["message"] as? String)?.contains("duplicate") == true
            })
        XCTAssertEqual(files[1]["ok"] as? Bool, true)
    }

    /// Each diagnostic has a stable code: `--json` shows it, `--ignore` leaves it out, and the library's
    /// `ICalendar.validate()` gives the same codes for the same calendar.
    func testDiagnosticsHaveCodesToFilterOn() throws {
        let file = CLI.fixture("hand/uids.ics")
        let run = try CLI.run(["validate", "--json", file])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let files = try XCTUnwrap(json["files"] as? [[String: Any]])
        let diagnostics = try XCTUnwrap(files.first?["diagnostics"] as? [[String: Any]])
        let codes = diagnostics.compactMap { $0["code"] as? String }
        XCTAssertEqual(codes.count, diagnostics.count, "every diagnostic has a code")
        XCTAssertTrue(codes.contains("missing-uid") && codes.contains("duplicate-uid"), "\(codes)")
        let read = ICS.read(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        XCTAssertEqual(Set(read.diagnostics.map(\.code)), Set(codes))

        let ignoring = try CLI.run(["validate", "--ignore", "missing-uid", "--ignore", "missing-dtstart", file])
        XCTAssertFalse(ignoring.stdout.contains("no UID"), ignoring.stdout)
        XCTAssertEqual(ignoring.status, 0, "only the duplicate UID, a warning, is left: \(ignoring.stdout)")
    }

    func testStandardInput() throws {
        let run = try CLI.run(["validate", "-"], stdin: Data("BEGIN:VCALENDAR\nbroken\nEND:VCALENDAR\n".utf8))
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stdout.contains("<stdin>:2: error:"), run.stdout)
    }
}
