import CalendarModel
import CalendarStore
import XCTest

/// A listing through the instance index carries whole items: every property and the alarms, as they were read.
final class InstanceIndexTests: XCTestCase {
    func testAListingCarriesWholeItems() throws {
        let store = try CalendarStore.inMemory()
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:w@t\r\n"
            + "DTSTAMP:20260101T000000Z\r\nDTSTART:20260302T090000Z\r\nDURATION:PT1H\r\nRRULE:FREQ=WEEKLY\r\n"
            + "SUMMARY:Weekly\r\nLOCATION:Room 4\r\nDESCRIPTION:Notes\r\nX-ODD;Y=1:kept\r\nBEGIN:VALARM\r\n"
            + "ACTION:DISPLAY\r\nDESCRIPTION:Soon\r\nTRIGGER:-PT10M\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        _ = try store.importCalendars(ICS.read(Array(text.utf8)).calendars, into: "Work", file: "w.ics")
        var options = ExpansionOptions()
        options.viewerZone = .utc
        let query = InstanceQuery(
            from: Date(timeIntervalSince1970: 1_772_323_200), to: Date(timeIntervalSince1970: 1_773_532_800),
            options: options)
        let listed = try XCTUnwrap(store.indexedInstances(query)).calendars.flatMap(\.occurrences)
        XCTAssertEqual(listed.map(\.summary), ["Weekly", "Weekly"])
        XCTAssertEqual(listed.first?.core.location, "Room 4")
        XCTAssertEqual(listed.first?.core.description, "Notes")
        XCTAssertEqual(listed.first?.hasAlarms, true)
        guard case .event(let event)? = listed.first?.item else { return XCTFail("not an event: \(listed)") }
        XCTAssertEqual(event.otherProperties.map(\.name), ["X-ODD"], "what the model does not know comes along")
        // A second listing of the unchanged store reads the kept months and gives the same.
        let again = try XCTUnwrap(store.indexedInstances(query)).calendars.flatMap(\.occurrences)
        XCTAssertEqual(again.map(\.startDate), listed.map(\.startDate))
    }
}
