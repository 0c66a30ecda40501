import CalendarModel
import Foundation
import XCTest

/// libical's RRULE test vectors, run through `RecurrenceRule.instances(from:)`.
final class RRuleVectorTests: XCTestCase {
    struct Case {
        var comment: String
        var rule: String
        var start: String
        var startAt: String?
        var instances: String
    }

    static func cases(_ file: String) throws -> [Case] {
        let text = try String(contentsOfFile: Paths.fixture("rrule-vectors/" + file), encoding: .utf8)
        var cases: [Case] = []
        var fields: [String: String] = [:]
        var comment = ""
        func flush() {
            if let rule = fields["RRULE"], let start = fields["DTSTART"] {
                cases.append(
                    Case(
                        comment: comment, rule: rule, start: start, startAt: fields["START-AT"],
                        instances: fields["INSTANCES"] ?? ""))
            }
            fields = [:]
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { flush(); continue }
            if line.hasPrefix("#") { comment = String(line); continue }
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = String(line[line.index(after: colon)...])
        }
        flush()
        return cases
    }

    /// Runs every case; `knownFailures` (by comment line) must still fail, so the list stays true.
    func run(_ file: String, expectedCount: Int, knownFailures: [String: String] = [:]) throws {
        let cases = try Self.cases(file)
        XCTAssertEqual(cases.count, expectedCount, "cases read from \(file)")
        for testCase in cases {
            if let reason = knownFailures[testCase.comment] {
                XCTAssertFalse(
                    Self.passes(testCase), "\(testCase.comment) passes now (\(reason)): drop it from the list")
                continue
            }
            let expectsError = testCase.instances.hasPrefix(" *** ")
            let start = try CalendarDate.parse(testCase.start, tzid: nil).get()
            let instances = RecurrenceRule.parse(testCase.rule).flatMap { $0.instances(from: start, limit: 5000) }
            switch instances {
            case .failure(let error):
                XCTAssertTrue(expectsError, "\(testCase.comment)\n\(testCase.rule): \(error)")
            case .success(var dates):
                XCTAssertFalse(expectsError, "\(testCase.comment)\n\(testCase.rule) should be rejected")
                var expected = testCase.instances.split(separator: ",").map(String.init)
                // INSTANCES lists every instance from DTSTART; the harness compares those from START-AT on.
                if let startAt = testCase.startAt, let from = try? CalendarDate.parse(startAt, tzid: nil).get() {
                    dates = dates.filter { $0 >= from }
                    expected = expected.filter {
                        (try? CalendarDate.parse($0, tzid: nil).get()).map { $0 >= from } ?? true
                    }
                }
                XCTAssertEqual(dates.map(\.icsValue), expected, "\(testCase.comment)\n\(testCase.rule)")
            }
        }
    }

    static func passes(_ testCase: Case) -> Bool {
        guard let start = try? CalendarDate.parse(testCase.start, tzid: nil).get() else { return false }
        switch RecurrenceRule.parse(testCase.rule).flatMap({ $0.instances(from: start, limit: 5000) }) {
        case .failure: return testCase.instances.hasPrefix(" *** ")
        case .success(var dates):
            var expected = testCase.instances.split(separator: ",").map(String.init)
            if let startAt = testCase.startAt, let from = try? CalendarDate.parse(startAt, tzid: nil).get() {
                dates = dates.filter { $0 >= from }
                expected = expected.filter { (try? CalendarDate.parse($0, tzid: nil).get()).map { $0 >= from } ?? true }
            }
            return dates.map(\.icsValue) == expected
        }
    }

    /// RFC 5545 rules: every case of libical's main file.
    func testRFC5545Vectors() throws { try run("libical__icalrecur_test.txt", expectedCount: 146) }

    /// RFC 7529 (RSCALE) cases for builds without ICU: Gregorian SKIP handling and an unknown RSCALE rejected.
    func testRScaleVectorsWithoutICU() throws { try run("libical__icalrecur_test_rscale.txt", expectedCount: 14) }
}

extension RRuleVectorTests {
    /// Non-Gregorian RSCALE (Hebrew, Chinese, Islamic, Ethiopic, Dangi) goes to libical, which Debian builds with ICU.
    func testRScaleVectorsWithICU() throws {
        let leapMonths =
            "libical 3.0.16 with ICU gets Chinese leap months (BYMONTH=…L) and SKIP around them wrong; "
            + "the vectors come from libical master, which fixed it"
        try run(
            "libical__icalrecur_test_rscale_withicu.txt", expectedCount: 19,
            knownFailures: [
                "# Chinese leap month (omit)": leapMonths,
                "# Chinese leap month (skip forward)": leapMonths,
                "# Chinese leap month (skip back)": leapMonths,
                "# Chinese leap month (both)": leapMonths,
                "# Every other Chinese New Year, starting at Jan 1, 2016":
                    "libical 3.0.16 starts an INTERVAL=2 Chinese "
                    + "rule from the wrong year when DTSTART is not an instance",
            ])
        try run("libical__icalrecur_test_rscale_withicu_dangi.txt", expectedCount: 1)
    }
}
