import CalendarModel
import XCTest

/// One typed encoding of the kinds of item: words and component names both read, the raw value is the name files
/// and the store write, and expansion takes kinds, not strings (a lower-case name used to give nothing).
final class ItemKindTests: XCTestCase {
    func testWordsAndNamesAreRead() {
        XCTAssertEqual(ItemKind(word: "events"), .event)
        XCTAssertEqual(ItemKind(word: "VTODO"), .todo)
        XCTAssertEqual(ItemKind(word: "task"), .todo)
        XCTAssertEqual(ItemKind(word: "Journals"), .journal)
        XCTAssertNil(ItemKind(word: "alarm"))
        XCTAssertNil(ItemKind(word: "s"))
        XCTAssertEqual(ItemKind(componentName: "vevent"), .event)
        XCTAssertNil(ItemKind(componentName: "VTIMEZONE"))
        XCTAssertEqual(ItemKind.allCases.map(\.word), ["event", "todo", "journal"])
        XCTAssertEqual(ItemKind.allCases.sorted(by: >).first, .journal)
    }

    func testComponentsAndOccurrencesSayTheirKind() throws {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VTODO\r\nUID:k@t\r\nDTSTAMP:20260101T000000Z\r\n"
            + "DTSTART:20260105T090000Z\r\nSUMMARY:T\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let calendar = try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first)
        XCTAssertEqual(calendar.components.compactMap(\.kind), [.todo])
        var options = ExpansionOptions()
        let from = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
        XCTAssertTrue(calendar.occurrences(from: from, to: from + 86_400 * 30, options: options).occurrences.isEmpty)
        options.components = [.todo]
        let occurrences = calendar.occurrences(from: from, to: from + 86_400 * 30, options: options).occurrences
        XCTAssertEqual(occurrences.map(\.kind), [.todo])
    }
}
