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

    /// Class 2: `MEMBER="mailto:a", "mailto:b"` is a list of two values; it was read as one value with quotes in it
    /// and written with RFC 6868's `^'`, a different value for every other reader. Class 5: NUL bytes padding a
    /// TZID (Exchange) are removed, said once, instead of being kept as U+FFFD in the zone's name and every warning.
    func testSpacedParameterListsAndNULPadding() throws {
        let read = try ICS.read(contentsOf: Paths.fixture("hand/round4-parameters.ics"))
        let event = try XCTUnwrap(read.calendars.first?.events.first)
        let member = event.core.attendees.first?.parameters.first { $0.name == "MEMBER" }
        XCTAssertEqual(member?.values, ["mailto:leads@example.org", "mailto:ops@example.org"])
        XCTAssertEqual(event.core.attendees.first?.commonName, "Ann Lee")
        let delegated = event.core.attendees.last?.parameters.first { $0.name == "DELEGATED-FROM" }
        XCTAssertEqual(delegated?.values, ["mailto:kim@example.org", "mailto:lu@example.org"])
        XCTAssertEqual(read.diagnostics.filter { $0.code == "spaced-parameter-list" }.map(\.line), [10, 11])
        let written = String(decoding: ICS.write(read.calendars), as: UTF8.self)
        XCTAssertTrue(written.contains(#"MEMBER="mailto:leads@example.org","mailto:ops@example.org""#), written)
        XCTAssertFalse(written.contains("^'"), written)
        XCTAssertTrue(written.contains(#"ALTREP="http://example.org/room, 4""#), "a comma inside quotes is the value's")

        XCTAssertEqual(event.start?.tzid, "W. Europe Standard Time")
        XCTAssertEqual(event.end?.tzid, "W. Europe Standard Time")
        XCTAssertEqual(event.start?.zone?.identifier, "Europe/Berlin")
        XCTAssertEqual(read.diagnostics.filter { $0.code == "nul-padding" }.map(\.line), [7], "said once")
        XCTAssertFalse(read.diagnostics.contains { $0.code == "control-character" })
        XCTAssertFalse(read.diagnostics.contains { $0.message.contains("\u{FFFD}") }, "\(read.diagnostics)")
        XCTAssertFalse(written.contains("\u{FFFD}") || written.utf8.contains(0), written)
    }

    /// Class 3: a backslash before a letter that is no escape (`C:\Temp`, `\x`) is the text's own: jCal and
    /// JSCalendar dropped it (the iCalendar round trip kept it). `\\,` is a backslash and a comma in every format.
    func testABackslashThatIsNoEscapeIsKeptInEveryFormat() throws {
        let read = try ICS.read(contentsOf: Paths.fixture("hand/round4-backslashes.ics"))
        let event = try XCTUnwrap(read.calendars.first?.events.first)
        XCTAssertEqual(event.summary, #"Copy C:\Temp\x to the share"#)
        XCTAssertEqual(event.description, #"one\,two"#)
        XCTAssertEqual(event.location, #"Room \ 4, east"#)
        XCTAssertEqual(event.categories.map(\.name), [#"a\"#, "b"])
        for format in [CalendarFormat.jcal, .jscalendar, .xcal] {
            let back = format.read(format.write(read.calendars), file: nil)
            let again = try XCTUnwrap(back.calendars.first?.events.first, "\(format)")
            XCTAssertEqual(again.summary, event.summary, "\(format)")
            XCTAssertEqual(again.description, event.description, "\(format)")
            XCTAssertEqual(again.location, event.location, "\(format)")
            XCTAssertEqual(again.categories.map(\.name), [#"a\"#, "b"], "\(format)")
        }
        XCTAssertEqual(TextEscaping.unescape(#"mailto\:x \"y\" \N"#), "mailto:x \"y\" \n", "other escapes as before")
    }
}
