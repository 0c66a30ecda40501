import CalendarModel
import Foundation
import XCTest

/// A date's zone is a checked `TimeZoneID`, not a bare string (issue 62: `.zoned(tzid: "Europe/Berln")` became a
/// floating time with only a warning, and JSON with that typo decoded).
final class TimeZoneIDTests: XCTestCase {
    /// A calendar whose own VTIMEZONE defines "Office Time", with a meeting in it.
    let officeFile = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//ICSKit tests//EN\r
        BEGIN:VTIMEZONE\r
        TZID:Office Time\r
        BEGIN:STANDARD\r
        DTSTART:19700101T000000\r
        TZOFFSETFROM:+0300\r
        TZOFFSETTO:+0300\r
        END:STANDARD\r
        END:VTIMEZONE\r
        BEGIN:VEVENT\r
        UID:meeting-1\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;TZID=Office Time:20260105T090000\r
        SUMMARY:Meeting\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    func testANameIsCheckedWhereItIsMade() throws {
        XCTAssertThrowsError(try TimeZoneID("Europe/Berln"), "a misspelt zone is an error")
        XCTAssertThrowsError(try TimeZoneID(""))
        let outlook = try TimeZoneID("W. Europe Standard Time")
        XCTAssertEqual(outlook.name, "W. Europe Standard Time", "kept as written")
        XCTAssertEqual(outlook.zone?.identifier, "Europe/Berlin", "and mapped to its IANA zone")
        XCTAssertEqual(TimeZoneID(try CalendarZone("Asia/Tokyo")).name, "Asia/Tokyo")

        let calendar = ICS.read(Array(officeFile.utf8)).calendars[0]
        let office = try TimeZoneID("Office Time", definedIn: calendar)
        XCTAssertNil(office.zone, "a zone only the file defines has no IANA zone")
        XCTAssertThrowsError(try TimeZoneID("Office Tme", definedIn: calendar))
        XCTAssertEqual(try TimeZoneID("Europe/Berlin", definedIn: calendar).zone?.identifier, "Europe/Berlin")
    }

    func testADateMadeWithAZoneCarriesIt() throws {
        let berlin = try CalendarZone("Europe/Berlin")
        let nine = try CalendarDate(
            year: 2026, month: 7, day: 1, hour: 9, minute: 0, second: 0, form: .zoned(tzid: TimeZoneID(berlin)))
        XCTAssertEqual(nine.tzid, "Europe/Berlin")
        XCTAssertEqual(nine.zone, berlin)
        XCTAssertEqual(nine.date(), Date(timeIntervalSince1970: 1_782_889_200), "07:00Z, not floating")
        XCTAssertEqual(
            try CalendarDate.parse("20260701T090000", zone: TimeZoneID(berlin)).get(), nine,
            "parse takes the same checked zone")
        XCTAssertEqual(try Period.parse("20260701T090000/PT1H", zone: TimeZoneID(berlin)).get().start, nine)
    }

    func testJSONWithAMisspeltZoneDoesNotDecode() throws {
        let berlin = try CalendarDate(
            year: 2026, month: 7, day: 1, hour: 9, minute: 0, second: 0,
            form: .zoned(tzid: try TimeZoneID("Europe/Berlin")))
        let json = String(decoding: try JSONEncoder().encode(berlin), as: UTF8.self)
        XCTAssertTrue(json.contains(#""tzid":"Europe\/Berlin""#), json)
        XCTAssertEqual(try JSONDecoder().decode(CalendarDate.self, from: Data(json.utf8)), berlin)

        let typo = json.replacingOccurrences(of: "Europe\\/Berlin", with: "Europe\\/Berln")
        XCTAssertThrowsError(try JSONDecoder().decode(CalendarDate.self, from: Data(typo.utf8))) { error in
            XCTAssertTrue(error is DecodingError, "\(error)")
        }
        var calendar = ICalendar()
        calendar.wrTimeZone = try TimeZoneID("Europe/Berlin")
        let header = String(decoding: try JSONEncoder().encode(calendar), as: UTF8.self)
        XCTAssertNoThrow(try JSONDecoder().decode(ICalendar.self, from: Data(header.utf8)))
        let badHeader = header.replacingOccurrences(of: "Europe\\/Berlin", with: "Europe\\/Berln")
        XCTAssertThrowsError(try JSONDecoder().decode(ICalendar.self, from: Data(badHeader.utf8)), "X-WR-TIMEZONE")
    }

    /// A time naming a zone the calendar's own VTIMEZONE defines decodes with its calendar, and alone only when the
    /// decoder is told the name.
    func testAZoneTheCalendarDefinesDecodesWithIt() throws {
        let calendar = ICS.read(Array(officeFile.utf8)).calendars[0]
        XCTAssertEqual(calendar.events[0].start?.tzid, "Office Time")
        let json = try JSONEncoder().encode(calendar)
        let decoded = try JSONDecoder().decode(ICalendar.self, from: json)
        XCTAssertEqual(decoded.events[0].start, calendar.events[0].start)

        let event = try JSONEncoder().encode(calendar.events[0])
        XCTAssertThrowsError(try JSONDecoder().decode(Event.self, from: event), "alone, the name is unknown")
        let decoder = JSONDecoder()
        decoder.userInfo[TimeZoneID.definedNamesKey] = Set(["Office Time"])
        XCTAssertEqual(try decoder.decode(Event.self, from: event).start, calendar.events[0].start)
    }
}
