import CalendarModel
import XCTest

/// Values an app makes in code are written as every reader takes them (issue 48's wrong-output findings).
final class LibraryValuesTests: XCTestCase {
    /// A date the calendar does not have is an error, not the day it rolls over to (issue 62: 2026-02-30 was 2 March).
    func testImpossibleDatesAndTimesThrow() {
        XCTAssertThrowsError(try CalendarDate(year: 2026, month: 2, day: 30)) { error in
            XCTAssertTrue("\(error)".contains("2026-02 has no day 30"), "\(error)")
        }
        XCTAssertThrowsError(try CalendarDate(year: 2026, month: 13, day: 1))
        XCTAssertThrowsError(try CalendarDate(year: 2026, month: 1, day: 1, hour: 24, minute: 0, second: 0, form: .utc))
        XCTAssertThrowsError(try CalendarDate(year: 2026, month: 1, day: 1, hour: 9, minute: -1, second: 0, form: .utc))
        XCTAssertNoThrow(try CalendarDate(year: 2028, month: 2, day: 29), "a leap day")
        XCTAssertNoThrow(
            try CalendarDate(year: 2026, month: 6, day: 30, hour: 23, minute: 59, second: 60, form: .utc),
            "a leap second, as RFC 5545 allows")
    }

    /// Durations compare by length: one made in code equals the same one read (issue 62), weeks equal their days,
    /// and a nominal day is not 24 exact hours.
    func testDurationsCompareByValue() throws {
        let parsed = { (text: String) in try CalendarDuration.parse(text).get() }
        XCTAssertEqual(CalendarDuration(minutes: -10), try parsed("-PT10M"))
        XCTAssertEqual(CalendarDuration(hours: 1, minutes: -10), try parsed("PT50M"))
        XCTAssertEqual(CalendarDuration(days: -1, hours: -2), try parsed("-P1DT2H"))
        XCTAssertEqual(try parsed("P1W"), try parsed("P7D"))
        XCTAssertEqual(try parsed("-PT0S"), try parsed("PT0S"))
        XCTAssertNotEqual(try parsed("P1D"), try parsed("PT24H"))
        XCTAssertNotEqual(try parsed("-PT10M"), try parsed("PT10M"))
        XCTAssertEqual(Set([CalendarDuration(minutes: -10), try parsed("-PT10M")]).count, 1, "hashing agrees")
    }

    /// A duration given with a negative part is written with one sign in front, and reads back as the same length.
    func testNegativePartsAreWrittenWithOneSign() throws {
        XCTAssertEqual(CalendarDuration(minutes: -10).icsValue, "-PT10M")
        XCTAssertEqual(CalendarDuration(hours: 1, minutes: -10).icsValue, "PT50M")
        XCTAssertEqual(CalendarDuration(isNegative: true, minutes: -10).icsValue, "PT10M")
        XCTAssertEqual(CalendarDuration(days: -1, hours: -2).icsValue, "-P1DT2H")
        XCTAssertEqual(
            CalendarDuration(isNegative: true, weeks: 1).icsValue, "-P1W", "a duration with one sign is as given")
        for duration in [
            CalendarDuration(minutes: -10), CalendarDuration(hours: 1, minutes: -10),
            CalendarDuration(days: -1, hours: -2),
        ] {
            let read = try CalendarDuration.parse(duration.icsValue).get()
            XCTAssertEqual(read.totalSeconds, duration.totalSeconds, duration.icsValue)
        }
    }

    /// An alarm "before" the start fires before it whichever sign the offset was given with, and the file it is
    /// written to reads back without a diagnostic.
    func testAnAlarmBeforeTheStartIsWrittenAsReadersTakeIt() throws {
        var event = Event()
        event.core.uid = "alarm@example.org"
        event.core.stamp = try CalendarDate.parse("20260101T000000Z", tzid: nil).get()
        event.core.start = try CalendarDate.parse("20260105T090000Z", tzid: nil).get()
        event.alarms = [
            Alarm(displaying: "Soon", before: CalendarDuration(minutes: -10)),
            Alarm(displaying: "Sooner", before: CalendarDuration(minutes: 30)),
        ]
        var calendar = ICalendar()
        calendar.version = "2.0"
        calendar.productID = "-//ICSKit tests//EN"
        calendar.components = [.event(event)]
        let text = String(decoding: ICS.write([calendar]), as: UTF8.self)
        XCTAssertTrue(text.contains("TRIGGER:-PT10M\r\n"), text)
        XCTAssertTrue(text.contains("TRIGGER:-PT30M\r\n"), text)
        let read = ICS.read(Array(text.utf8))
        XCTAssertEqual(read.diagnostics, [])
        let offsets = read.calendars.first?.events.first?.alarms.compactMap { alarm -> Int? in
            guard case .relative(let offset, _) = alarm.trigger else { return nil }
            return offset.totalSeconds
        }
        XCTAssertEqual(offsets, [-600, -1800])
    }

