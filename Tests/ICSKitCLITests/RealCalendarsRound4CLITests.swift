import Foundation
import XCTest

/// Real calendars, round 4 (issue 65): what strict readers still refused in `convert --repair` output.
final class RealCalendarsRound4CLITests: XCTestCase {
    /// Class 8: an override whose DTEND is before its DTSTART, `DTSTAMP;VALUE=DATE`, quotes inside a quoted
    /// parameter (`CN="Ann "The Boss" Lee"`), an EXDATE on an item that does not repeat (calcurse) and an empty UID.
    /// Each is mended and said at its line; every one of the six peers takes the result, and ICSKit and
    /// recurring-ical-events read the same instances from it.
    func testRepairMendsEachRoundFourClassForEveryPeer() throws {
        let file = CLI.fixture("hand/round4-strict-readers.ics")
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (repaired, warnings) = try repair("hand/round4-strict-readers.ics", into: directory)
        for expected in [
            "6: warning: repaired: DTSTAMP 20260301 is no UTC time; written as 20260301T000000Z",
            "11: warning: repaired: ATTENDEE's CN holds a double quote",
            "18: warning: repaired: DTEND 20260309T103000Z is before DTSTART 20260309T110000Z",
            "26: warning: repaired: EXDATE 20260317T090000Z on an item that does not repeat",
            "29: warning: repaired: VTODO had an empty UID",
        ] {
            XCTAssertTrue(warnings.contains { $0.hasPrefix(expected) }, "\(expected)\n\(warnings)")
        }
        let text = try String(contentsOfFile: repaired, encoding: .utf8)
        XCTAssertTrue(text.contains("ATTENDEE;CN=Ann 'The Boss' Lee:mailto:ann@example.org"), text)
        XCTAssertFalse(text.contains("\r\nUID:\r\n"), text)

        try CLI.requirePythonTools()
        XCTAssertEqual(
            try CLI.recurringICalEventsLines(repaired, from: "2026-03-01", to: "2026-04-01", components: "event,todo"),
            try CLI.agendaLines(repaired, from: "2026-03-01", to: "2026-04-01", components: "event,todo"))
        let answers = try peerVerdicts([file, repaired], peers: nil, in: directory)
        for peer in ["calcurse", "radicale"] {
            XCTAssertEqual(answers[file]?[peer]?["accepted"] as? Bool, false, "\(peer) refuses the original")
        }
        for peer in ["icalendar", "vobject", "rie", "khal", "calcurse", "radicale"] {
            XCTAssertEqual(
                answers[repaired]?[peer]?["accepted"] as? Bool, true,
                "\(peer): \(answers[repaired]?[peer]?["detail"] ?? "no answer")")
        }
    }

    /// A published calendar beside items outside any VCALENDAR is one calendar (PUBLISH is what a plain calendar
    /// says of itself): written as one VCALENDAR, which python icalendar and khal take; a VCALENDAR the repair leaves
    /// empty beside another is left out. libical's test files have both shapes.
    func testPublishedAndPlainCalendarsAreOneAndEmptyOnesGo() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("mixed.ics").path
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nMETHOD:PUBLISH\r\nBEGIN:VEVENT\r\nUID:a@example.org\r\n"
            + "DTSTAMP:20260101T000000Z\r\nDTSTART:20260105T090000Z\r\nSUMMARY:Published\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n\r\nBEGIN:VEVENT\r\nUID:b@example.org\r\nDTSTAMP:20260101T000000Z\r\n"
            + "DTSTART:20260106T090000Z\r\nSUMMARY:Outside\r\nEND:VEVENT\r\n"
            + "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:c@example.org\r\n"
            + "SUMMARY:Nothing places me\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let repaired = directory.appendingPathComponent("repaired.ics").path
        let run = try CLI.run(["convert", file, "--repair", "-o", repaired])
        XCTAssertEqual(run.status, 0, run.stderr)
        let written = try String(contentsOfFile: repaired, encoding: .utf8)
        XCTAssertEqual(written.components(separatedBy: "BEGIN:VCALENDAR").count, 2, written)
        XCTAssertTrue(written.contains("SUMMARY:Published") && written.contains("SUMMARY:Outside"), written)
        XCTAssertFalse(written.contains("METHOD:"), "some said PUBLISH, some nothing: a plain calendar")
        XCTAssertTrue(run.stderr.contains("repaired: several VCALENDARs written as one"), run.stderr)
        XCTAssertFalse(written.contains("c@example.org"), "nothing places it")

        // A request beside a cancellation whose only item nothing can place: the emptied VCALENDAR goes.
        let messages =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:d@example.org\r\n"
            + "DTSTAMP:20260101T000000Z\r\nDTSTART:20260105T090000Z\r\nSUMMARY:Asked\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\nBEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nMETHOD:CANCEL\r\n"
            + "BEGIN:VEVENT\r\nUID:e@example.org\r\nSUMMARY:No time\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        try messages.write(toFile: file, atomically: true, encoding: .utf8)
        let again = try CLI.run(["convert", file, "--repair", "-o", repaired])
        XCTAssertEqual(again.status, 0, again.stderr)
        let one = try String(contentsOfFile: repaired, encoding: .utf8)
        XCTAssertEqual(one.components(separatedBy: "BEGIN:VCALENDAR").count, 2, one)
        XCTAssertTrue(one.contains("METHOD:REQUEST") && one.contains("SUMMARY:Asked"), one)
        XCTAssertTrue(again.stderr.contains("repaired: 1 of 2 VCALENDARs hold nothing once repaired"), again.stderr)
    }
}
