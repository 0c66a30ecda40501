import CalendarModel
import XCTest

/// Category colours travel in files as one documented property (`CategoryColor`): written from the items'
/// categories, filled into them on reading, a file written back unchanged byte for byte.
final class CategoryColorTests: XCTestCase {
    let start = try! CalendarDate.parse("20260105T090000Z", tzid: nil).get()

    func testAColourSetInCodeIsWrittenAndReadBack() throws {
        var event = Event(summary: "Review", start: start, uid: "c1@example.org")
        event.core.categories = [Category("Work", color: "#3366FF"), "Errands"]
        var todo = Todo(summary: "Plan", uid: "c2@example.org")
        todo.core.categories = ["work"]
        var calendar = ICalendar()
        calendar.components = [.event(event), .todo(todo)]
        let text = String(decoding: ICS.write([calendar]), as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "X-ICSKIT-CATEGORY-COLOR").count - 1, 1, text)
        XCTAssertTrue(text.contains("X-ICSKIT-CATEGORY-COLOR;X-CATEGORY=Work:#3366FF\r\n"), text)
        XCTAssertTrue(text.contains("CATEGORIES:Work,Errands\r\n"), "the item's own line is plain: \(text)")

        let read = try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first)
        XCTAssertEqual(read.events.first?.core.categories.map(\.color), ["#3366FF", nil])
        XCTAssertEqual(read.todos.first?.core.categories.map(\.color), ["#3366FF"], "names compared without case")
        XCTAssertEqual(String(decoding: ICS.write([read]), as: UTF8.self), text, "unchanged: written as read")
    }

    func testAColourChangedInCodeReplacesTheOneRead() throws {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
            + "X-ICSKIT-CATEGORY-COLOR;X-CATEGORY=Home:#00AA00\r\nX-ICSKIT-CATEGORY-COLOR;X-CATEGORY=Gym:#FF0000\r\n"
            + "BEGIN:VEVENT\r\nUID:h@t\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260105T090000Z\r\nCATEGORIES:Home\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        var calendar = try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first)
        guard case .event(var event) = calendar.components[0] else { return XCTFail("an event") }
        XCTAssertEqual(event.core.categories.first?.color, "#00AA00")
        event.core.categories[0].color = "#0000FF"
        calendar.components[0] = .event(event)
        let written = String(decoding: ICS.write([calendar]), as: UTF8.self)
        XCTAssertTrue(written.contains("X-ICSKIT-CATEGORY-COLOR;X-CATEGORY=Home:#0000FF\r\n"), written)
        XCTAssertFalse(written.contains("#00AA00"), written)
        XCTAssertTrue(written.contains("X-ICSKIT-CATEGORY-COLOR;X-CATEGORY=Gym:#FF0000\r\n"), "others kept: \(written)")
        XCTAssertEqual(ICS.read(Array(written.utf8)).diagnostics, [])
    }
}
