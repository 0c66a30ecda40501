import Foundation
import XCTest

/// Differential testing of recurrence (scripts/differential.py): 5,000 generated calendars — RRULE with every part,
/// RDATE and EXDATE of every form, moved and orphan overrides, THISANDFUTURE, all-day, floating, UTC and zoned
/// times, DST gaps and overlaps, tzdata and hand-written VTIMEZONEs — expanded by the built `icskit agenda` and by
/// recurring-ical-events, compared instance by instance. Every disagreement must be one docs/DEVIATIONS.md explains.
final class DifferentialTests: XCTestCase {
    func testGeneratedCalendarsAgreeWithRecurringICalEvents() throws {
        try CLI.requirePythonTools()
        let script = CLI.package.appendingPathComponent("scripts/differential.py").path
        let run = CLI.python([
            script, "--icskit", CLI.binary, "--seed", "20261123", "--count", "5000", "--show", "20",
        ])
        let lines = run.stdout.split(separator: "\n")
        let summary = try XCTUnwrap(
            lines.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] },
            run.stdout + run.stderr)
        XCTAssertEqual(summary["unexplained"] as? Int, 0, run.stdout)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(summary["calendars"] as? Int, 5000)
        let series = try XCTUnwrap(summary["series"] as? Int)
        let agree = try XCTUnwrap(summary["agree"] as? Int)
        XCTAssertGreaterThan(series, 9000)
        XCTAssertGreaterThan(Double(agree) / Double(series), 0.95, "most series agree outright: \(summary)")
        XCTAssertLessThan(summary["reference_failed"] as? Int ?? 5000, 100, "the reference reads almost every one")
        XCTAssertGreaterThan(summary["instances"] as? Int ?? 0, 300_000)
        // The generator reaches every feature it is meant to.
        let features = try XCTUnwrap(summary["features"] as? [String: Int])
        for feature in ["dst-edge", "exdate", "orphan", "override", "rdate-period", "thisandfuture"] {
            XCTAssertGreaterThan(features[feature] ?? 0, 100, feature)
        }
    }
}