    /// DUE with DURATION is the same mistake in a VTODO as DTEND with DURATION in a VEVENT, and is said alike.
    func testATodoWithDueAndDurationIsAnErrorAsAnEventWithBothIs() {
        func diagnostics(_ kind: String, _ end: String) -> [String] {
            let text =
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:\(kind)\r\nUID:d@t\r\n"
                + "DTSTAMP:20260101T000000Z\r\nDTSTART:20260105T090000Z\r\n\(end):20260105T100000Z\r\n"
                + "DURATION:PT1H\r\nEND:\(kind)\r\nEND:VCALENDAR\r\n"
            return ICS.read(Array(text.utf8)).diagnostics.filter { $0.severity == .error }.map(\.description)
        }
        XCTAssertEqual(
            diagnostics("VEVENT", "DTEND"),
            ["<input>:9: error: VEVENT has both DTEND and DURATION (RFC 5545 allows one); DTEND is used"])
        XCTAssertEqual(
            diagnostics("VTODO", "DUE"),
            ["<input>:9: error: VTODO has both DUE and DURATION (RFC 5545 allows one); DUE is used"])
    }

    /// A calendar, event, todo and journal made in code are complete from the start: the file they make reads back
    /// with no diagnostic at all, and marking the todo done says so as `icskit done` does.
    func testNewItemsAreValidByConstruction() throws {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let start = try CalendarDate.parse("20260105T090000", tzid: "Europe/Berlin").get()
        var todo = Todo(summary: "Write report", due: start, now: now)
        todo.markCompleted(at: now + 60)
        var calendar = ICalendar()
        calendar.components = [
            .event(Event(summary: "Standup", start: start, now: now)), .todo(todo),
            .journal(Journal(summary: "Notes", uid: "notes@example.org", now: now)),
        ]
        let text = String(decoding: ICS.write([calendar]), as: UTF8.self)
        for line in [
            "VERSION:2.0", "PRODID:\(ICS.productID)", "DTSTAMP:20260921T141320Z", "UID:notes@example.org",
            "STATUS:COMPLETED", "COMPLETED:20260921T141420Z", "PERCENT-COMPLETE:100", "SEQUENCE:1",
        ] {
            XCTAssertTrue(text.contains(line + "\r\n"), "\(line) in\n\(text)")
        }
        XCTAssertEqual(text.components(separatedBy: "UID:").count - 1, 3, text)
        let read = ICS.read(Array(text.utf8))
        XCTAssertEqual(read.diagnostics.filter { !$0.message.contains("Europe/Berlin") }, [], text)
        XCTAssertEqual(read.calendars.first?.todos.first?.isCompleted, true)
        XCTAssertNotEqual(
            read.calendars.first?.events.first?.core.uid, Event(summary: "Other", start: start).core.uid,
            "each new item has its own UID")
    }
}

/// Editing a calendar in place: the README's loop changes the calendar, not a copy.
final class CalendarEditingTests: XCTestCase {
    func testItemsAreChangedWhereTheyStand() throws {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
            + "BEGIN:VEVENT\r\nUID:a@t\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260105T090000Z\r\nSUMMARY:Standup\r\n"
            + "END:VEVENT\r\nBEGIN:VEVENT\r\nUID:b@t\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260105T100000Z\r\n"
            + "SUMMARY:Review\r\nX-ODD;Y=1:kept as read\r\nEND:VEVENT\r\nBEGIN:VTODO\r\nUID:c@t\r\n"
            + "DTSTAMP:20260101T000000Z\r\nSUMMARY:Report\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        var calendar = try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first)
        calendar.updateEvents { event in
            guard event.summary == "Standup" else { return }
            event.location = "Room 4"
        }
        calendar.updateTodos { $0.markCompleted(at: Date(timeIntervalSince1970: 1_790_000_000)) }
        let written = String(decoding: ICS.write([calendar]), as: UTF8.self)
        XCTAssertTrue(written.contains("LOCATION:Room 4\r\n"), written)
        XCTAssertTrue(written.contains("STATUS:COMPLETED\r\n"), written)
        XCTAssertTrue(
            written.contains("SUMMARY:Review\r\nX-ODD;Y=1:kept as read\r\nEND:VEVENT"), "untouched: as read\n\(written)"
        )

        XCTAssertEqual(calendar[uid: "b@t"]?.core?.summary, "Review")
        calendar[uid: "b@t"] = nil
        XCTAssertNil(calendar[uid: "b@t"])
        calendar[uid: "d@t"] = .journal(Journal(summary: "Notes", uid: "d@t"))
        XCTAssertEqual(calendar.components.compactMap(\.kind), [.event, .todo, .journal])
    }
}
