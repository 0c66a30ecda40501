import CalendarModel
import Foundation
import XCTest

/// `ICalendar.editSeries`: one instance, this and following, or all, named by an instant in any spelling; SEQUENCE,
/// DTSTAMP and LAST-MODIFIED as RFC 5546 asks; and the RECURRENCE-ID subscript, which no longer misses an override
/// spelt in another zone or adds one for a time the series does not have (issue 62).
final class SeriesEditingTests: XCTestCase {
    static let text = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:standup\r
        DTSTAMP:20261001T000000Z\r
        SEQUENCE:2\r
        DTSTART;TZID=Europe/Berlin:20261102T093000\r
        DTEND;TZID=Europe/Berlin:20261102T094500\r
        SUMMARY:Standup\r
        RRULE:FREQ=WEEKLY;COUNT=6\r
        EXDATE;TZID=Europe/Berlin:20261130T093000\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:standup\r
        DTSTAMP:20261001T000000Z\r
        SEQUENCE:2\r
        RECURRENCE-ID;TZID=Europe/Berlin:20261109T093000\r
        DTSTART;TZID=Europe/Berlin:20261109T100000\r
        DTEND;TZID=Europe/Berlin:20261109T101500\r
        SUMMARY:Standup (late)\r
        END:VEVENT\r
        END:VCALENDAR\r

