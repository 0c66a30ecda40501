import CalendarModel
import ICSKitTestSupport
import XCTest

@testable import CalendarStore

/// The listed fields kept beside instances (`ListedItem`): what they keep reads back as the item had it, on real
/// items of every kind; bytes they did not write are refused, never read past.
final class ListedItemTests: XCTestCase {
    /// Events, todos and journals from real exports and hand-written cases: kind, UID, summary, place, status,
    /// colour, categories, organizer and attendees with every parameter, RECURRENCE-ID with its range, COMPLETED,
    /// whether there are alarms.
    func testListedFieldsReadBackAsTheItemHasThem() throws {
        var items: [Occurrence.Item] = []
        for file in [
            "corpus-copies/google-issue52.ics", "corpus-copies/outlook-2010.ics", "corpus-copies/apple-icloud.ics",
            "hand/recurring-todos.ics", "demo/work.ics",
        ] {
            let text = try String(contentsOfFile: TestEnvironment.fixture(file), encoding: .utf8)
            for component in ICS.read(Array(text.utf8)).calendars.flatMap(\.components) {
                switch component {
                case .event(let event): items.append(.event(event))
                case .todo(let todo): items.append(.todo(todo))
                case .journal(let journal): items.append(.journal(journal))
                default: break
                }
            }
        }
        var todo = Todo()
        todo.core.uid = "täsk-1"
        todo.core.summary = "Ünïcode, \"quotes\";\n and a line break"
        todo.core.status = .completed
        todo.completed = CalendarDate(wall: LocalDateTime(wallSeconds: -86_400 * 400), form: .utc)
        todo.core.categories = [Category("Home", color: "#00ff00"), Category("")]
        todo.core.recurrenceID = RecurrenceID(
            CalendarDate(wall: LocalDateTime(wallSeconds: 1_800_000_000), form: .zoned(tzid: "Europe/Berlin")),
            thisAndFuture: true)
        todo.alarms = [Alarm(displaying: "soon", before: Duration(minutes: 5))]
        var attendee = CalendarUser(address: "mailto:ana@example.org", commonName: "Ana")
        attendee.parameters.append(Parameter("PARTSTAT", "DECLINED"))
        attendee.parameters.append(Parameter("DELEGATED-TO", ["mailto:a@x", "mailto:b@y"]))
        todo.core.attendees = [attendee]
        todo.core.organizer = CalendarUser(address: "mailto:boss@example.org")
        var journal = Journal()
        journal.core.uid = "j"
        items += [.todo(todo), .journal(journal)]
        XCTAssertGreaterThan(items.count, 20)
        for item in items {
            let bytes = ListedItem.encode(item)
            let read = try XCTUnwrap(bytes.withUnsafeBytes(ListedItem.decode), "\(item.core.uid ?? "")")
            let (core, kept) = (item.core, read.item.core)
            XCTAssertEqual(read.item.componentName, item.componentName)
            XCTAssertEqual(kept.uid, core.uid)
            XCTAssertEqual(kept.summary, core.summary)
            XCTAssertEqual(kept.location, core.location)
            XCTAssertEqual(kept.status, core.status)
            XCTAssertEqual(kept.color, core.color)
            XCTAssertEqual(kept.categories, core.categories)
            XCTAssertEqual(kept.organizer, core.organizer)
            XCTAssertEqual(kept.attendees, core.attendees)
            XCTAssertEqual(kept.recurrenceID, core.recurrenceID)
            switch (item, read.item) {
            case (.event(let event), _): XCTAssertEqual(read.hasAlarms, !event.alarms.isEmpty)
            case (.todo(let original), .todo(let listed)):
                XCTAssertEqual(listed.completed, original.completed)
                XCTAssertEqual(listed.isCompleted, original.isCompleted)
                XCTAssertEqual(read.hasAlarms, !original.alarms.isEmpty)
            case (.journal, _): XCTAssertFalse(read.hasAlarms)
            default: XCTFail("\(item.componentName) read back as \(read.item.componentName)")
            }
        }
    }

    /// Bytes cut short, grown, of another version or of random noise are refused (nil), not read past their end.
    func testBytesItDidNotWriteAreRefused() {
        var todo = Todo()
        todo.core.uid = "u"
        todo.core.summary = "Summary"
        todo.core.attendees = [CalendarUser(address: "mailto:a@x", commonName: "A")]
        let bytes = ListedItem.encode(.todo(todo))
        for length in 0..<bytes.count {
            XCTAssertNil(Array(bytes.prefix(length)).withUnsafeBytes(ListedItem.decode), "cut at \(length)")
        }
        XCTAssertNil((bytes + [0]).withUnsafeBytes(ListedItem.decode))
        XCTAssertNil(([2] + bytes.dropFirst()).withUnsafeBytes(ListedItem.decode))
        var (random, _, count) = SeededGenerator.start(
            "listed item noise", seedVariable: "ICSKIT_NOISE_SEED", countVariable: "ICSKIT_NOISE_COUNT",
            defaultCount: 2_000, unit: "inputs")
        for _ in 0..<count {
            let noise = (0..<Int.random(in: 0..<64, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            _ = ([1] + noise).withUnsafeBytes(ListedItem.decode)
        }
    }
}
