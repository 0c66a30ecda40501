import CalendarModel
import XCTest

/// The typed model: what it reads, and how a changed component is written.
final class ModelTests: XCTestCase {
    func testTodosJournalsAlarmsAndCalendarProperties() throws {
        let calendar = try XCTUnwrap(readFixture("hand/tasks.ics").calendars.first)
        XCTAssertEqual(calendar.displayName, "Chores")
        XCTAssertEqual(calendar.color, "teal")
        let (parent, child) = (calendar.todos[0], calendar.todos[1])
        XCTAssertEqual(
            parent.due,
            try CalendarDate(
                year: 2024, month: 1, day: 12, hour: 17, minute: 0, second: 0,
                form: .zoned(tzid: try TimeZoneID("Europe/Berlin"))))
        XCTAssertEqual(parent.priority, 1)
        XCTAssertEqual(parent.status, .inProcess)
        XCTAssertEqual(parent.percentComplete, 40)
        XCTAssertEqual(parent.categories, ["Home"])
        XCTAssertEqual(parent.color, "crimson")
        XCTAssertEqual(
            parent.alarms.first?.trigger, .relative(CalendarDuration(isNegative: true, hours: 2), relatedToEnd: true))
        XCTAssertEqual(parent.alarms.first?.action, .display)
        XCTAssertTrue(child.isCompleted)
        XCTAssertEqual(child.due, try CalendarDate(year: 2024, month: 1, day: 11))
        XCTAssertEqual(child.relatedTo.first?.uid, "parent@example.com")
        XCTAssertEqual(child.relatedTo.first?.type, "PARENT")
        XCTAssertEqual(calendar.journals.first?.description, "Boxes: 12\nTape: 3 rolls")
        XCTAssertEqual(calendar.components.map(\.name), ["VTODO", "VTODO", "VJOURNAL", "VAVAILABILITY"])
    }

    func testCategoriesKeepEscapedCommasThroughAChange() throws {
        var calendar = try XCTUnwrap(readFixture("hand/categories-escaped.ics").calendars.first)
        var event = calendar.events[0]
        XCTAssertEqual(event.categories.map(\.name), ["Research, Development", "Travel", "Family"])
        event.summary = "Changed summary"
        calendar.components[0] = .event(event)
        let written = text(ICS.write([calendar]))
        XCTAssertTrue(written.contains("SUMMARY:Changed summary\r\n"))
        // The unchanged CATEGORIES lines stay as they were (not split, escapes intact) …
        XCTAssertTrue(written.contains("CATEGORIES:Research\\, Development,Travel\r\nCATEGORIES:Family\r\n"), written)
        // … unknown properties and their parameters survive …
        XCTAssertTrue(written.contains("X-APPLE-TRAVEL-ADVISORY-BEHAVIOR;X-CUSTOM=\"a:b\":AUTOMATIC\r\n"))
        XCTAssertTrue(written.contains("ATTENDEE;CN=\"Doe, John\";X-NUM-GUESTS=0:mailto:john@example.com\r\n"))
        // … and changed categories are written canonically, escaped.
        event.categories.append("A,B")
        calendar.components[0] = .event(event)
        let reread = ICS.read(ICS.write([calendar])).calendars[0].events[0]
        XCTAssertEqual(reread.categories.map(\.name), ["Research, Development", "Travel", "Family", "A,B"])
    }

    func testUnchangedComponentsAreWrittenAsReadAndChangedOnesCanonically() throws {
        let source =
            "BEGIN:VCALENDAR\nversion:2.0\nPRODID:x\nBEGIN:VEVENT\nUID:a\nDTSTAMP:20240101T000000Z\n"
            + "DTSTART:20240102T090000Z\nSUMMARY;LANGUAGE=de:Essen\nX-FOO;Y=1:bar\nEND:VEVENT\nBEGIN:VEVENT\n"
            + "UID:b\nDTSTAMP:20240101T000000Z\nDTSTART:20240103T090000Z\nsummary:lower case\nEND:VEVENT\n"
            + "END:VCALENDAR\n"
        var calendar = ICS.read(Array(source.utf8)).calendars[0]
        var second = calendar.events[1]
        second.start = try CalendarDate(
            year: 2024, month: 1, day: 4, hour: 8, minute: 30, second: 0,
            form: .zoned(tzid: try TimeZoneID("Europe/Berlin")))
        calendar.components[1] = .event(second)
        let lines = unfoldedLines(ICS.write([calendar]))
        XCTAssertEqual(
            Array(lines[0...9]),
            [
                "BEGIN:VCALENDAR", "version:2.0", "PRODID:x", "BEGIN:VEVENT", "UID:a",
                "DTSTAMP:20240101T000000Z", "DTSTART:20240102T090000Z",
                "SUMMARY;LANGUAGE=de:Essen", "X-FOO;Y=1:bar", "END:VEVENT",
            ])
        XCTAssertTrue(lines.contains("DTSTART;TZID=Europe/Berlin:20240104T083000"))
        XCTAssertTrue(lines.contains("summary:lower case"), "an unchanged field keeps its line in a changed event")
    }