        """
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let berlin = try! CalendarZone("Europe/Berlin")

    func calendar() throws -> ICalendar { try XCTUnwrap(ICS.read(Array(Self.text.utf8)).calendars.first) }

    /// An instant by Berlin's clock in November 2026 (UTC+1).
    func at(_ day: Int, _ hour: Int, _ minute: Int) -> Date {
        var parts = DateComponents(year: 2026, month: 11, day: day, hour: hour, minute: minute)
        parts.timeZone = berlin.timeZone
        return Calendar(identifier: .gregorian).date(from: parts)!
    }

    /// Each instance's start and title, by Berlin's clock.
    func instances(_ calendar: ICalendar) -> [String] {
        var options = ExpansionOptions()
        options.viewerZone = berlin
        return calendar.occurrences(from: at(1, 0, 0), to: at(1, 0, 0) + 60 * 86_400, options: options).occurrences
            .map { "\(CalendarDate($0.startDate, in: berlin).icsValue) \($0.summary ?? "")" }
    }

    func testOneInstanceNamedByAnySpellingOfItsInstant() throws {
        var calendar = try calendar()
        try calendar.editSeries(uid: "standup", instance: at(16, 9, 30), scope: .thisInstance, now: now) { item in
            item.core?.location = "Room 4"
        }
        let override = try XCTUnwrap(calendar[uid: "standup", recurrenceID: "20261116T083000Z"])
        XCTAssertEqual(override.core?.location, "Room 4")
        XCTAssertEqual(override.core?.sequence, 3, "raised past the series' 2")
        XCTAssertEqual(override.core?.lastModified, CalendarDate.utc(now))
        XCTAssertEqual(override.core?.stamp, CalendarDate.utc(now))
        XCTAssertEqual(override.core?.recurrenceID?.date.tzid, "Europe/Berlin", "spelt as DTSTART is")
        let count = calendar.components.count
        // The same instant again, and the override the file already had: edited in place, never doubled.
        try calendar.editSeries(uid: "standup", instance: at(16, 9, 30), scope: .thisInstance, now: now) { item in
            item.core?.summary = "Standup, room 4"
        }
        try calendar.editSeries(uid: "standup", instance: at(9, 9, 30), scope: .thisInstance, now: now) { item in
            item.core?.location = "Kitchen"
        }
        XCTAssertEqual(calendar.components.count, count)
        XCTAssertEqual(calendar[uid: "standup", recurrenceID: "20261109T083000Z"]?.core?.location, "Kitchen")
        XCTAssertEqual(calendar[uid: "standup", recurrenceID: "20261109T083000Z"]?.core?.summary, "Standup (late)")
        XCTAssertEqual(calendar[uid: "standup"]?.core?.sequence, 2, "the series itself is not changed")
    }

    func testAnInstantThatNamesNoInstanceIsAnErrorAndChangesNothing() throws {
        var calendar = try calendar()
        let before = calendar
        for instant in [at(16, 10, 30), at(30, 9, 30), at(14, 9, 30)] {  // wrong hour, an EXDATE, not a Monday
            XCTAssertThrowsError(
                try calendar.editSeries(uid: "standup", instance: instant, scope: .thisInstance) { _ in }
            ) { error in
                XCTAssertEqual(error as? SeriesEditError, .noInstance(uid: "standup", at: instant))
            }
        }
        XCTAssertThrowsError(
            try calendar.editSeries(uid: "nope", instance: at(16, 9, 30), scope: .allInstances) { _ in })
        XCTAssertEqual(calendar, before)
        // The subscript adds nothing for a key that names no instance, and finds the override in UTC.
        calendar[uid: "standup", recurrenceID: "20261116T093000Z"] = calendar[uid: "standup"]
        XCTAssertEqual(calendar, before)
        var moved = try XCTUnwrap(calendar[uid: "standup", recurrenceID: "20261109T083000Z"])
        moved.core?.location = "Hall"
        calendar[uid: "standup", recurrenceID: "20261109T083000Z"] = moved
        XCTAssertEqual(calendar.components.count, before.components.count, "replaced, not added")
    }

    func testThisAndFollowingStartsANewSeriesAtTheInstance() throws {
        var calendar = try calendar()
        let newUID = try calendar.editSeries(
            uid: "standup", instance: at(16, 9, 30), scope: .thisAndFollowing, newUID: "standup-2", now: now
        ) { item in
            item.core?.summary = "Standup (new room)"
        }
        XCTAssertEqual(newUID, "standup-2")
        XCTAssertEqual(
            instances(calendar),
            [
                "20261102T093000 Standup", "20261109T100000 Standup (late)", "20261116T093000 Standup (new room)",
                "20261123T093000 Standup (new room)", "20261207T093000 Standup (new room)",
            ])
        XCTAssertEqual(calendar[uid: "standup"]?.core?.sequence, 3, "the cut series is raised")
        XCTAssertEqual(calendar[uid: "standup-2"]?.core?.sequence, nil, "the new series starts at 0")
        XCTAssertEqual(calendar[uid: "standup-2"]?.core?.lastModified, CalendarDate.utc(now))
        // At the first instance, "this and following" is the whole series.
        var whole = try self.calendar()
        XCTAssertNil(
            try whole.editSeries(uid: "standup", instance: at(2, 9, 30), scope: .thisAndFollowing) { item in
                item.core?.summary = "Daily"
            })
        XCTAssertEqual(whole[uid: "standup"]?.core?.summary, "Daily")
    }

    func testAllInstancesMovesOverridesAndExceptionsWithTheStart() throws {
        var calendar = try calendar()
        try calendar.editSeries(uid: "standup", instance: at(23, 9, 30), scope: .allInstances, now: now) { item in
            guard case .event(var event) = item else { return }
            event.core.start = try! CalendarDate(
                year: 2026, month: 11, day: 2, hour: 10, minute: 0, second: 0,
                form: .zoned(tzid: try TimeZoneID("Europe/Berlin")))
            event.end = try! CalendarDate(
                year: 2026, month: 11, day: 2, hour: 10, minute: 15, second: 0,
                form: .zoned(tzid: try TimeZoneID("Europe/Berlin")))
            item = .event(event)
        }
        XCTAssertEqual(
            instances(calendar),
            [
                "20261102T100000 Standup", "20261109T100000 Standup (late)", "20261116T100000 Standup",
                "20261123T100000 Standup", "20261207T100000 Standup",
            ], "the override still replaces its instance, the EXDATE still removes one")
        XCTAssertEqual(calendar[uid: "standup"]?.core?.sequence, 3)
        XCTAssertEqual(calendar[uid: "standup", recurrenceID: "20261109T090000Z"]?.core?.summary, "Standup (late)")
    }
}
