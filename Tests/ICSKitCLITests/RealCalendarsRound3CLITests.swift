import Foundation
import XCTest

/// Real calendars, round 3 (issue 50): `convert --repair` on a file with each class strict readers still refused
/// after round 2, in the shapes calcurse, old Exchange, Lotus, Thunderbird and RFC 7529 writers give them.
final class RealCalendarsRound3CLITests: XCTestCase {
    /// Classes 3, 4, 6, 7, 8 and 9 in one file, which none of the six peers takes: items without UID get one derived
    /// from their content (the same on every run), RSCALE rules become plain rules or RDATEs, EXDATEs and RDATEs
    /// take DTSTART's form, two masters of one UID part, mixed date and date-time ends, a date start with an hour's
    /// DURATION, ends before starts and a repeated METHOD are mended, and parameters dateutil refuses go (a VALUE a
    /// TZNAME cannot have, an X- parameter on TZOFFSETTO) or get their quotes (`CN=Doe, John`). Each change is
    /// reported at its line; every peer takes the result; ICSKit and recurring-ical-events read the same instances
    /// from it, and the ones ICSKit read from the original (the item that shared a UID now beside it, all-day ends
    /// in whole days).
    func testRepairMendsEachRoundThreeClassForEveryPeer() throws {
        let file = CLI.fixture("hand/round3-repairs.ics")
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (repaired, warnings) = try repair("hand/round3-repairs.ics", into: directory)
        XCTAssertEqual(
            warnings,
            [
                "5: warning: repaired: METHOD PUBLISH written 2 times; written once",
                "11: warning: repaired: TZOFFSETTO in a VTIMEZONE has parameters it does not take (X-NOTE), "
                    + "which vobject and Radicale refuse; left out",
                "12: warning: repaired: TZNAME says VALUE=DATE, which it cannot have and its value is not; left "
                    + "out, the value read as the TEXT it is",
                "15: warning: repaired: VEVENT had no UID; added icskit-f259223c1f532424@derived, derived from "
                    + "its content",
                "21: warning: repaired: VTODO had no UID; added icskit-7c8c18dda251df6a@derived, derived from "
                    + "its content",
                "30: warning: repaired: RRULE RSCALE=GREGORIAN;FREQ=MONTHLY;COUNT=3 is Gregorian and gives the "
                    + "same instances without RFC 7529's RSCALE and SKIP, which most readers cannot read; written as "
                    + "FREQ=MONTHLY;COUNT=3",
                "37: warning: repaired: RRULE RSCALE=GREGORIAN;FREQ=MONTHLY;SKIP=FORWARD;COUNT=4 uses RFC 7529 "
                    + "(RSCALE or SKIP), which most readers cannot read; written as 3 RDATEs, its instances from "
                    + "20260131 to 20260501 (all of them)",
                "44: warning: repaired: RRULE RSCALE=CHINESE;FREQ=MONTHLY;COUNT=3 uses RFC 7529 (RSCALE or "
                    + "SKIP), which most readers cannot read; written as 2 RDATEs, its instances from 20260217 to "
                    + "20260417 (all of them)",
                "53: warning: repaired: EXDATE 20260113T080000Z is not in DTSTART's form (20260112T090000 in "
                    + "Europe/Berlin); written as EXDATE;TZID=Europe/Berlin:20260113T090000, the same instant",
                "54: warning: repaired: EXDATE 20260114T030000 is not in DTSTART's form (20260112T090000 in "
                    + "Europe/Berlin); written as EXDATE;TZID=Europe/Berlin:20260114T090000, the same instant",
                "55: warning: repaired: RDATE 20260120 is not in DTSTART's form (20260112T090000 in "
                    + "Europe/Berlin); written as RDATE;TZID=Europe/Berlin:20260120T000000, its midnight, as readers "
                    + "place it",
                "65: warning: repaired: VEVENT UID review@round3.example is also the UID of another item (line "
                    + "58) of the same version; this one written with UID icskit-14fd1ff0dbec8e95@derived, derived "
                    + "from its content",
                "76: warning: repaired: DTEND 20260210T170000Z is not of DTSTART's value type; written as "
                    + "20260211",
                "83: warning: repaired: DURATION PT1H after a date DTSTART; written in days, P1D, the whole days "
                    + "it is read as (a date start has no time of day)",
                "90: warning: repaired: DTEND 20260218T100000Z is before DTSTART 20260218T110000Z; the two "
                    + "swapped, as readers read it",
                "97: warning: repaired: DTEND 20260222T120000Z is not of DTSTART's value type; written as "
                    + "20260222",
                "97: warning: repaired: DTEND 20260222 is before DTSTART 20260223; the two swapped, as readers "
                    + "read it",
                "107: warning: repaired: ATTENDEE's CN holds an unquoted comma, which makes it several values "
                    + "where it takes one; written as one quoted value, \"Doe, John\"",
            ])
        let text = try String(contentsOfFile: repaired, encoding: .utf8)
        for line in [
            "TZOFFSETTO:+0100\r\nTZNAME:HBT\r\n", "RRULE:FREQ=MONTHLY;COUNT=3\r\n",
            "RDATE;VALUE=DATE:20260301,20260331,20260501\r\n", "RDATE;VALUE=DATE:20260319,20260417\r\n",
            "EXDATE;TZID=Europe/Berlin:20260113T090000\r\nEXDATE;TZID=Europe/Berlin:20260114T090000\r\n"
                + "RDATE;TZID=Europe/Berlin:20260120T000000\r\n",
            "DTSTART;VALUE=DATE:20260209\r\nDTEND;VALUE=DATE:20260211\r\n", "DURATION:P1D\r\n",
            "DTSTART;VALUE=DATE:20260222\r\nDTEND;VALUE=DATE:20260223\r\n",
            "ATTENDEE;CN=\"Doe, John\";ROLE=REQ-PARTICIPANT:mailto:john@round3.example\r\n",
        ] {
            XCTAssertTrue(text.contains(line), line)
        }
        XCTAssertFalse(text.contains("RSCALE"))
        XCTAssertEqual(text.components(separatedBy: "METHOD:").count, 2, "one METHOD")

        // The UIDs derived from content are the same on a second run: importing the repaired file twice is not two
        // copies of each item.
        let again = directory.appendingPathComponent("again.ics").path
        XCTAssertEqual(try CLI.run(["convert", file, "--repair", "-q", "-o", again]).status, 0)
        XCTAssertEqual(try String(contentsOfFile: again, encoding: .utf8), text)

        func instances(_ path: String) throws -> [String] {
            let run = try CLI.run([
                "agenda", path, "--from", "2026-01-01", "--to", "2026-06-01", "--tz", "UTC", "--json", "-q",
                "--component", "event,todo",
            ])
            XCTAssertEqual(run.status, 0, run.stderr)
            let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
            return rows.map { "\($0["start"]!) \($0["end"]!) \($0["summary"] ?? "")" }.sorted()
        }
        let before = try instances(file)
        let after = try instances(repaired)
        XCTAssertEqual(after.count, 23)
        // Read as it is, a UID stands for one item; an all-day item's end past midnight or an hour long is written
        // as the whole days it covers (ICSKit wrote the day it falls on).
        XCTAssertEqual(
            after.filter { !before.contains($0) },
            [
                "2026-02-03T14:00:00Z 2026-02-03T15:00:00Z Budget review", "2026-02-09 2026-02-11 Offsite",
                "2026-02-16 2026-02-17 Holiday",
            ])
        XCTAssertEqual(
            before.filter { !after.contains($0) }, ["2026-02-09 2026-02-10 Offsite", "2026-02-16 2026-02-16 Holiday"])
        for instance in [
            "2026-01-19T23:00:00Z 2026-01-19T23:15:00Z Berlin stand-up",
            "2026-02-17 2026-02-18 First of the lunar month",
            "2026-03-19 2026-03-20 First of the lunar month", "2026-03-01 2026-03-02 Month end",
            "2026-02-22 2026-02-23 Ends before it starts", "2026-02-18T10:00:00Z 2026-02-18T11:00:00Z Backwards",
        ] {
            XCTAssertTrue(after.contains(instance), instance)
        }
        XCTAssertFalse(after.contains { $0.hasPrefix("2026-01-13") || $0.hasPrefix("2026-01-14") }, "excluded")

        try CLI.requirePythonTools()
        XCTAssertEqual(
            try CLI.recurringICalEventsLines(repaired, from: "2026-01-01", to: "2026-06-01", components: "event,todo"),
            try CLI.agendaLines(repaired, from: "2026-01-01", to: "2026-06-01", components: "event,todo"))
        let answers = try peerVerdicts([file, repaired], peers: nil, in: directory)
        for peer in ["icalendar", "vobject", "rie", "khal", "calcurse", "radicale"] {
            XCTAssertEqual(answers[file]?[peer]?["accepted"] as? Bool, false, "\(peer) refuses the original")
            XCTAssertEqual(
                answers[repaired]?[peer]?["accepted"] as? Bool, true,
                "\(peer): \(answers[repaired]?[peer]?["detail"] ?? "no answer")")
        }
    }
}
