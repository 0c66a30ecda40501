import Foundation
import XCTest

@testable import CalendarModel

/// A file streamed a run of components at a time reads and writes exactly as the whole file: the same calendar and
/// components, the same diagnostics (text and line), and byte for byte the same iCalendar, jCal and xCal. Checked on
/// every corpus file and fixture, cut into runs of one component and of a few kB, and on shapes streaming must leave
/// to the whole-file reading.
final class StreamingReadTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("streaming-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// Streams the file at `path` in runs of `runBytes` and compares it with reading it whole; returns whether it
    /// was streamed (nil from `ICS.stream` means it was left to the whole-file reading).
    @discardableResult
    func assertStreamsAsWhole(
        _ path: String, runBytes: Int, file: StaticString = #filePath, line: UInt = #line
    ) throws -> Bool {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let whole = ICS.read(bytes, file: name, splitting: nil)
        let writers = [CalendarFormat.ics, .jcal, .xcal].compactMap { CalendarStreamWriter(format: $0) }
        var header: ICalendar?
        var components: [CalendarComponent] = []
        var written = [[UInt8]](repeating: [], count: writers.count)
        var runsSeen: [Int] = []
        let streamed = try ICS.stream(
            contentsOf: path, file: name, runBytes: runBytes,
            opening: { calendar in
                header = calendar
                for (index, writer) in writers.enumerated() { written[index] += writer.opening(calendar) }
            },
            transform: { components, run in
                (run, components, writers.map { $0.run(components, index: run) })
            },
            consume: { run, made, pieces in
                runsSeen.append(run)
                components += made
                for index in writers.indices { written[index] += pieces[index] }
            })
        let shape = bytes.withUnsafeBufferPointer { buffer in
            var shape = CalendarShape()
            shape.feed(buffer, at: 0) { _, _ in }
            return shape.isComplete
        }
        guard let streamed else {
            XCTAssertFalse(shape, "\(name) has the shape but was not streamed", file: file, line: line)
            XCTAssertNil(header, "\(name): opening called though not streamed", file: file, line: line)
            return false
        }
        XCTAssertTrue(shape, "\(name) was streamed without the shape", file: file, line: line)
        XCTAssertEqual(runsSeen, Array(runsSeen.indices), "\(name): runs in order", file: file, line: line)
        var calendar = streamed.calendar
        XCTAssertEqual(header, calendar, "\(name): opening", file: file, line: line)
        calendar.components = components
        XCTAssertEqual([calendar], whole.calendars, "\(name): model", file: file, line: line)
        XCTAssertEqual(
            streamed.diagnostics.map(\.description), whole.diagnostics.map(\.description), "\(name): diagnostics",
            file: file, line: line)
        for (index, writer) in writers.enumerated() {
            written[index] += writer.closing(streamed.calendar)
            XCTAssertEqual(
                written[index], writer.format.write(whole.calendars), "\(name): \(writer.format) output",
                file: file, line: line)
        }
        return true
    }

    func testTheCorpusAndTheFixturesStreamAsTheyReadWhole() throws {
        let files = try Paths.corpusAndFixtureFiles()
        XCTAssertGreaterThan(files.count, 190)
        var streamed = 0
        for url in files.sorted(by: { $0.path < $1.path }) {
            // Every component a run of its own, then runs of about 4 kB.
            if try assertStreamsAsWhole(url.path, runBytes: 1) { streamed += 1 }
            try assertStreamsAsWhole(url.path, runBytes: 4096)
        }
        // The common shape: one VCALENDAR, its properties first, BEGIN/END in capitals and matched.
        XCTAssertGreaterThan(streamed, 90, "\(streamed) of \(files.count) files were streamed")
        print("streamed \(streamed) of \(files.count) files")
    }

    func write(_ text: String, _ name: String = "calendar.ics") throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Lines longer than the blocks the file is read in (one property of 3 MB unfolded, one BEGIN line with a
    /// name of half a MB, a long line that ends CR LF right at a block's edge) read as when read whole; each
    /// block of such a line is searched once (`wholeLines`'s `searched`), and the first pass keeps only its ends.
    func testLinesLongerThanABlockStreamAsTheyReadWhole() throws {
        let block = StreamingReader.blockBytes
        let long = String(repeating: "x", count: 3 * block + 17)
        func event(_ uid: String, _ line: String) -> String {
            "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260105T093000Z\r\n\(line)\r\n"
                + "END:VEVENT\r\n"
        }
        let header = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
        // The DESCRIPTION line ends exactly where the second block does, its CR LF cut in two.
        let edge = block * 2 - header.utf8.count - 96 - "DESCRIPTION:".utf8.count
        let atEdge = event("edge@t", "DESCRIPTION:" + String(repeating: "y", count: edge))
        let text =
            header + event("a@t", "DESCRIPTION:" + long) + atEdge + event("b@t", "SUMMARY:after")
            + "END:VCALENDAR\r\n"
        XCTAssertTrue(try assertStreamsAsWhole(try write(text, "long.ics"), runBytes: 4096))
        XCTAssertTrue(try assertStreamsAsWhole(try write(text, "long.ics"), runBytes: 1))
        // A BEGIN line that long is not a name the shape knows: left to the whole-file reading, as when short.
        let strange = header + "BEGIN:X" + String(repeating: "Y", count: block * 2) + "\r\nEND:X\r\nEND:VCALENDAR\r\n"
        try assertStreamsAsWhole(try write(strange, "begin.ics"), runBytes: 4096)
    }

    func testWhatNeedsTheWholeCalendarIsReportedAsWhenReadWhole() throws {
        // Duplicates across runs, a TZID without VTIMEZONE used before one that defines it late, a VEVENT without
        // DTSTART, broken bytes in several runs (summed up once), a line without colon, a bad value.
        var text = "BEGIN:VCALENDAR\r\nPRODID:t\r\n"
        for index in 0..<60 {
            text += "BEGIN:VEVENT\r\nUID:\(index % 25)@t\r\nDTSTAMP:20260101T000000Z\r\n"
            if index % 9 != 4 {
                text += "DTSTART;TZID=Europe/Paris:202601\(String(format: "%02d", index % 28 + 1))T090000\r\n"
            }
            if index % 10 == 3 { text += "SUMMARY:caf\u{E9} \u{FFFF}\r\nno colon here\r\n" }
            if index % 17 == 5 { text += "DTEND:2026-13-01\r\n" }
            text += "END:VEVENT\r\n"
        }
        text += "BEGIN:VTIMEZONE\r\nTZID:Europe/Paris\r\nBEGIN:STANDARD\r\nDTSTART:20260110T030000\r\n"
        text += "TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\nEND:VCALENDAR\r\n"
        var bytes = Array(text.utf8)
        // Latin-1 é in a few lines: UTF-8 text with broken bytes.
        var latin = 0
        for index in bytes.indices.dropLast() where bytes[index] == 0xC3 && bytes[index + 1] == 0xA9 && latin < 3 {
            bytes[index] = 0xE9
            bytes[index + 1] = 0x20
            latin += 1
        }
        let url = directory.appendingPathComponent("checks.ics")
        try Data(bytes).write(to: url)
        for runBytes in [1, 200, 1 << 20] {
            XCTAssertTrue(try assertStreamsAsWhole(url.path, runBytes: runBytes))
        }
        let whole = ICS.read(bytes, file: "checks.ics", splitting: nil)
        let messages = whole.diagnostics.map(\.message)
        XCTAssertTrue(messages.contains { $0.hasPrefix("duplicate UID \"0@t\" (first at line 3)") }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.hasPrefix("VEVENT has no DTSTART") })
        XCTAssertTrue(messages.contains { $0.contains("before the first onset") })
        XCTAssertTrue(messages.contains { $0.contains("noncharacter") })
        XCTAssertTrue(messages.contains { $0.contains("broken UTF-8") || $0.contains("Windows-1252") })
    }

    func testShapesStreamingLeavesToTheWholeFileReading() throws {
        let event = "BEGIN:VEVENT\r\nUID:x\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T000000Z\r\nEND:VEVENT\r\n"
        let start = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\n"
        let refused = [
            "two calendars": start + event + "END:VCALENDAR\r\n" + start + "END:VCALENDAR\r\n",
            "a late calendar property": start + event + "X-WR-CALNAME:late\r\nEND:VCALENDAR\r\n",
            "a missing END": start + event + "BEGIN:VTODO\r\nUID:y\r\n",
            "no VCALENDAR": event,
            "a lower-case END": start + event.replacingOccurrences(of: "END:VEVENT", with: "end:vevent")
                + "END:VCALENDAR\r\n",
            "a VEVENT in a VEVENT": start + "BEGIN:VEVENT\r\n" + event + "END:VEVENT\r\nEND:VCALENDAR\r\n",
            "text after the calendar": start + event + "END:VCALENDAR\r\nX-AFTER:1\r\n",
        ]
        for (what, text) in refused {
            XCTAssertFalse(try assertStreamsAsWhole(try write(text), runBytes: 1), what)
        }
        let accepted = [
            "an empty calendar": start + "END:VCALENDAR\r\n",
            "LF line ends and a BOM": "\u{FEFF}"
                + (start + event + event + "END:VCALENDAR\r\n")
                .replacingOccurrences(of: "\r\n", with: "\n"),
            "CR line ends, no final line end": (start + event + event + "END:VCALENDAR")
                .replacingOccurrences(of: "\r\n", with: "\r"),
            "empty lines after the end": start + event + "END:VCALENDAR\r\n\r\n\r\n",
            "folded lines and empty lines inside": start
                + event.replacingOccurrences(of: "UID:x", with: "UID:a-very\r\n \r\n -long-uid\r\n\r\nSUMMARY:s")
                + event + "END:VCALENDAR\r\n",
        ]
        for (what, text) in accepted {
            XCTAssertTrue(try assertStreamsAsWhole(try write(text), runBytes: 1), what)
        }
    }

    func testAStandardInputOrPipeIsNotStreamed() throws {
        // A FIFO cannot be read twice; `stream` must leave it alone without reading from it.
        let fifo = directory.appendingPathComponent("pipe.ics").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Opening a FIFO waits for the other end: a writer that opens it and closes it again.
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: fifo)
            try? handle?.close()
        }
        writer.start()
        let result = try ICS.stream(
            contentsOf: fifo, opening: { _ in XCTFail("opened") }, transform: { _, _ in () }, consume: { _ in })
        XCTAssertNil(result)
    }

    func testFirstLinesKeepsTheFirstLineOfEachFingerprintAsItGrows() {
        for expected in [0, 5000] {
            var table = FirstLines(expected: expected)
            for index in 1...5000 { XCTAssertNil(table.insert(UInt64(index) &* 0x9E37_79B9, line: index + 10)) }
            for index in stride(from: 1, through: 5000, by: 7) {
                XCTAssertEqual(table.insert(UInt64(index) &* 0x9E37_79B9, line: 99_999), index + 10)
            }
        }
    }

    func testAMissingFileIsLeftToTheWholeFileReading() throws {
        let result = try ICS.stream(
            contentsOf: directory.appendingPathComponent("missing.ics").path, opening: { _ in },
            transform: { _, _ in () }, consume: { _ in })
        XCTAssertNil(result)
    }
}
