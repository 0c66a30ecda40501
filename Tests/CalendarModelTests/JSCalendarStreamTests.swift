import Foundation
import XCTest

@testable import CalendarModel

/// JSCalendar written a series at a time (`JSCalendarStream`) is byte for byte what the whole-calendar writer gives,
/// or the stream gives up before anything is final: on every corpus file and fixture, cut into small runs, with one
/// series kept open and with the default (series that go on past a run are written again); and on the two cases that need the whole calendar (an override far from
/// its series, a Windows-named VTIMEZONE).
final class JSCalendarStreamTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("jscal-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// The streamed document, nil when the stream gave up (`Refusal`) or the file is left to the whole reading.
    func streamed(_ path: String, openSeries: Int, runBytes: Int = 4 << 10) throws -> [UInt8]? {
        var stream = JSCalendarStream(version: .rfc8984, openSeries: openSeries)
        var bytes: [UInt8] = []
        do {
            let read = try ICS.stream(
                contentsOf: path, file: nil, runBytes: runBytes,
                opening: { bytes += stream.opening($0) },
                transform: { components, _ in JSCalendarStream.prepared(components, version: .rfc8984) },
                consume: { bytes += try stream.take($0) })
            guard read != nil else { return nil }
        } catch is JSCalendarStream.Refusal {
            return nil
        }
        return bytes + stream.closing()
    }

    func whole(_ path: String) throws -> [UInt8] {
        let read = ICS.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), file: nil, splitting: nil)
        return CalendarFormat.jscalendar.write(read.calendars)
    }

    func testTheCorpusAndTheFixturesStreamAsTheyAreWrittenWhole() throws {
        var (streamedFiles, refused) = (0, 0)
        for url in try Paths.corpusAndFixtureFiles() where url.pathExtension == "ics" {
            for openSeries in [1, JSCalendarStream.defaultOpenSeries] {
                guard let bytes = try streamed(url.path, openSeries: openSeries) else {
                    refused += 1
                    continue
                }
                streamedFiles += 1
                XCTAssertEqual(
                    String(decoding: bytes, as: UTF8.self), String(decoding: try whole(url.path), as: UTF8.self),
                    "\(url.lastPathComponent), \(openSeries) series open")
            }
        }
        XCTAssertGreaterThan(streamedFiles, 200, "too few files streamed (\(refused) not)")
    }

    /// An override five series after its master: kept open with eight series, given up with two.
    func testAnOverrideFarFromItsSeriesIsWrittenWholeWhenItsSeriesWasWritten() throws {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//EN"]
        func event(_ uid: String, _ extra: [String]) -> [String] {
            ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z"] + extra + ["SUMMARY:\(uid)", "END:VEVENT"]
        }
        lines += event("master", ["DTSTART:20260105T090000Z", "RRULE:FREQ=WEEKLY;COUNT=5"])
        for index in 0..<5 { lines += event("other-\(index)", ["DTSTART:20260106T090000Z"]) }
        lines += event("master", ["RECURRENCE-ID:20260112T090000Z", "DTSTART:20260112T100000Z"])
        let path = directory.appendingPathComponent("far.ics").path
        try (lines + ["END:VCALENDAR", ""]).joined(separator: "\r\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        XCTAssertNil(try streamed(path, openSeries: 2, runBytes: 64), "the master was written before its override")
        let kept = try XCTUnwrap(try streamed(path, openSeries: 8, runBytes: 64))
        XCTAssertEqual(kept, try whole(path))
        XCTAssertTrue(String(decoding: kept, as: UTF8.self).contains("recurrenceOverrides"))
    }

    /// Whether a Windows-named zone is written by its IANA name depends on every time the calendar uses in it.
    func testAWindowsNamedVTimezoneIsWrittenWhole() throws {
        let text = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VTIMEZONE\r\nTZID:W. Europe Standard Time\r\n\
            BEGIN:STANDARD\r\nDTSTART:16010101T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\n\
            RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r\nEND:STANDARD\r\nBEGIN:DAYLIGHT\r\nDTSTART:16010101T020000\r\n\
            TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nRRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\r\nEND:DAYLIGHT\r\n\
            END:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:w@t\r\nDTSTAMP:20260101T000000Z\r\n\
            DTSTART;TZID=W. Europe Standard Time:20260105T090000\r\nSUMMARY:Stand-up\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """
        let path = directory.appendingPathComponent("windows.ics").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertNil(try streamed(path, openSeries: 8))
        XCTAssertTrue(String(decoding: try whole(path), as: UTF8.self).contains("Europe/Berlin"))
    }
}
