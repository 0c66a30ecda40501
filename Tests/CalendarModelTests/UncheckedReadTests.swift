import Foundation
import XCTest

@testable import CalendarModel

/// A store reads its own items back without the checks that change nothing read (`ICS.readStored`): the calendars
/// must be exactly those a checked read gives, and what it still reports a part of what that read reports.
final class UncheckedReadTests: XCTestCase {
    /// Reads `bytes` checked and unchecked, whole and in parts; returns whether the unchecked read said less.
    @discardableResult
    func assertSameCalendars(_ bytes: [UInt8], _ name: String, file: StaticString = #filePath, line: UInt = #line)
        -> Bool
    {
        var saidLess = false
        for splitting in [nil, (minimumBytes: 0, pieces: 3)] {
            let checked = ICS.read(bytes, file: name, splitting: splitting)
            let unchecked = ICS.read(bytes, file: name, splitting: splitting, checking: false)
            let how = splitting == nil ? "whole" : "in parts"
            XCTAssertEqual(unchecked.calendars, checked.calendars, "\(name) \(how): model", file: file, line: line)
            XCTAssertEqual(
                ICS.write(unchecked.calendars), ICS.write(checked.calendars), "\(name) \(how): output", file: file,
                line: line)
            XCTAssertEqual(
                unchecked.isTruncated, checked.isTruncated, "\(name) \(how): truncation", file: file, line: line)
            let reported = Set(checked.diagnostics.map(\.description))
            for diagnostic in unchecked.diagnostics where !reported.contains(diagnostic.description) {
                XCTFail("\(name) \(how): only unchecked: \(diagnostic)", file: file, line: line)
            }
            if unchecked.diagnostics.count < checked.diagnostics.count { saidLess = true }
        }
        return saidLess
    }

    func testTheCorpusAndTheFixturesReadTheSameUnchecked() throws {
        let files = try Paths.corpusAndFixtureFiles()
        XCTAssertGreaterThan(files.count, 190)
        var quieter = 0
        for url in files {
            if assertSameCalendars([UInt8](try Data(contentsOf: url)), url.lastPathComponent) { quieter += 1 }
        }
        // The checks are left out (files with findings from them are many), not the reading.
        XCTAssertGreaterThan(quieter, 20)
    }

    /// What the checks find is not said unchecked; what reading itself finds (a value no field can read) still is.
    func testCheckFindingsAreLeftOutAndReadingFindingsKept() {
        let text = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//t//EN\r
            BEGIN:VEVENT\r
            UID:a\r
            DTSTART:20260101T100000Z\r
            DTEND:20260101T090000Z\r
            PRIORITY:12\r
            X-OTHER;VALUE=DATE:notadate\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:a\r
            DTSTAMP:20260101T000000Z\r
            DTSTART:2026010\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let checked = ICS.read(Array(text.utf8), file: "t.ics", splitting: nil)
        let unchecked = ICS.readStored(Array(text.utf8))
        XCTAssertEqual(unchecked.calendars, checked.calendars)
        let codes = Set(checked.diagnostics.map(\.code))
        for code in ["missing-dtstamp", "priority-out-of-range", "bad-value"] {
            XCTAssertTrue(codes.contains(code), "checked: \(code) in \(codes.sorted())")
        }
        let uncheckedCodes = Set(unchecked.diagnostics.map(\.code))
        for code in ["missing-dtstamp", "priority-out-of-range"] {
            XCTAssertFalse(uncheckedCodes.contains(code), "unchecked: \(code) in \(uncheckedCodes.sorted())")
        }
        // The DTSTART no field can read is said either way: it changes what is read.
        XCTAssertFalse(unchecked.diagnostics.filter { $0.line == 14 }.isEmpty, "\(unchecked.diagnostics)")
    }
}
