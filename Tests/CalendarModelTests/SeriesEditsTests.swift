import CalendarModel
import XCTest

/// The edits of one instance of a series (`RecurringSeries`): "this and following" splits a series so that the two
/// parts together list what the series listed, and ending it keeps only what came before; UNTIL is written in the
/// form RFC 5545 asks of each kind of DTSTART, and COUNT is shared out.
final class SeriesEditsTests: XCTestCase {
    func calendar(_ body: String) throws -> ICalendar {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n\(body)END:VCALENDAR\r\n"
        return try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first)
    }

    func event(_ start: String, _ rule: String, extra: String = "") -> String {
        "BEGIN:VEVENT\r\nUID:s@t\r\nDTSTAMP:20260101T000000Z\r\nDTSTART\(start)\r\nRRULE:\(rule)\r\n\(extra)"
            + "SUMMARY:S\r\nEND:VEVENT\r\n"
    }

    /// The instances of a calendar over 2026–2027, floating times in Berlin.
    func occurrences(_ calendar: ICalendar) -> [Occurrence] {
        var options = ExpansionOptions()
        options.viewerZone = try! CalendarZone("Europe/Berlin")
        return calendar.occurrences(
            from: Date(timeIntervalSince1970: 1_767_225_600), to: Date(timeIntervalSince1970: 1_830_297_600),
            options: options
        ).occurrences
    }

    /// Their starts (instants) and UIDs.
    func instances(_ calendar: ICalendar) -> [(Date, String)] {
        occurrences(calendar).map { ($0.startDate, $0.uid ?? "") }
    }

    func testSplittingKeepsEveryInstanceAndEndingKeepsThoseBefore() throws {
        // DTSTART, RRULE, an EXDATE before the cut (which COUNT still counts), the instance cut at.
        let forms = [
            (
                ";TZID=Europe/Berlin:20260105T090000", "FREQ=WEEKLY;COUNT=10", ";TZID=Europe/Berlin:20260112T090000",
                "20260126T090000"
            ),
            (
                ";TZID=Europe/Berlin:20260105T090000", "FREQ=WEEKLY;UNTIL=20260401T000000Z",
                ";TZID=Europe/Berlin:20260112T090000", "20260126T090000"
            ),
            (":20260105T090000Z", "FREQ=DAILY;INTERVAL=3", ":20260108T090000Z", "20260114T090000Z"),
            (":20260105T090000", "FREQ=WEEKLY;COUNT=5", ":20260112T090000", "20260119T090000"),
            (";VALUE=DATE:20260105", "FREQ=WEEKLY;UNTIL=20260330", ";VALUE=DATE:20260112", "20260126"),
        ]
        for (start, rule, exdate, cutText) in forms {
            let original = try calendar(event(start, rule, extra: "EXDATE\(exdate)\r\n"))
            let before = instances(original)
            let cut = try XCTUnwrap(
                occurrences(original).first { $0.recurrenceID?.icsValue == cutText }, "\(rule): no instance \(cutText)")

            var series = RecurringSeries(original.components)
            let later = try XCTUnwrap(series.split(at: cut, newUID: "n@t"), rule)
            var split = original
            split.components = series.components + later.components
            let after = instances(split)
            XCTAssertEqual(after.map(\.0), before.map(\.0), "\(rule): the two parts list what the series listed")
            XCTAssertEqual(
                after.map(\.1), before.map { $0.0 < cut.startDate ? "s@t" : "n@t" }, "\(rule): cut at \(cutText)")
            // UNTIL in DTSTART's form: UTC for zoned and UTC times, floating for floating, a date for a date.
            if let until = series.master?.core?.recurrenceRules.first?.until {
                XCTAssertEqual(until.isDate, start.contains("VALUE=DATE"), rule)
                XCTAssertEqual(until.form == .utc, start.contains("TZID") || start.hasSuffix("Z"), rule)
            }

            var ended = RecurringSeries(original.components)
            XCTAssertTrue(try ended.end(before: cut))
            var shortened = original
            shortened.components = ended.components
            XCTAssertEqual(instances(shortened).map(\.0), before.map(\.0).filter { $0 < cut.startDate }, rule)
        }
    }

    func testTheFirstInstanceIsTheWholeSeriesAndOverridesGoAlong() throws {
        let original = try calendar(
            event(";TZID=Europe/Berlin:20260105T090000", "FREQ=WEEKLY;COUNT=6")
                + "BEGIN:VEVENT\r\nUID:s@t\r\nDTSTAMP:20260101T000000Z\r\n"
                + "RECURRENCE-ID;TZID=Europe/Berlin:20260126T090000\r\n"
                + "DTSTART;TZID=Europe/Berlin:20260126T110000\r\nSUMMARY:Moved\r\nEND:VEVENT\r\n")
        let all = original.occurrences(
            from: Date(timeIntervalSince1970: 1_767_225_600), to: Date(timeIntervalSince1970: 1_830_297_600)
        ).occurrences
        var series = RecurringSeries(original.components)
        XCTAssertNil(try series.split(at: all[0], newUID: "n@t"))
        XCTAssertFalse(try series.end(before: all[0]))
        XCTAssertEqual(series.components.count, 2, "nothing changed")

        let later = try XCTUnwrap(series.split(at: all[2], newUID: "n@t"))
        XCTAssertEqual(series.components.count, 1, "the override went with the later part")
        XCTAssertEqual(series.master?.core?.recurrenceRules.first?.count, 2)
        XCTAssertEqual(later.components.count, 2)
        XCTAssertEqual(later.master?.core?.recurrenceRules.first?.count, 4)
        XCTAssertEqual(later.components.last?.core?.summary, "Moved")
        XCTAssertEqual(later.components.last?.core?.uid, "n@t")
        XCTAssertNil(later.master?.core?.sequence, "a new item")

        var excluded = RecurringSeries(original.components)
        XCTAssertTrue(excluded.exclude(try XCTUnwrap(all[3].recurrenceID)))
        XCTAssertEqual(excluded.components.count, 1, "the excluded instance's override is gone")
        XCTAssertEqual(excluded.master?.core?.exceptionDates, [all[3].recurrenceID!])
    }
}
