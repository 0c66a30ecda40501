import CalendarModel
import Foundation
import XCTest

/// Model values as an app's own JSON, `validate()` and diagnostic codes (issue 48: nothing was Codable, diagnostics
/// were text only, and checking a calendar made in code meant writing and reading it by hand).
final class ModelCodingTests: XCTestCase {
    /// Real exports of Google, Apple, Outlook and hand-written todos, each through JSON and back: the same values,
    /// and the same iCalendar written from them.
    func testRealCalendarsSurviveJSON() throws {
        let files = [
            "demo/work.ics", "demo/family.ics", "hand/tasks.ics", "corpus-copies/apple-icloud.ics",
            "corpus-copies/outlook-2010.ics", "corpus-copies/google-issue52.ics",
        ]
        for file in files {
            let read = try ICS.read(contentsOf: Paths.fixture(file))
            let calendar = try XCTUnwrap(read.calendars.first, file)
            let json = try JSONEncoder().encode(calendar)
            let decoded = try JSONDecoder().decode(ICalendar.self, from: json)
            XCTAssertEqual(decoded, calendar, file)
            XCTAssertEqual(decoded.events, calendar.events, file)
            XCTAssertEqual(decoded.todos, calendar.todos, file)
            let rewritten = try XCTUnwrap(ICS.read(ICS.write([decoded])).calendars.first, file)
            XCTAssertEqual(rewritten.events, calendar.events, file)
            XCTAssertEqual(rewritten.todos, calendar.todos, file)
        }
    }

    /// The JSON is the app's: field names, tokens and rules as strings, a date as its parts and form.
    func testTheJSONIsReadable() throws {
        var todo = Todo(
            summary: "Report", due: try CalendarDate(year: 2026, month: 12, day: 1), uid: "r@t",
            now: Date(timeIntervalSince1970: 1_767_225_600))
        todo.core.status = .needsAction
        todo.core.categories = [Category("Work", color: "#3366FF")]
        todo.core.recurrenceRules = [try RecurrenceRule.parse("FREQ=WEEKLY;BYDAY=MO").get()]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(todo), as: UTF8.self)
        XCTAssertTrue(json.contains(#""status":"NEEDS-ACTION""#), json)
        XCTAssertTrue(json.contains(#""recurrenceRules":["FREQ=WEEKLY;BYDAY=MO"]"#), json)
        XCTAssertTrue(json.contains(##""categories":[{"color":"#3366FF","name":"Work"}]"##), json)
        XCTAssertTrue(json.contains(#""summary":"Report""#), json)
        XCTAssertEqual(try JSONDecoder().decode(Todo.self, from: Data(json.utf8)), todo)
        XCTAssertThrowsError(
            try JSONDecoder().decode(RecurrenceRule.self, from: Data(#""FREQ=FORTNIGHTLY""#.utf8)),
            "a rule that is no rule is a decoding error")
    }

    /// A calendar made in code validates clean; one with mistakes gives the diagnostics `icskit validate` gives,
    /// with codes to filter on.
    func testValidateGivesCodedDiagnostics() throws {
        var calendar = ICalendar()
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        calendar.components = [
            .event(
                Event(summary: "Standup", start: CalendarDate(now, in: try CalendarZone("Europe/Berlin")), now: now)),
            .todo(Todo(summary: "Report", due: try CalendarDate(year: 2026, month: 12, day: 1), now: now)),
            .journal(Journal(summary: "Notes", date: try CalendarDate(year: 2026, month: 1, day: 1), now: now)),
        ]
        XCTAssertEqual(calendar.validate(), [])

        var broken = Todo(summary: "Both", due: try CalendarDate(year: 2026, month: 12, day: 1), now: now)
        broken.duration = CalendarDuration(hours: 1)
        broken.core.priority = 12
        var bare = Event()
        bare.core.summary = "No UID"
        calendar.components += [.todo(broken), .event(bare)]
        let found = calendar.validate()
        XCTAssertEqual(
            Set(found.map(\.code)),
            ["due-and-duration", "priority-out-of-range", "missing-uid", "missing-dtstamp", "missing-dtstart"],
            found.map(\.description).joined(separator: "\n"))
        XCTAssertEqual(found.first { $0.code == "missing-uid" }?.severity, .error)
    }

    /// docs/DIAGNOSTICS.md lists every code the sources give, and no code they do not.
    func testEveryDiagnosticCodeIsDocumented() throws {
        let documented = try String(
            contentsOf: Paths.package.appendingPathComponent("docs/DIAGNOSTICS.md"), encoding: .utf8
        ).matches(of: /^\| `([a-z0-9-]+)` \|/.anchorsMatchLineEndings()).map { String($0.1) }
        var given: Set<String> = []
        let sources = Paths.package.appendingPathComponent("Sources")
        let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            given.formUnion(text.matches(of: /code: "([a-z0-9-]+)"/).map { String($0.1) })
        }
        XCTAssertGreaterThan(given.count, 100)
        XCTAssertEqual(Set(documented).subtracting(given), [], "documented but no longer given")
        XCTAssertEqual(given.subtracting(documented), [], "given but not in docs/DIAGNOSTICS.md")
        XCTAssertEqual(documented.count, Set(documented).count, "each code once")
    }
}
