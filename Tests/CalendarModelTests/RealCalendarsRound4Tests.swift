import CalendarModel
import Foundation
import XCTest

/// Real calendars, round 4 (issue 65): what new task-app exports and strict readers still showed, each class on a
/// hand-written fixture in the shape of the real ones.
final class RealCalendarsRound4Tests: XCTestCase {
    /// Class 1: Exchange 2007 folds ORGANIZER and ATTENDEE lines by a bare line break, so the rest of the line
    /// (`l Latham;CUTYPE=INDIVIDUAL:mailto:…`, `E:mailto:…`, `:mailto:…`) starts a line of its own. The two are read
    /// as one line, with a warning; nothing is dropped.
    func testAFoldThatLostItsSpaceIsJoined() throws {
        let read = try ICS.read(contentsOf: Paths.fixture("hand/round4-lost-folds.ics"))
        let event = try XCTUnwrap(read.calendars.first?.events.first)
        XCTAssertEqual(event.core.organizer?.address, "mailto:daniel.latham@example.org")
        XCTAssertEqual(event.core.organizer?.commonName, "Daniel Latham")
        XCTAssertEqual(event.core.organizer?["CUTYPE"], "INDIVIDUAL")
        XCTAssertEqual(
            event.core.attendees.map(\.address), ["mailto:priya.raman@example.org", "mailto:ola@example.org"])
        XCTAssertEqual(event.core.attendees.first?["RSVP"], "TRUE")
        XCTAssertEqual(event.core.attendees.last?["CUTYPE"], "INDIVIDUAL")
        XCTAssertEqual(event.description, "Bring the Q1 figures; the room\nhas a projector", "text is as before")
        XCTAssertEqual(Set(read.diagnostics.filter { $0.code == "lost-fold" }.map(\.line)), [10, 12, 14])
        XCTAssertFalse(read.diagnostics.contains { $0.code == "not-a-content-line" }, "\(read.diagnostics)")
        XCTAssertTrue(event.otherProperties.isEmpty, "no property made of a line's rest: \(event.otherProperties)")

        // A line that starts a property of its own is one: the cut line before it is reported and dropped.
        let cut =
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:c\r\nATTENDEE;CN=Ann\r\nSUMMARY:Plan\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n"
        let alone = ICS.read(Array(cut.utf8))
        XCTAssertEqual(alone.calendars.first?.events.first?.summary, "Plan")
        XCTAssertEqual(alone.calendars.first?.events.first?.core.attendees, [])
        XCTAssertEqual(alone.diagnostics.filter { $0.code == "not-a-content-line" }.map(\.line), [4])
    }
}
