import CalendarModel
import Foundation
import XCTest

/// The corpus of 170 calendars written by other programs, against what python icalendar makes of them.
final class CorpusRoundTripTests: XCTestCase {
    /// Files where ICSKit knowingly reads something other than python icalendar, and why.
    static let modelExceptions: [String: String] = [:]

    /// ICS → model → ICS → model keeps components, UIDs and properties; counts and UIDs match oracle.json.
    func testModelRoundTripMatchesOracle() throws {
        let files = try Oracle.load().parsedByPython
        var failures: [String: String] = [:]
        for file in files {
            let (_, first) = try readCorpus(file.path)
            let second = ICS.read(ICS.write(first.calendars), file: file.path)
            if let problem = Self.compare(file, first, second) { failures[file.path] = problem }
        }
        let unexpected = failures.filter { Self.modelExceptions[$0.key] == nil }
        XCTAssertEqual(unexpected, [:], "files that lose or change data on a round trip")
        for path in Self.modelExceptions.keys {
            XCTAssertNotNil(failures[path], "\(path) passes now: drop its exception")
        }
        let passRate = Double(files.count - failures.count) / Double(files.count)
        XCTAssertGreaterThanOrEqual(passRate, 0.99, "\(files.count - failures.count) of \(files.count) pass")
        XCTAssertGreaterThan(files.count, 140, "the oracle lists fewer parseable files than expected")
    }

    static func compare(_ file: Oracle.File, _ first: ICS.ReadResult, _ second: ICS.ReadResult) -> String? {
        if first.components != second.components { return "components differ after a round trip" }
        if first.calendars != second.calendars { return "typed model differs after a round trip" }
        var counts: [String: Int] = [:]
        var uids: Set<String> = []
        for component in first.components.flatMap({ $0.walk() }) {
            counts[component.name, default: 0] += 1
            if let uid = component.property("UID") { uids.insert(TextEscaping.unescape(uid.value)) }
        }
        for (name, expected) in file.counts where counts[name, default: 0] != expected {
            return "\(name): \(counts[name, default: 0]) components, python icalendar finds \(expected)"
        }
        if uids.sorted() != file.uids { return "UIDs \(uids.sorted()) differ from \(file.uids)" }
        return nil
    }

    /// Files whose unchanged round trip is not line for line the same, and why. All are inputs that ICSKit
    /// repairs on purpose: a line that is not a content line cannot be written back as one.
    static let verbatimExceptions: [String: String] = [
        "ha-ical/missing_colon.ics": "a line with no colon is dropped (reported)",
        "node-ical/ms_timezones.ics": "a quoted TZID that swallowed its value is written repaired (reported)",
        "python-icalendar/issue_348_exception_parsing_value.ics": "a line with no colon is dropped (reported)",
        "python-icalendar/issue_350.ics": "a property after END:VCALENDAR is dropped (reported)",
        "ical4j/bhav23-2.ics": "a description with unescaped newlines is joined into one escaped line (reported)",
        "ics-parser-php/issue-343.ics": "a description with unescaped newlines is joined into one escaped line "
            + "(reported)",
    ]

    /// An unchanged round trip gives the same unfolded content lines in the same order.
    func testUnchangedRoundTripKeepsContentLines() throws {
        let oracle = try Oracle.load()
        var differing: [String: String] = [:]
        var identicalOverall = 0
        for file in oracle.files {
            let (bytes, result) = try readCorpus(file.path)
            let before = unfoldedLines(bytes)
            let after = unfoldedLines(ICS.write(result.calendars))
            if before == after {
                identicalOverall += 1
            } else if file.parses {
                let index =
                    zip(before, after).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(before.count, after.count)
                differing[file.path] = "line \(index + 1): \(before.dropFirst(index).first ?? "<end>")"
            }
        }
        let parsed = oracle.parsedByPython.count
        XCTAssertEqual(Set(differing.keys), Set(Self.verbatimExceptions.keys), "\(differing)")
        XCTAssertGreaterThanOrEqual(Double(parsed - differing.count) / Double(parsed), 0.95)
        // Every file, repaired ones included: at least the ones python icalendar reads stay line for line.
        XCTAssertGreaterThanOrEqual(identicalOverall, parsed - differing.count)
        print(
            "verbatim round trip: \(parsed - differing.count)/\(parsed) files python parses, "
                + "\(identicalOverall)/\(oracle.files.count) of all corpus files")
    }

    /// Output lines are CRLF-terminated and at most 75 octets, on every corpus file.
    func testOutputIsFoldedWithCRLF() throws {
        for file in try Oracle.load().files {
            let (_, result) = try readCorpus(file.path)
            let output = ICS.write(result.calendars)
            for line in output.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
                XCTAssertEqual(line.last, 0x0D, "\(file.path): a line without CR")
                XCTAssertLessThanOrEqual(line.count - 1, 75, "\(file.path): a line over 75 octets")
                XCTAssertNotNil(String(validating: line, as: UTF8.self), "\(file.path): a fold split a character")
            }
        }
    }
}
