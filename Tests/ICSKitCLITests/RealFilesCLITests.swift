import Foundation
import XCTest

/// Failure classes seen on real files from other programs, each on a file written for it (issue 10), compared with
/// what recurring-ical-events and python icalendar make of the same file.
final class RealFilesCLITests: XCTestCase {
    /// An override whose RECURRENCE-ID matches no instance appears at its own DTSTART (RFC 5545; recurring-ical-events
    /// does the same), beside the instance it collides with; an RDATE equal to a rule instance, in any form (UTC for a
    /// zoned series, the zone itself, DTSTART repeated), is one instance.
    func testOrphanOverridesAndDuplicateRDates() throws {
        let file = CLI.fixture("hand/orphan-overrides.ics")
        let ours = try CLI.agendaLines(file, from: "2026-01-01", to: "2026-02-01")
        for line in [
            "VEVENT 2026-01-10T07:00:00Z Orphan at its own start", "VEVENT 2026-01-10T07:00:00Z Daily at 13Z",
            "VEVENT 2026-01-15T07:00:00Z Orphan of an RDATE series", "VEVENT 2026-01-24T07:00:00Z Orphan in a zone",
            "VEVENT 2026-01-29T07:00:00Z Orphan with a time",
        ] {
            XCTAssertTrue(ours.contains(line), "\(line) in \(ours)")
        }
        XCTAssertFalse(ours.contains { $0.hasPrefix("VEVENT 2026-01-08") }, "the orphan is not at its RECURRENCE-ID")
        let duplicates = ours.filter { $0.hasSuffix("RDATE equal to a rule instance") }
        XCTAssertEqual(duplicates.count, 4, "\(duplicates)")
        XCTAssertEqual(Set(duplicates).count, 4, "each day once")
        try CLI.requirePythonTools()
        XCTAssertEqual(ours, try CLI.recurringICalEventsLines(file, from: "2026-01-01", to: "2026-02-01"))
    }
}
