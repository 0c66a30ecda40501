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

    /// VTIMEZONE blocks under real IANA names that contradict tzdata (Apple iCal 1.5's unsigned offsets and no
    /// onsets, a New York block with the rules before 2007, Moscow at +02:30:17, Berlin changing back in September):
    /// tzdata applies by default, as python icalendar does, each disagreement is reported with both offsets, and
    /// `--zones file` takes the file's rules. agenda, CSV and the store place times the same way.
    func testVTimeZonesThatContradictTZData() throws {
        let file = CLI.fixture("hand/stale-vtimezones.ics")
        let ours = try CLI.agendaLines(file, from: "2026-01-01", to: "2027-01-01")
        for line in [
            "VEVENT 2026-01-15T08:00:00Z Paris winter", "VEVENT 2026-07-15T07:00:00Z Paris summer",
            "VEVENT 2026-03-09T13:00:00Z New York weekly", "VEVENT 2026-03-10T09:00:00Z Moscow",
            "VEVENT 2026-10-15T07:00:00Z Berlin in October", "VEVENT 2026-03-10T06:00:00Z Office time",
        ] {
            XCTAssertTrue(ours.contains(line), "\(line) in \(ours)")
        }
        let run = try CLI.run(["agenda", file, "--from", "2026-01-01", "--to", "2027-01-01", "--tz", "UTC"])
        for expected in [
            "stale-vtimezones.ics:19: warning: the VTIMEZONE for TZID \"America/New_York\" disagrees with tzdata: "
                + "2026-03-10 09:00 is UTC-05:00 in the file, UTC-04:00 in tzdata",
            "\"Europe/Moscow\" disagrees with tzdata: 2026-03-10 12:00 is UTC+02:30:17 in the file, UTC+03:00 in tzdata",
            "\"Europe/Berlin\" disagrees with tzdata: 2026-10-15 09:00 is UTC+01:00 in the file, UTC+02:00 in tzdata",
            "tzdata is used, as python icalendar and Google do (--zones file uses the file's)",
        ] {
            XCTAssertTrue(run.stderr.contains(expected), "\(expected)\n\(run.stderr)")
        }
        XCTAssertFalse(run.stderr.contains("Office Time\" disagrees"), "a custom name has only the file's rules")

        let fileRules = try CLI.agendaLines(file, from: "2026-01-01", to: "2027-01-01", extra: ["--zones", "file"])
        for line in [
            "VEVENT 2026-01-15T08:00:00Z Paris winter",  // unsigned offsets, no onsets: the block is unusable
            "VEVENT 2026-03-09T14:00:00Z New York weekly", "VEVENT 2026-04-06T13:00:00Z New York weekly",
            "VEVENT 2026-03-10T09:29:43Z Moscow", "VEVENT 2026-10-15T08:00:00Z Berlin in October",
            "VEVENT 2026-03-10T06:00:00Z Office time",
        ] {
            XCTAssertTrue(fileRules.contains(line), "\(line) in \(fileRules)")
        }

        let validate = try CLI.run(["validate", file])
        XCTAssertTrue(
            validate.stdout.contains(
                "stale-vtimezones.ics:8: warning: TZOFFSETTO value \"0100\" has no sign (RFC 5545 §3.3.14); read as "
                    + "+0100"), validate.stdout)
        XCTAssertFalse(validate.stdout.contains("Europe/Paris\" has no VTIMEZONE"), validate.stdout)
        XCTAssertTrue(validate.stdout.contains("\"Europe/Paris\" has a VTIMEZONE without onsets"), validate.stdout)

        // One placement: CSV in UTC and an agenda read back from the store say the same.
        let csv = try CLI.run(["convert", file, "--to", "csv", "--tz", "UTC", "-q"])
        XCTAssertTrue(csv.stdout.contains("Paris winter,01/15/2026,8:00 AM"), csv.stdout)
        XCTAssertTrue(csv.stdout.contains("Moscow,03/10/2026,9:00 AM"), csv.stdout)
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite").path
        XCTAssertEqual(try CLI.run(["import", file, "--store", store, "-q"]).status, 0)
        let stored = try CLI.run([
            "agenda", "--store", store, "--from", "2026-01-01", "--to", "2027-01-01", "--tz", "UTC", "--json", "-q",
        ])
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(stored.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(
            rows.map { "\($0["component"]!) \($0["start"]!) \($0["summary"]!)" }.sorted(), ours)

        try CLI.requirePythonTools()
        XCTAssertEqual(ours, try CLI.recurringICalEventsLines(file, from: "2026-01-01", to: "2027-01-01"))
    }

}
