import Foundation
import XCTest

@testable import CalendarModel

/// A calendar scanned in parts on several threads reads exactly as one scanned in one piece: components, typed
/// model, diagnostics (text and line), truncation, and the bytes written back. Checked on every corpus file and
/// fixture with the split forced on small inputs, and on inputs the plan must refuse.
final class ParallelScanTests: XCTestCase {
    /// Reads `bytes` both ways; returns whether the plan split it.
    @discardableResult
    func assertSameBothWays(_ bytes: [UInt8], _ name: String, file: StaticString = #filePath, line: UInt = #line)
        -> Bool
    {
        let whole = ICS.read(bytes, file: name, splitting: nil)
        let split = ICS.read(bytes, file: name, splitting: (minimumBytes: 0, pieces: 3))
        XCTAssertEqual(split.components, whole.components, "\(name): components", file: file, line: line)
        XCTAssertEqual(split.calendars, whole.calendars, "\(name): model", file: file, line: line)
        XCTAssertEqual(
            split.diagnostics.map(\.description), whole.diagnostics.map(\.description), "\(name): diagnostics",
            file: file, line: line)
        XCTAssertEqual(split.isTruncated, whole.isTruncated, "\(name): truncation", file: file, line: line)
        XCTAssertEqual(
            ICS.write(split.calendars), ICS.write(whole.calendars), "\(name): output", file: file, line: line)
        return bytes.withUnsafeBufferPointer {
            UTF8Check.isValid($0) && !$0.contains(where: ControlCharacters.isForbiddenInLine)
                && Noncharacters.first(in: $0) == nil && ScanPlan($0, pieces: 3) != nil
        }
    }

    func testTheCorpusAndTheFixturesReadTheSameInParts() throws {
        let files = try Paths.corpusAndFixtureFiles()
        XCTAssertGreaterThan(files.count, 190)
        var split = 0
        for url in files {
            let bytes = [UInt8](try Data(contentsOf: url))
            if assertSameBothWays(bytes, url.lastPathComponent) { split += 1 }
        }
        // Many files have fewer than six components (two per part) and are not split; of the rest, the common shape
        // is (39 of 200 files when this was written).
        XCTAssertGreaterThan(split, 30, "\(split) of \(files.count) files were split")
    }

    func testALargeGeneratedCalendarReadsTheSameInParts() throws {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nX-WR-CALNAME:Big\r\n"
        for index in 0..<4000 {
            text +=
                "BEGIN:VEVENT\r\nUID:e\(index)@t\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;TZID=Europe/Berlin:2026"
                + String(format: "%02d%02d", index % 12 + 1, index % 28 + 1) + "T090000\r\nDURATION:PT1H\r\n"
                + "SUMMARY:Ereignis \(index) — ünïcödé and a long line that has to be folded somewhere past the "
                + "seventy-fifth octet\r\n"
                + (index % 7 == 0
                    ? "RRULE:FREQ=WEEKLY;COUNT=5\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT5M\r\n"
                        + "DESCRIPTION:x\r\nEND:VALARM\r\n" : "")
                + (index % 500 == 0 ? "DTEND:20261301T000000\r\n\r\nX-BROKEN\r\n" : "")
                + "END:VEVENT\r\n"
        }
        text += "END:VCALENDAR\r\n"
        let bytes = Array(text.utf8)
        XCTAssertTrue(assertSameBothWays(bytes, "big.ics"))
        // And on this machine's default split, as `convert` reads it.
        let whole = ICS.read(bytes, file: "big.ics", splitting: nil)
        let split = ICS.read(bytes, file: "big.ics", splitting: (minimumBytes: 0, pieces: 4))
        XCTAssertEqual(split.diagnostics.map(\.description), whole.diagnostics.map(\.description))
        XCTAssertFalse(whole.diagnostics.isEmpty, "the broken lines are reported")
        XCTAssertEqual(ICS.write(split.calendars), ICS.write(whole.calendars))
    }

    func testShapesThePlanRefusesAreReadInOnePiece() {
        func calendar(_ body: String, after: String = "") -> [UInt8] {
            var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\n"
            for index in 0..<8 {
                text += "BEGIN:VEVENT\r\nUID:\(index)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T000000Z\r\n"
                text += "END:VEVENT\r\n"
            }
            return Array((text + body + "END:VCALENDAR\r\n" + after).utf8)
        }
        let refused: [(String, [UInt8])] = [
            (
                "a VEVENT inside a VEVENT",
                calendar("BEGIN:VEVENT\r\nUID:x\r\nBEGIN:VEVENT\r\nUID:y\r\nEND:VEVENT\r\nEND:VEVENT\r\n")
            ),
            ("a lower-case BEGIN", calendar("begin:VEVENT\r\nUID:x\r\nEND:VEVENT\r\n")),
            ("a calendar property after the components", calendar("X-WR-CALNAME:late\r\n")),
            ("a missing END", calendar("BEGIN:VEVENT\r\nUID:x\r\n")),
            ("a folded BEGIN line", calendar("BEGIN:VEV\r\n ENT\r\nUID:x\r\nEND:VEVENT\r\n")),
            ("a second calendar", calendar("", after: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")),
            ("a mismatched END", calendar("BEGIN:VTODO\r\nUID:x\r\nEND:VEVENT\r\n")),
            (
                "bytes that are not UTF-8",
                calendar("BEGIN:VTODO\r\nSUMMARY:caf\u{E9}\r\nEND:VTODO\r\n").map { $0 == 0xC3 ? 0xE9 : $0 }
            ),
        ]
        for (what, bytes) in refused {
            XCTAssertFalse(assertSameBothWays(bytes, what), "\(what) was split")
        }
        XCTAssertTrue(assertSameBothWays(calendar("BEGIN:VTODO\r\nUID:x\r\nEND:VTODO\r\n", after: "\r\n"), "plain"))
    }
}
