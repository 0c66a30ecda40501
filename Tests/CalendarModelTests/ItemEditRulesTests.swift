import CalendarModel
import XCTest

/// The edit rules the model keeps: an event keeps its length when it moves, a todo's reminder counts from its due.
final class ItemEditRulesTests: XCTestCase {
    func date(_ text: String, _ tzid: String? = nil) throws -> CalendarDate {
        try CalendarDate.parse(text, tzid: tzid).get()
    }

    func testTheEndMovesWithTheStartInTheStartsForm() throws {
        var event = Event()
        event.core.start = try date("20270105T090000", "Europe/Berlin")
        event.end = try date("20270105T103000", "Europe/Berlin")
        event.setStart(try date("20270107T140000", "America/Chicago"))
        XCTAssertEqual(event.end, try date("20270107T153000", "America/Chicago"))
        event.setStart(try date("20270108T090000", "America/Chicago"), keepingDuration: false)
        XCTAssertEqual(event.end, try date("20270107T153000", "America/Chicago"))
        // A DURATION keeps the length by itself; an event without a start gets one and no end.
        var timed = Event()
        timed.duration = CalendarDuration(hours: 1)
        timed.setStart(try date("20270105"))
        XCTAssertNil(timed.end)
        XCTAssertEqual(timed.core.start, try date("20270105"))
    }

    func testAReminderIsBeforeATodosDueElseBeforeTheStart() throws {
        var todo = Todo()
        todo.due = try date("20270105T170000Z")
        let before = CalendarDuration(isNegative: true, minutes: 15)
        let dueReminder = CalendarComponent.todo(todo).reminder(displaying: "Report", before: before)
        XCTAssertEqual(
            dueReminder.trigger, .relative(CalendarDuration(isNegative: true, minutes: 15), relatedToEnd: true))
        XCTAssertEqual(dueReminder.description, "Report")
        let event = CalendarComponent.event(Event())
        // "15m" and "-15m" both mean before.
        let startReminder = event.reminder(displaying: "Tea", before: CalendarDuration(minutes: 15))
        XCTAssertEqual(
            startReminder.trigger, .relative(CalendarDuration(isNegative: true, minutes: 15), relatedToEnd: false))
        var component = CalendarComponent.todo(Todo())
        XCTAssertEqual(component.reminder(displaying: "x", before: before).trigger, startReminder.trigger)
        component.alarms = [dueReminder]
        XCTAssertEqual(component.alarms, [dueReminder])
        var journal = CalendarComponent.journal(Journal())
        journal.alarms = [dueReminder]
        XCTAssertEqual(journal.alarms, [])
    }
}
