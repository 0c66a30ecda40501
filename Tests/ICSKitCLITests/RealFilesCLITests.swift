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
        assertContains(
            ours,
            [
                "VEVENT 2026-01-10T07:00:00Z Orphan at its own start", "VEVENT 2026-01-10T07:00:00Z Daily at 13Z",
                "VEVENT 2026-01-15T07:00:00Z Orphan of an RDATE series", "VEVENT 2026-01-24T07:00:00Z Orphan in a zone",
                "VEVENT 2026-01-29T07:00:00Z Orphan with a time",
            ])
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
        assertContains(
            ours,
            [
                "VEVENT 2026-01-15T08:00:00Z Paris winter", "VEVENT 2026-07-15T07:00:00Z Paris summer",
                "VEVENT 2026-03-09T13:00:00Z New York weekly", "VEVENT 2026-03-10T09:00:00Z Moscow",
                "VEVENT 2026-10-15T07:00:00Z Berlin in October", "VEVENT 2026-03-10T06:00:00Z Office time",
            ])
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
        assertContains(
            fileRules,
            [
                "VEVENT 2026-01-15T08:00:00Z Paris winter",  // unsigned offsets, no onsets: the block is unusable
                "VEVENT 2026-03-09T14:00:00Z New York weekly", "VEVENT 2026-04-06T13:00:00Z New York weekly",
                "VEVENT 2026-03-10T09:29:43Z Moscow", "VEVENT 2026-10-15T08:00:00Z Berlin in October",
                "VEVENT 2026-03-10T06:00:00Z Office time",
            ])

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

    /// iOS writes `X-TITLE=Hauptstraße 1-5\; 4041 Linz` in Apple's structured location: the escaped `;` and `,`
    /// are part of the value, as python icalendar reads them; the line is written back as it was, and jCal and
    /// xCal get the value itself (iCalendar from jCal quotes it).
    func testBackslashEscapesInParameterValues() throws {
        let file = CLI.fixture("hand/apple-structured-location.ics")
        let original = try String(contentsOfFile: file, encoding: .utf8)
        let validate = try CLI.run(["validate", file])
        XCTAssertEqual(validate.status, 0, validate.stdout)
        XCTAssertTrue(
            validate.stdout.contains(
                "apple-structured-location.ics:10: warning: X-APPLE-STRUCTURED-LOCATION parameter X-TITLE escapes"),
            validate.stdout)
        let ics = try CLI.run(["convert", file, "-q"])
        func unfolded(_ text: String) -> String { text.replacingOccurrences(of: "\r\n ", with: "") }
        XCTAssertEqual(unfolded(ics.stdout), original, "byte-stable")

        let jcal = try CLI.run(["convert", file, "--to", "jcal", "-q"])
        let parameters = try XCTUnwrap(Self.jcalParameters(jcal.stdout, of: "x-apple-structured-location"))
        XCTAssertEqual(parameters["x-title"] as? String, "Hauptstraße 1-5; 4041 Linz")
        XCTAssertEqual(parameters["x-address"] as? String, "Hauptstraße 1-5; 4041 Linz, Austria")
        XCTAssertEqual(parameters["x-apple-radius"] as? String, "70")
        let xcal = try CLI.run(["convert", file, "--to", "xcal", "-q"])
        XCTAssertTrue(xcal.stdout.contains("<x-title><text>Hauptstraße 1-5; 4041 Linz</text></x-title>"), xcal.stdout)
        let back = try CLI.run(["convert", "-", "--from", "jcal", "-q"], stdin: Data(jcal.stdout.utf8))
        XCTAssertTrue(
            unfolded(back.stdout).contains(
                "X-ADDRESS=\"Hauptstraße 1-5; 4041 Linz, Austria\";X-APPLE-RADIUS=70;X-TITLE=\"Hauptstraße 1-5; 4041 Linz\""
            ), back.stdout)

        try CLI.requirePythonTools()
        let python = CLI.python([
            "-c",
            "import sys, json, icalendar; c = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read()); "
                + "p = c.walk('VEVENT')[0]['X-APPLE-STRUCTURED-LOCATION'].params; "
                + "print(json.dumps({k.lower(): v for k, v in p.items() if k != 'VALUE'}))",
            file,
        ])
        let theirs = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: String], python.stderr)
        XCTAssertEqual(theirs, parameters.compactMapValues { $0 as? String })
    }

    /// The parameters of the first property of that name in jCal text.
    static func jcalParameters(_ json: String, of name: String) throws -> [String: Any]? {
        func search(_ node: Any) -> [String: Any]? {
            guard let array = node as? [Any] else { return nil }
            if array.count >= 4, array[0] as? String == name, let parameters = array[1] as? [String: Any] {
                return parameters
            }
            for child in array { if let found = search(child) { return found } }
            return nil
        }
        return search(try JSONSerialization.jsonObject(with: Data(json.utf8)))
    }

    /// A TZID nothing explains is floating time, like a time without one: JSON prints it without an offset, and
    /// text, CSV and the todo list show the same wall clock in any zone; a UTC time keeps its offset.
    func testTimesInAnUnknownZoneAreFloatingEverywhere() throws {
        let file = CLI.fixture("hand/unknown-tzid.ics")
        let run = try CLI.run([
            "agenda", file, "--from", "2026-01-05", "--to", "+2d", "--tz", "America/New_York", "--json", "-q",
        ])
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        func row(_ summary: String, _ day: String) -> [String: Any]? {
            rows.first { $0["summary"] as? String == summary && ($0["start"] as? String)?.hasPrefix(day) == true }
        }
        XCTAssertEqual(row("Unknown zone", "2026-01-05")?["start"] as? String, "2026-01-05T09:00:00")
        XCTAssertEqual(row("Unknown zone", "2026-01-05")?["end"] as? String, "2026-01-05T10:00:00")
        XCTAssertEqual(row("Unknown zone", "2026-01-06")?["recurrence_id"] as? String, "2026-01-06T09:00:00")
        XCTAssertEqual(row("Floating", "2026-01-05")?["start"] as? String, "2026-01-05T11:00:00")
        XCTAssertEqual(row("UTC", "2026-01-05")?["start"] as? String, "2026-01-05T12:00:00-05:00")
        for zone in ["America/New_York", "Asia/Tokyo"] {
            let text = try CLI.run(["agenda", file, "--from", "2026-01-05", "--to", "+1d", "--tz", zone, "-q"])
            XCTAssertTrue(text.stdout.contains("09:00–10:00  Unknown zone"), "\(zone): \(text.stdout)")
            let csv = try CLI.run(["convert", file, "--to", "csv", "--tz", zone, "-q"])
            XCTAssertTrue(csv.stdout.contains("Unknown zone,01/05/2026,9:00 AM,01/05/2026,10:00 AM"), csv.stdout)
            let todo = try CLI.run(["todo", file, "--json", "--tz", zone, "-q"])
            XCTAssertTrue(todo.stdout.contains("\"due\": \"2026-01-05T15:00:00\""), "\(zone): \(todo.stdout)")
        }
    }

    /// Each expected line is among the agenda lines.
    func assertContains(_ lines: [String], _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        for entry in expected where !lines.contains(entry) {
            XCTFail("\(entry) is not in \(lines)", file: file, line: line)
        }
    }

}
