import CalendarModel
import CalendarStore
import XCTest

/// A listing from the instance index carries the properties it declares (and alarms), or whole items; declaring
/// others makes the kept lines again, so a field added to a listing is there at once.
final class ListingTests: XCTestCase {
    func testAListingCarriesWhatItDeclaresAndDeclaringMoreMakesTheLinesAgain() throws {
        let store = try CalendarStore.inMemory()
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:w@t\r\n"
            + "DTSTAMP:20260101T000000Z\r\nDTSTART:20260302T090000Z\r\nDURATION:PT1H\r\nRRULE:FREQ=WEEKLY\r\n"
            + "SUMMARY:Weekly\r\nLOCATION:Room 4\r\nDESCRIPTION:Notes\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\n"
            + "DESCRIPTION:Soon\r\nTRIGGER:-PT10M\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        _ = try store.importCalendars(ICS.read(Array(text.utf8)).calendars, into: "Work", file: "w.ics")
        var options = ExpansionOptions()
        options.viewerZone = .utc
        let (from, to) = (Date(timeIntervalSince1970: 1_772_323_200), Date(timeIntervalSince1970: 1_773_532_800))
        func listed(_ properties: Set<String>?) throws -> [Occurrence] {
            try XCTUnwrap(store.keptInstances(from: from, to: to, options: options, listed: properties))
                .calendars.flatMap(\.occurrences)
        }
        let brief = try listed(["UID", "DTSTAMP", "SUMMARY"])
        XCTAssertEqual(brief.map(\.summary), ["Weekly", "Weekly"])
        XCTAssertEqual(brief.first?.core.location, nil, "not declared")
        XCTAssertEqual(brief.first?.hasAlarms, true, "alarms always come along")
        let more = try listed(["UID", "DTSTAMP", "SUMMARY", "LOCATION"])
        XCTAssertEqual(more.first?.core.location, "Room 4", "declared now: the lines were made again")
        XCTAssertEqual(more.first?.core.description, nil)
        let whole = try listed(nil)
        XCTAssertEqual(whole.first?.core.description, "Notes")
        XCTAssertEqual(whole.map(\.startDate), brief.map(\.startDate))
    }
}
