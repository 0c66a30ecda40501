import CalendarModel
import Foundation
import XCTest

/// Real calendars, round 3 (issue 50): classes of lost data found in calendars other programs wrote, each on a
/// hand-written fixture in the shape of the real ones.
final class RealCalendarsRound3Tests: XCTestCase {
    func read() throws -> ICS.ReadResult { try ICS.read(contentsOf: Paths.fixture("hand/round3-names-and-joins.ics")) }

    /// Class 1: Lotus Notes writes `X-LOTUS-CHILD_UID`. The line is kept with a warning and written back as read;
    /// `--repair` renames it to an X- name strict readers take; what no reader takes for a name still goes.
    func testANameWithAnUnderscoreIsKeptAndWrittenBackAsRead() throws {
        let read = try read()
        let event = try XCTUnwrap(read.calendars.first?.events.first)
        XCTAssertEqual(
            event.otherProperties.first { $0.name == "X-LOTUS-CHILD_UID" }?.value, "567EFBAF6CBD07FC0025875100566D3B")
        XCTAssertEqual(read.diagnostics.filter { $0.code == "unusual-property-name" }.map(\.line), [10])
        XCTAssertFalse(read.hasErrors, read.diagnostics.map(\.description).joined(separator: "\n"))
        let written = String(decoding: ICS.write(read.calendars), as: UTF8.self)
        XCTAssertTrue(written.contains("\r\nX-LOTUS-CHILD_UID:567EFBAF6CBD07FC0025875100566D3B\r\n"), written)

        let repaired = try XCTUnwrap(read.calendars.first).repairedForPeers()
        XCTAssertEqual(
            repaired.calendar.events.first?.otherProperties.first { $0.name == "X-LOTUS-CHILD-UID" }?.value,
            "567EFBAF6CBD07FC0025875100566D3B")
        XCTAssertTrue(repaired.diagnostics.contains { $0.code == "repair-property-name" && $0.line == 10 })

        let junk = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:j\r\n@example.net'\":x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let dropped = ICS.read(Array(junk.utf8))
        XCTAssertEqual(dropped.calendars.first?.events.first?.otherProperties, [])
        XCTAssertTrue(dropped.diagnostics.contains { $0.code == "not-a-content-line" })
    }

    /// Class 7 (first half): a single-valued property given twice keeps its first value; `--repair` keeps the
    /// second as an X- property (it was left out), with a warning.
    func testASecondLocationIsKeptAsAnXProperty() throws {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:two@example.org\r\n"
            + "DTSTAMP:20260101T000000Z\r\nDTSTART:20260105T090000Z\r\nLOCATION:Room 4\r\nLOCATION:Online\r\n"
            + "SUMMARY:Review\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let calendar = try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first)
        XCTAssertEqual(calendar.events.first?.location, "Room 4")
        let repaired = calendar.repairedForPeers()
        let event = try XCTUnwrap(repaired.calendar.events.first)
        XCTAssertEqual(event.location, "Room 4")
        XCTAssertEqual(event.otherProperties.first { $0.name == "X-LOCATION" }?.value, "Online")
        XCTAssertTrue(repaired.diagnostics.contains { $0.code == "repair-repeated-property" && $0.line == 9 })
        XCTAssertEqual(ICS.read(ICS.write([repaired.calendar])).diagnostics, [], "strict readers take it")
    }

    /// Class 5: several RRULEs in one event (servers keep one) become one series a rule under `--repair`, with the
    /// same instances, the overrides with the series that has their instance.
    func testSeveralRulesBecomeOneSeriesEach() throws {
        let calendar = try XCTUnwrap(
            ICS.read(contentsOf: Paths.fixture("apps/outlook-several-rrules.ics")).calendars.first)
        let repaired = calendar.repairedForPeers()
        XCTAssertTrue(repaired.calendar.events.allSatisfy { $0.recurrenceRules.count <= 1 })
        XCTAssertEqual(repaired.diagnostics.filter { $0.code == "repair-rules-split" }.count, 2)
        var options = ExpansionOptions()
        options.viewerZone = .utc
        func instances(_ calendar: ICalendar) -> [String] {
            calendar.occurrences(
                from: Date(timeIntervalSince1970: 1_764_547_200), to: Date(timeIntervalSince1970: 1_798_761_600),
                options: options
            ).occurrences.map { "\($0.startDate) \($0.summary ?? "")" }.sorted()
        }
        XCTAssertEqual(instances(repaired.calendar), instances(calendar))
        XCTAssertGreaterThan(instances(calendar).count, 10)
        let moved = repaired.calendar.events.first { $0.recurrenceID != nil }
        XCTAssertEqual(moved?.uid, "gym@example.org-rule2", "the override goes with the series of its instance")
    }

