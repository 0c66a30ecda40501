import Foundation
import XCTest

/// `convert` and `validate` stream a large iCalendar file a run of components at a time (`ICS.stream`); what they
/// print and write must be what reading the same bytes whole gives (standard input is always read whole).
final class StreamingCLITests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// About 1.7 MB, seven runs of 256 kB: UIDs repeated across runs, a TZID defined only at the end, a bad value, a line
    /// without a colon, Windows-1252 bytes in UTF-8 text and an event without DTSTART.
    private func largeCalendar() throws -> (path: String, bytes: Data) {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//streaming//EN\r\nX-WR-CALNAME:Big\r\n"
        for index in 0..<6000 {
            text += "BEGIN:VEVENT\r\nUID:event-\(index % 5500)@example.org\r\nDTSTAMP:20260101T000000Z\r\n"
            if index % 1000 != 999 {
                text += "DTSTART;TZID=Europe/Vienna:2026" + String(format: "%02d%02d", index % 12 + 1, index % 28 + 1)
                text += "T090000\r\nDURATION:PT1H\r\n"
            }
            text += "SUMMARY:Termin \(index) – Besprechung mit einer Zeile\\, die gefaltet werden muss\\, weil sie "
            text += "länger ist als fünfundsiebzig Oktette\r\n"
            if index % 1500 == 7 { text += "DTEND:tomorrow\r\nnot a content line\r\nDESCRIPTION:caf\u{E9}\r\n" }
            if index % 7 == 0 {
                text += "RRULE:FREQ=WEEKLY;COUNT=4\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT10M\r\n"
                text += "DESCRIPTION:Erinnerung\r\nEND:VALARM\r\n"
            }
            text += "END:VEVENT\r\n"
        }
        text += "BEGIN:VTIMEZONE\r\nTZID:Europe/Vienna\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\n"
        text += "TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\nEND:VCALENDAR\r\n"
        // é as Windows-1252 in the DESCRIPTION lines.
        var bytes = Array(text.utf8)
        var index = 0
        let marker = Array("caf\u{E9}".utf8)
        while index + marker.count <= bytes.count {
            if bytes[index..<(index + marker.count)].elementsEqual(marker) {
                bytes.replaceSubrange((index + 3)..<(index + 5), with: [0xE9])
            }
            index += 1
        }
        let path = directory.appendingPathComponent("big.ics").path
        let data = Data(bytes)
        try data.write(to: URL(fileURLWithPath: path))
        XCTAssertGreaterThan(data.count, 1_500_000, "several runs of 256 kB")
        return (path, data)
    }

    func testConvertWritesWhatReadingTheWholeFileWrites() throws {
        let (path, bytes) = try largeCalendar()
        for (format, suffix) in [("ics", "ics"), ("jcal", "json"), ("xcal", "xml"), ("jscalendar", "json")] {
            let output = directory.appendingPathComponent("out." + suffix).path
            let streamed = try CLI.run(["convert", path, "--to", format, "-o", output, "--report", "json"])
            let whole = try CLI.run(["convert", "-", "--to", format, "--report", "json"], stdin: bytes)
            XCTAssertEqual(streamed.status, 0, streamed.stderr)
            XCTAssertEqual(whole.status, 0, whole.stderr)
            let written = try Data(contentsOf: URL(fileURLWithPath: output))
            XCTAssertEqual(written, Data(whole.stdout.utf8), "\(format): the streamed output differs")
            // The same diagnostics, lines and order; the same counts in the report.
            let wholeLines = whole.stderr.split(separator: "\n").map {
                $0.replacingOccurrences(of: "<stdin>", with: path)
            }
            let reportStart = wholeLines.firstIndex { $0.hasPrefix("{") } ?? wholeLines.count
            let streamedLines = streamed.stderr.split(separator: "\n").map(String.init)
            XCTAssertEqual(streamedLines, Array(wholeLines[..<reportStart]), format)
            XCTAssertTrue(streamedLines.contains { $0.contains("duplicate UID \"event-0@example.org\"") })
            XCTAssertTrue(streamedLines.contains { $0.contains("Windows-1252") })
            let report = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(streamed.stdout.utf8)) as? [String: Any])
            let wholeReport = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(wholeLines[reportStart...].joined(separator: "\n").utf8))
                    as? [String: Any])
            let counts = ((report["files"] as? [[String: Any]])?.first?["counts"] as? [String: Int]) ?? [:]
            let wholeCounts = ((wholeReport["files"] as? [[String: Any]])?.first?["counts"] as? [String: Int]) ?? [:]
            XCTAssertEqual(counts, wholeCounts)
            XCTAssertEqual(counts["VEVENT"], 6000)
            XCTAssertEqual(counts["VALARM"], 858)
        }
    }

    /// JSCalendar read back an entry at a time (`JSCalendarStreamRead`, file to file) into iCalendar, jCal and xCal
    /// writes what reading it whole (standard input) writes, with the same diagnostics and counts.
    func testConvertFromJSCalendarWritesWhatReadingTheWholeDocumentWrites() throws {
        let (path, _) = try largeCalendar()
        let json = directory.appendingPathComponent("big.json").path
        XCTAssertEqual(try CLI.run(["convert", path, "--to", "jscalendar", "-o", json, "-q"]).status, 0)
        let document = try Data(contentsOf: URL(fileURLWithPath: json))
        for (format, suffix) in [("ics", "ics"), ("jcal", "jcal"), ("xcal", "xml")] {
            let output = directory.appendingPathComponent("back." + suffix).path
            let streamed = try CLI.run(["convert", json, "--to", format, "-o", output, "--report", "json"])
            let whole = try CLI.run(
                ["convert", "-", "--from", "jscalendar", "--to", format, "--report", "json"], stdin: document)
            XCTAssertEqual(streamed.status, whole.status, streamed.stderr)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: output)), Data(whole.stdout.utf8), format)
            let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(streamed.stdout.utf8)) as? [String: Any])
            let counts = ((report["files"] as? [[String: Any]])?.first?["counts"] as? [String: Int]) ?? [:]
            XCTAssertEqual(counts["VEVENT"], 6000, format)
            let wholeLines = whole.stderr.split(separator: "\n").map {
                $0.replacingOccurrences(of: "<stdin>", with: json)
            }
            let reportStart = wholeLines.firstIndex { $0.hasPrefix("{") } ?? wholeLines.count
            XCTAssertEqual(streamed.stderr.split(separator: "\n").map(String.init), Array(wholeLines[..<reportStart]))
        }
    }

    func testValidateReportsWhatReadingTheWholeFileReports() throws {
        let (path, bytes) = try largeCalendar()
        let streamed = try CLI.run(["validate", path])
        let whole = try CLI.run(["validate", "-"], stdin: bytes)
        XCTAssertEqual(streamed.status, 1, "DTEND:tomorrow is an error")
        XCTAssertEqual(whole.status, streamed.status)
        XCTAssertEqual(streamed.stdout, whole.stdout.replacingOccurrences(of: "<stdin>", with: path))
        XCTAssertEqual(streamed.stderr, whole.stderr)
        XCTAssertTrue(streamed.stdout.contains("VEVENT has no DTSTART"), streamed.stdout)
    }

    func testImportFillsTheStoreAsImportingTheWholeFileDoes() throws {
        let (path, bytes) = try largeCalendar()
        // Newer versions of a few items further on (as an iTIP stream sends them), floating times under Google's
        // X-WR-TIMEZONE, and a VAVAILABILITY, which the store keeps beside the items.
        var text = String(decoding: bytes, as: UTF8.self)
        text = text.replacingOccurrences(
            of: "X-WR-CALNAME:Big\r\n", with: "X-WR-CALNAME:Big\r\nX-WR-TIMEZONE:America/New_York\r\n")
        var extra = ""
        for index in [3, 4000] {
            extra += "BEGIN:VEVENT\r\nUID:event-\(index)@example.org\r\nSEQUENCE:2\r\nDTSTAMP:20260301T000000Z\r\n"
            extra += "DTSTART:20260401T100000\r\nSUMMARY:moved \(index)\r\nEND:VEVENT\r\n"
        }
        extra += "BEGIN:VAVAILABILITY\r\nUID:busy@example.org\r\nDTSTAMP:20260101T000000Z\r\nEND:VAVAILABILITY\r\n"
        text = text.replacingOccurrences(of: "BEGIN:VTIMEZONE", with: extra + "BEGIN:VTIMEZONE")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let streamedStore = directory.appendingPathComponent("streamed.sqlite").path
        let wholeStore = directory.appendingPathComponent("whole.sqlite").path
        let streamed = try CLI.run(["import", path, "--json", "--store", streamedStore, "--stream-from-bytes", "0"])
        let whole = try CLI.run(
            ["import", "-", "--calendar", "Big", "--json", "--store", wholeStore], stdin: Data(text.utf8))
        XCTAssertEqual(streamed.status, 0, streamed.stderr)
        XCTAssertEqual(whole.status, 0, whole.stderr)
        XCTAssertEqual(streamed.stdout, whole.stdout)
        // The whole file's zones are compared with tzdata at the times its items use (a file of 16 MB and more is
        // imported a run at a time, and that comparison is left out).
        let zoneFindings = whole.stderr.split(separator: "\n").filter { $0.contains("warning: the VTIMEZONE for TZID") }
        XCTAssertEqual(zoneFindings.count, 1, whole.stderr)
        let wholeRest = whole.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("warning: the VTIMEZONE for TZID") }.joined(separator: "\n")
        XCTAssertEqual(streamed.stderr, wholeRest.replacingOccurrences(of: "<stdin>", with: path))
        XCTAssertTrue(streamed.stderr.contains("has a newer version at line"), streamed.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(streamed.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["added"] as? Int, 5500)
        XCTAssertEqual(report["calendars"] as? [String], ["Big"])
        // The two stores hold the same: every item, zone and calendar part, as export writes them.
        let exported = try CLI.run(["export", "--calendar", "Big", "--store", streamedStore])
        let exportedWhole = try CLI.run(["export", "--calendar", "Big", "--store", wholeStore])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        XCTAssertEqual(exported.stdout, exportedWhole.stdout)
        XCTAssertTrue(exported.stdout.contains("SUMMARY:moved 4000"))
        XCTAssertTrue(exported.stdout.contains("BEGIN:VAVAILABILITY"))
        XCTAssertTrue(
            exported.stdout.contains("DTSTART;TZID=America/New_York:20260401T100000"), "X-WR-TIMEZONE applied")
        // Importing the file again changes nothing.
        let again = try CLI.run(["import", path, "--json", "--store", streamedStore, "--stream-from-bytes", "0"])
        let againReport = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(againReport["added"] as? Int, 0)
        XCTAssertEqual(againReport["updated"] as? Int, 0)
        XCTAssertEqual(againReport["unchanged"] as? Int, 5500)
    }

    func testAStreamedConvertThatCannotWriteLeavesNothingBehind() throws {
        let (path, _) = try largeCalendar()
        let missing = directory.appendingPathComponent("no-such-dir/out.ics").path
        let run = try CLI.run(["convert", path, "-o", missing])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("cannot create a temporary file"), run.stderr)
        // An existing output is replaced whole, keeping its permission bits.
        let existing = directory.appendingPathComponent("existing.ics").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: existing))
        XCTAssertEqual(chmod(existing, 0o600), 0)
        XCTAssertEqual(try CLI.run(["convert", path, "-o", existing]).status, 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: existing)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let written = try String(contentsOfFile: existing, encoding: .utf8)
        XCTAssertTrue(written.hasPrefix("BEGIN:VCALENDAR\r\n"))
        XCTAssertEqual(written.components(separatedBy: "BEGIN:VEVENT\r\n").count, 6001)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".tmp")
        }
        XCTAssertEqual(leftovers, [])
    }
}