    func testNewEventIsWrittenFromScratch() {
        var event = Event()
        event.uid = "new@example.com"
        event.stamp = try! CalendarDate(year: 2024, month: 1, day: 1, hour: 0, minute: 0, second: 0, form: .utc)
        event.start = try! CalendarDate(year: 2024, month: 3, day: 1)
        event.summary = "Semicolons; commas, and\nnewlines"
        event.categories = ["Work", "Deep, focus"]
        event.attendees = [CalendarUser(address: "mailto:a@example.com", commonName: "Doe; Jane")]
        event.alarms = [Alarm(displaying: "Soon", before: CalendarDuration(minutes: 15))]
        var rule = RecurrenceRule(frequency: .weekly)
        rule.byDay = [.init(.monday), .init(.friday, ordinal: -1)]
        rule.count = 4
        event.recurrenceRules = [rule]
        var calendar = ICalendar()
        calendar.productID = "-//ICSKit tests//EN"
        calendar.version = "2.0"
        calendar.components = [.event(event)]
        let lines = unfoldedLines(ICS.write([calendar]))
        XCTAssertTrue(lines.contains("DTSTART;VALUE=DATE:20240301"))
        XCTAssertTrue(lines.contains("SUMMARY:Semicolons\\; commas\\, and\\nnewlines"))
        XCTAssertTrue(lines.contains("CATEGORIES:Work,Deep\\, focus"))
        XCTAssertTrue(lines.contains("ATTENDEE;CN=\"Doe; Jane\":mailto:a@example.com"))
        XCTAssertTrue(lines.contains("RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=MO,-1FR"))
        XCTAssertTrue(lines.contains("TRIGGER:-PT15M"))
        let reread = ICS.read(ICS.write([calendar]))
        XCTAssertEqual(reread.calendars[0].events[0], event)
        XCTAssertEqual(reread.messages(.error), [])
    }

    func testRecurrenceRuleWritesBackAsRead() throws {
        for text in [
            "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "BYDAY=MO,WE;FREQ=WEEKLY;WKST=SU;INTERVAL=2",
            "FREQ=MONTHLY;BYSETPOS=-1;BYDAY=MO,TU,WE,TH,FR;UNTIL=20251231",
            "FREQ=YEARLY;RSCALE=GREGORIAN;SKIP=FORWARD;BYMONTHDAY=29;BYMONTH=2",
        ] {
            XCTAssertEqual(try RecurrenceRule.parse(text).get().icsValue, text)
        }
        let rule = try RecurrenceRule.parse("FREQ=MONTHLY;BYDAY=2MO,-1FR;COUNT=3").get()
        XCTAssertEqual(rule.frequency, .monthly)
        XCTAssertEqual(rule.byDay, [.init(.monday, ordinal: 2), .init(.friday, ordinal: -1)])
        XCTAssertEqual(rule.count, 3)
        XCTAssertThrowsError(try RecurrenceRule.parse("FREQ=DAILY;COUNT=2;UNTIL=20240101").get())
        XCTAssertThrowsError(try RecurrenceRule.parse("FREQ=DAILY;UNTIL=20123456T123456").get())
    }

    /// Parsed rules are remembered by their text: asked again, and past the memory's bound, each text reads as it
    /// did the first time, refusals included.
    func testRememberedRulesReadAsTheFirstTime() throws {
        let refused = RecurrenceRule.parse("FREQ=DAILY;COUNT=2;COUNT=3")
        XCTAssertEqual(RecurrenceRule.parse("FREQ=DAILY;COUNT=2;COUNT=3"), refused)
        XCTAssertThrowsError(try refused.get())
        for round in 0..<2 {
            for count in 1...5_000 {
                let rule = try RecurrenceRule.parse("FREQ=WEEKLY;BYDAY=MO;COUNT=\(count)").get()
                XCTAssertEqual(rule.count, count, "round \(round)")
            }
        }
        XCTAssertEqual(RecurrenceRule.parse("FREQ=DAILY;COUNT=2;COUNT=3"), refused)
    }

    func testFoldingNeverSplitsACharacter() {
        var event = Event()
        event.uid = "fold"
        event.summary = String(repeating: "Grüße 🎉 ", count: 30)
        var calendar = ICalendar()
        calendar.components = [.event(event)]
        let bytes = ICS.write([calendar])
        for line in bytes.split(separator: 0x0A) {
            XCTAssertLessThanOrEqual(line.count, 76, "75 octets plus CR")
            XCTAssertNotNil(String(validating: line, as: UTF8.self))
        }
        XCTAssertEqual(ICS.read(bytes).calendars[0].events[0].summary, event.summary)
    }

    func testParameterQuotingAndCaretEscapes() {
        var property = Property(
            "ATTENDEE",
            parameters: [
                Parameter("CN", "Smith, \"Bob\"\nJr"),
                Parameter("MEMBER", ["mailto:a@x", "mailto:b@x"]),
            ],
            value: "mailto:bob@x")
        XCTAssertEqual(
            property.contentLine,
            "ATTENDEE;CN=\"Smith, ^'Bob^'^nJr\";MEMBER=\"mailto:a@x\",\"mailto:b@x\":"
                + "mailto:bob@x")
        property.setParameter("CN", "Plain")
        XCTAssertEqual(property["CN"], "Plain")
        let reread = ICS.read(Array("BEGIN:VCALENDAR\r\nX-P;CN=\"Smith, ^'Bob^'^nJr\":v\r\nEND:VCALENDAR\r\n".utf8))
        XCTAssertEqual(reread.calendars[0].otherProperties[0]["CN"], "Smith, \"Bob\"\nJr")
    }
}
