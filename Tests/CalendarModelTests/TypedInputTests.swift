import CalendarModel
import XCTest

/// What a person types for a time, a length or an edit, read as the commands read it.
final class TypedInputTests: XCTestCase {
    let today = LocalDateTime(year: 2026, month: 11, day: 25)  // a Wednesday

    func testDatesAndTimesAsTyped() throws {
        let berlin = try XCTUnwrap(ZoneClock(identifier: "Europe/Berlin"))
        let utc = try XCTUnwrap(ZoneClock(identifier: "UTC"))
        func read(_ text: String, _ zone: ZoneClock) -> String? {
            try? TypedInput.date(text, in: zone, today: today).get().icsValue
        }
        XCTAssertEqual(read("2026-12-03", berlin), "20261203")
        XCTAssertEqual(read("2026-12-03 09:30", berlin), "20261203T093000")
        XCTAssertEqual(read("2026-12-03T09:30", berlin), "20261203T093000")
        XCTAssertEqual(read("2026-12-03 09:30", utc), "20261203T093000Z")
        XCTAssertEqual(read("tomorrow 08:00", berlin), "20261126T080000")
        XCTAssertEqual(read("friday", berlin), "20261127")
        XCTAssertEqual(read("wed", berlin), "20261125", "a weekday that is today is today")
        XCTAssertEqual(try TypedInput.date("2026-12-03 09:30", in: berlin, today: today).get().tzid, "Europe/Berlin")
        for bad in ["", "next week", "2026-13-01", "2026-12-03 25:00", "2026-12-03 9"] {
            XCTAssertNil(read(bad, berlin), bad)
        }
    }

    func testOneGrammarOfDaysAndTimes() throws {
        let now = LocalDateTime(year: 2026, month: 11, day: 25, hour: 14, minute: 20, second: 42)
        func read(_ text: String) -> String? {
            guard case .success(let moment) = TypedInput.moment(text, now: now) else { return nil }
            return moment.hasTime ? String(moment.wall.iso8601.prefix(16)) : moment.wall.isoDate
        }
        XCTAssertEqual(read("27.11.2026"), "2026-11-27")
        XCTAssertEqual(read("27.11.2026 14:00"), "2026-11-27T14:00")
        XCTAssertEqual(read("next monday"), "2026-11-30")
        XCTAssertEqual(read("next wed"), "2026-12-02", "next: never today")
        XCTAssertEqual(read("last wednesday"), "2026-11-18", "last: never today")
        XCTAssertEqual(read("last friday 18:00"), "2026-11-20T18:00")
        XCTAssertEqual(read("in 3 days"), "2026-11-28")
        XCTAssertEqual(read("in 1 week 09:00"), "2026-12-02T09:00")
        XCTAssertEqual(read("in 2w"), "2026-12-09")
        XCTAssertEqual(read("+2h"), "2026-11-25T16:20", "from now, to the minute")
        XCTAssertEqual(read("+90m"), "2026-11-25T15:50")
        XCTAssertEqual(read("09:30"), "2026-11-25T09:30")
        XCTAssertEqual(read("Tomorrow 8:05"), "2026-11-26T08:05")
        XCTAssertEqual(read("2026-12-03t09:30"), "2026-12-03T09:30")
        for bad in ["", "31.02.2026", "27.11.26", "next", "next month", "in three days", "in 2h", "last 09:00", "+2x"] {
            XCTAssertNil(read(bad), bad)
        }
    }

    func testLengthsAsTyped() {
        func seconds(_ text: String) -> Int? { try? TypedInput.duration(text).get().totalSeconds }
        XCTAssertEqual(seconds("90m"), 5400)
        XCTAssertEqual(seconds("1h30m"), 5400)
        XCTAssertEqual(seconds("2d"), 172_800)
        XCTAssertEqual(seconds("1w"), 604_800)
        XCTAssertEqual(try TypedInput.duration("-15m").get().icsValue, "-PT15M")
        for bad in ["", "0m", "15", "m", "1x", "1h30"] { XCTAssertNil(seconds(bad), bad) }
    }

    func testAnEditMovesSequenceAndTimesOn() {
        var core = ItemCore()
        core.sequence = 2
        core.recordEdit(at: Date(timeIntervalSince1970: 1_795_000_000))
        XCTAssertEqual(core.sequence, 3)
        XCTAssertEqual(core.lastModified?.icsValue, "20261118T110640Z")
        XCTAssertEqual(core.stamp, core.lastModified)
    }

    func testAnOverrideOfOneInstanceHasItsTimesAndNoRules() throws {
        let text = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:weekly@test\r\n\
            DTSTAMP:20260101T000000Z\r\nDTSTART:20261102T090000Z\r\nDTEND:20261102T100000Z\r\n\
            RRULE:FREQ=WEEKLY;COUNT=4\r\nSUMMARY:Weekly\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """
        let calendar = try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first)
        let occurrences = calendar.occurrences(
            from: Date(timeIntervalSince1970: 1_793_491_200), to: Date(timeIntervalSince1970: 1_796_083_200),
            options: ExpansionOptions()
        ).occurrences
        let second = try XCTUnwrap(occurrences.first { $0.start.icsValue == "20261109T090000Z" })
        let master = try XCTUnwrap(calendar.components.first)
        guard case .event(let override)? = master.override(at: second) else { return XCTFail("no override") }
        XCTAssertEqual(override.recurrenceID?.date.icsValue, "20261109T090000Z")
        XCTAssertEqual(override.start?.icsValue, "20261109T090000Z")
        XCTAssertEqual(override.end?.icsValue, "20261109T100000Z")
        XCTAssertTrue(override.recurrenceRules.isEmpty)
        XCTAssertEqual(override.summary, "Weekly")
    }
}
