import Foundation
import XCTest

@testable import CalendarModel

/// JSCalendar read an entry at a time (`JSCalendarStreamRead`) gives the bytes and diagnostics the whole reader
/// gives: on every corpus file and fixture written as JSCalendar, on a Group from elsewhere (its members after its
/// entries, no VTIMEZONEs of its own), and anything else falls back to the whole reader.
final class JSCalendarStreamReadTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("jscal-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func file(_ bytes: [UInt8], _ name: String = "group.json") throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// The streamed iCalendar and its diagnostics, nil when the reader falls back.
    func streamed(_ path: String) throws -> (text: String, diagnostics: [String])? {
        let writer = try XCTUnwrap(CalendarStreamWriter(format: .ics))
        var bytes: [UInt8] = []
        var calendar = ICalendar()
        var index = 0
        do {
            let diagnostics = try JSCalendarStreamRead.read(
                contentsOf: path, file: "in.json",
                opening: {
                    calendar = $0
                    bytes += writer.opening($0)
                },
                run: {
                    bytes += writer.run($0, index: index)
                    index += 1
                })
            bytes += writer.closing(calendar)
            return (String(decoding: bytes, as: UTF8.self), diagnostics.map(\.description))
        } catch is JSCalendarStreamRead.Fallback {
            return nil
        }
    }

    func whole(_ bytes: [UInt8]) -> (text: String, diagnostics: [String]) {
        let read = CalendarFormat.jscalendar.read(bytes, file: "in.json")
        return (
            String(decoding: CalendarFormat.ics.write(read.calendars), as: UTF8.self),
            read.diagnostics.map(\.description)
        )
    }

    func testTheCorpusAndFixturesReadBackAsTheWholeReaderReadsThem() throws {
        var (compared, fellBack) = (0, 0)
        for url in try Paths.corpusAndFixtureFiles() where url.pathExtension == "ics" {
            let read = ICS.read([UInt8](try Data(contentsOf: url)), file: nil)
            guard read.calendars.count == 1 else { continue }
            let json = CalendarFormat.jscalendar.write(read.calendars)
            guard let streamed = try streamed(try file(json)) else {
                fellBack += 1
                continue
            }
            compared += 1
            let expected = whole(json)
            XCTAssertEqual(streamed.text, expected.text, url.lastPathComponent)
            XCTAssertEqual(streamed.diagnostics, expected.diagnostics, url.lastPathComponent)
        }
        XCTAssertGreaterThan(compared, 150, "too few files read streamed (\(fellBack) fell back)")
    }

    /// JSCalendar from elsewhere: members after the entries, no iCalComponent, a zone named by IANA name alone
    /// (tzdata's VTIMEZONE comes first), an override on its own line.
    func testAGroupFromElsewhereWithItsMembersLastGetsTzdataZonesFirst() throws {
        let json = """
            {"entries": [
              {"@type": "Event", "uid": "a", "title": "Standup", "start": "2027-01-04T09:00:00",
               "timeZone": "Europe/Berlin", "duration": "PT15M",
               "recurrenceRules": [{"@type": "RecurrenceRule", "frequency": "weekly", "count": 3}],
               "recurrenceOverrides": {"2027-01-11T09:00:00": {"title": "Standup (moved)"}}},
              {"@type": "Task", "uid": "b", "title": "Report", "due": "2027-01-05T17:00:00",
               "timeZone": "America/New_York"}
            ],
            "title": "Team", "@type": "Group"}
            """
        let bytes = Array(json.utf8)
        let streamed = try XCTUnwrap(try streamed(try file(bytes)))
        let expected = whole(bytes)
        XCTAssertEqual(streamed.text, expected.text)
        XCTAssertEqual(streamed.diagnostics, expected.diagnostics)
        XCTAssertTrue(streamed.text.contains("TZID:Europe/Berlin"))
        XCTAssertTrue(streamed.text.contains("TZID:America/New_York"))
        let firstZone = try XCTUnwrap(streamed.text.range(of: "BEGIN:VTIMEZONE"))
        let firstEvent = try XCTUnwrap(streamed.text.range(of: "BEGIN:VEVENT"))
        XCTAssertLessThan(firstZone.lowerBound, firstEvent.lowerBound)
        XCTAssertTrue(streamed.text.contains("SUMMARY:Standup (moved)"))
    }

    func testOtherShapesAndRefusedDocumentsFallBackToTheWholeReader() throws {
        let cases = [
            #"[{"@type": "Event", "uid": "a", "start": "2027-01-04T09:00:00"}]"#,
            #"{"@type": "Event", "uid": "a", "start": "2027-01-04T09:00:00"}"#,
            #"{"@type": "Group", "entries": []}"#,
            #"{"@type": "Group", "entries": [{"@type": "Event", "uid": 7}]}"#,
            #"{"@type": "Group", "entries": [{"@type": "Event", "uid": "a"}"#,
            #"{"@type": "Group", "entries": [{"@type": "Event", "uid": "a"}]} trailing"#,
            #"{"@type": "Group", "@type": "Group", "entries": [{"@type": "Event", "uid": "a"}]}"#,
            // A skipped scalar entry (the fuzzer's first finding: it looped for ever).
            "{\"@type\": \"Group\", \"entries\": [\u{0}]}",
            #"{"@type": "Group", "entries": [7, {"@type": "Event", "uid": "a"}]}"#,
        ]
        // Nesting counts from the document's root, as the whole reader counts it (512 levels at most).
        let deep = String(repeating: "[", count: 510) + String(repeating: "]", count: 510)
        let all = cases + [#"{"@type": "Group", "entries": [{"@type": "Event", "uid": "a", "x": "# + deep + "}]}"]
        for (index, text) in all.enumerated() {
            XCTAssertNil(try streamed(try file(Array(text.utf8), "case\(index).json")), text)
        }
    }

    /// A string holding brackets, quotes and escapes does not end an entry early; a BOM and CRLF line ends are read.
    func testStringsWithBracketsAndEscapesStayInTheirEntry() throws {
        let json =
            "\u{FEFF}{\"@type\": \"Group\",\r\n \"entries\": [{\"@type\": \"Event\", \"uid\": \"x]}\\\"{\", "
            + "\"title\": \"a \\\\ } ] [ {\", \"start\": \"2027-01-04T09:00:00\"}]}"
        let bytes = Array(json.utf8)
        let streamed = try XCTUnwrap(try streamed(try file(bytes)))
        XCTAssertEqual(streamed.text, whole(bytes).text)
        XCTAssertTrue(streamed.text.contains(#"UID:x]}"{"#))
    }
}