    /// A VTIMEZONE ICSKit does not use (its STANDARD has no TZOFFSETTO) is left out by `--repair` when its TZID
    /// names a zone: the times are then read by that name everywhere, as ICSKit read them before.
    func testAnUnusedVTimezoneIsLeftOutAndTheTimesStay() throws {
        let calendar = try XCTUnwrap(
            ICS.read(contentsOf: Paths.fixture("apps/outlook-observance-offset.ics")).calendars.first)
        let repaired = calendar.repairedForPeers()
        XCTAssertEqual(repaired.calendar.timeZones.count, 0)
        XCTAssertTrue(repaired.diagnostics.contains { $0.code == "repair-vtimezone-unused" })
        let window = (Date(timeIntervalSince1970: 1_767_225_600), Date(timeIntervalSince1970: 1_772_323_200))
        XCTAssertEqual(
            repaired.calendar.occurrences(from: window.0, to: window.1).occurrences.map(\.startDate),
            calendar.occurrences(from: window.0, to: window.1).occurrences.map(\.startDate))
        XCTAssertEqual(calendar.occurrences(from: window.0, to: window.1).occurrences.count, 1)
    }

    /// Class 2: a DESCRIPTION continues on a line that lost its fold; the joined line's escapes are decoded like
    /// the rest of the value (its `\n` was written `\\n` before).
    func testEscapesInAJoinedLineAreDecoded() throws {
        let read = try read()
        let event = try XCTUnwrap(read.calendars.first?.events.first)
        XCTAssertEqual(
            event.description, "1. Staff meeting at 9\n\n2. Call with ACME: pricing\nand contracts, then lunch")
        XCTAssertTrue(read.diagnostics.contains { $0.code == "unescaped-newline" && $0.line == 13 })
        let again = try XCTUnwrap(ICS.read(ICS.write(read.calendars)).calendars.first?.events.first)
        XCTAssertEqual(again.description, event.description)
        XCTAssertEqual(again.location, "Room 4")
    }

    /// Class 4: a rule in another calendar scale that never ends is written as RDATEs up to the end of the tenth
    /// year after this one, and the warning names that span; inside it every instance is the one ICSKit read.
    func testAnEndlessRuleInAnotherScaleBecomesRDatesForANamedSpan() throws {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:cny@example.org\r\n"
            + "DTSTAMP:20260101T000000Z\r\nDTSTART;VALUE=DATE:20260217\r\nRRULE:RSCALE=CHINESE;FREQ=YEARLY\r\n"
            + "EXDATE;VALUE=DATE:20270207\r\nSUMMARY:Lunar new year\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let calendar = try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first)
        let repaired = calendar.repairedForPeers()
        let event = try XCTUnwrap(repaired.calendar.events.first)
        XCTAssertEqual(event.recurrenceRules, [])
        let lastYear = Calendar(identifier: .gregorian).component(.year, from: Date()) + 10
        let warning = try XCTUnwrap(repaired.diagnostics.first { $0.code == "repair-rscale-rdates" })
        XCTAssertTrue(warning.message.contains("from 20260217 to \(lastYear)"), warning.message)
        XCTAssertTrue(warning.message.hasSuffix("readers show none after that"), warning.message)
        var options = ExpansionOptions()
        options.viewerZone = .utc
        let span = (
            Date(timeIntervalSince1970: 1_767_225_600),
            try XCTUnwrap(
                DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: .gmt, year: lastYear + 1).date)
        )
        func starts(_ calendar: ICalendar) -> [Date] {
            calendar.occurrences(from: span.0, to: span.1, options: options).occurrences.map(\.startDate)
        }
        XCTAssertEqual(starts(repaired.calendar), starts(calendar))
        XCTAssertEqual(starts(calendar).count, lastYear - 2026, "one a year from 2026, less the one excluded")
    }

    /// Class 6, the UTC form: in a series of UTC times an EXDATE given in a zone becomes the same instant in UTC,
    /// and a VTIMEZONE property keeps the LANGUAGE RFC 5545 gives TZNAME (class 9 leaves out only what it does
    /// not take).
    func testAnExceptionInAZoneTakesAUTCStartsForm() throws {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VTIMEZONE\r\nTZID:Harbour\r\n"
            + "BEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0100\r\n"
            + "TZNAME;LANGUAGE=en:HBT\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:u@example.org\r\n"
            + "DTSTAMP:20260101T000000Z\r\nDTSTART:20260105T080000Z\r\nRRULE:FREQ=DAILY;COUNT=3\r\n"
            + "EXDATE;TZID=Europe/Berlin:20260106T090000\r\nSUMMARY:Daily\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let calendar = try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first)
        let repaired = calendar.repairedForPeers()
        let written = String(decoding: ICS.write([repaired.calendar]), as: UTF8.self)
        XCTAssertTrue(written.contains("\r\nEXDATE:20260106T080000Z\r\n"), written)
        XCTAssertTrue(written.contains("\r\nTZNAME;LANGUAGE=en:HBT\r\n"), written)
        XCTAssertEqual(repaired.diagnostics.map(\.code), ["repair-exception-form"])
        XCTAssertEqual(repaired.calendar.occurrences(from: .distantPast, to: .distantFuture).occurrences.count, 2)
    }
}
