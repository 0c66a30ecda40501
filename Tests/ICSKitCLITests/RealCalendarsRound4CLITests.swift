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
}
