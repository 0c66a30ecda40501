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

    /// Class 4: validate missed an empty UID (servers refuse it, and `--repair` kept it empty), a VERSION other
    /// than 2.0 and a second PRODID or VERSION in one VCALENDAR.
    func testEmptyUIDsVersionsAndRepeatedHeadersAreFoundAndRepaired() throws {
        let read = try ICS.read(contentsOf: Paths.fixture("hand/round4-headers-and-uid.ics"))
        let found = read.diagnostics.map { "\($0.code):\($0.line)" }
        XCTAssertTrue(found.contains("empty-uid:7"), "\(found)")
        XCTAssertTrue(found.contains("repeated-property:4") && found.contains("repeated-property:5"), "\(found)")
        XCTAssertTrue(read.hasErrors, "an empty UID is an error")
        let repaired = try XCTUnwrap(read.calendars.first).repairedForPeers()
        let uid = try XCTUnwrap(repaired.calendar.todos.first?.core.uid)
        XCTAssertFalse(uid.isEmpty)
        let written = String(decoding: ICS.write([repaired.calendar]), as: UTF8.self)
        XCTAssertEqual(written.components(separatedBy: "\r\nPRODID:").count, 2, written)
        XCTAssertEqual(written.components(separatedBy: "\r\nVERSION:").count, 2, written)
        XCTAssertTrue(written.contains("PRODID:-//Tasks app//EN"), "the first is kept")
        XCTAssertEqual(ICS.read(Array(written.utf8)).diagnostics.map(\.code), [], "strict readers take it")

        let old =
            "BEGIN:VCALENDAR\r\nVERSION:1.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:v1@example.org\r\n"
            + "DTSTAMP:20260101T000000Z\r\nDTSTART:20260105T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let version = ICS.read(Array(old.utf8))
        XCTAssertEqual(version.diagnostics.filter { $0.code == "version-not-2" }.map(\.line), [1])
        let fixed = try XCTUnwrap(version.calendars.first).repairedForPeers()
        XCTAssertTrue(String(decoding: ICS.write([fixed.calendar]), as: UTF8.self).contains("\r\nVERSION:2.0\r\n"))
        XCTAssertTrue(fixed.diagnostics.contains { $0.code == "repair-version" })
    }

    /// Class 6: JSCalendar's `timeZone` is an IANA name (RFC 8984 §4.7.2); Windows and Outlook names were written
    /// as they were. They are written as the IANA zone the file's VTIMEZONE agrees with, and every instance stays.
    func testJSCalendarNamesZonesByIANAName() throws {
        let read = try ICS.read(contentsOf: Paths.fixture("hand/round4-windows-zones.ics"))
        let json = String(decoding: CalendarFormat.jscalendar.write(read.calendars), as: UTF8.self)
        let zones = json.matches(of: /"timeZone" ?: ?"([^"]*)"/).map { String($0.1) }
        XCTAssertEqual(Set(zones), ["Europe/Berlin", "America/New_York"], json)
        var options = ExpansionOptions()
        options.viewerZone = .utc
        func instants(_ calendars: [ICalendar]) -> [String] {
            calendars[0].occurrences(
                from: Date(timeIntervalSince1970: 1_767_225_600), to: Date(timeIntervalSince1970: 1_798_761_600),
                options: options
            ).occurrences.map { "\($0.startDate) \($0.endDate) \($0.summary ?? "")" }
        }
        let back = CalendarFormat.jscalendar.read(Array(json.utf8), file: nil)
        XCTAssertEqual(instants(back.calendars), instants(read.calendars))
        XCTAssertEqual(instants(read.calendars).count, 7)
    }

    /// Class 8 (last part): a file of only VFREEBUSY or VPOLL is valid iCalendar, which a CalDAV calendar collection
    /// refuses; `--repair` keeps it and says what is done with such components.
    func testACalendarWithoutItemsIsKeptAndSaid() throws {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VFREEBUSY\r\nUID:fb-1@example.org\r\n"
            + "DTSTAMP:20260301T120000Z\r\nDTSTART:20260301T000000Z\r\nDTEND:20260308T000000Z\r\n"
            + "FREEBUSY:20260302T090000Z/PT1H\r\nEND:VFREEBUSY\r\nEND:VCALENDAR\r\n"
        let repaired = try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first).repairedForPeers()
        let said = repaired.diagnostics.filter { $0.code == "repair-no-items" }
        XCTAssertEqual(said.map(\.line), [1])
        XCTAssertTrue(said.first?.message.contains("only VFREEBUSY") == true, "\(said)")
        XCTAssertTrue(String(decoding: ICS.write([repaired.calendar]), as: UTF8.self).contains("FREEBUSY:"))
    }
}
