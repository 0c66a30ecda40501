import CalendarModel
import Foundation
import XCTest

/// Time zones and recurrence as users meet them.
final class TimeBehaviourTests: XCTestCase {
    let iso = ISO8601DateFormatter()

    func instants(_ source: String, from: String, to: String, configure: (inout ExpansionOptions) -> Void = { _ in })
        -> (starts: [String], expansion: Expansion)
    {
        let calendar = ICS.read(Array(source.utf8)).calendars[0]
        var options = ExpansionOptions()
        configure(&options)
        let expansion = calendar.occurrences(from: iso.date(from: from)!, to: iso.date(from: to)!, options: options)
        return (expansion.occurrences.map { "\($0.uid ?? "") \(iso.string(from: $0.startDate))" }, expansion)
    }

    static func calendar(_ events: String) -> String {
        "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:test\n" + events + "END:VCALENDAR\n"
    }

    func testDSTGapsAndOverlaps() {
        let source = Self.calendar(
            """
            BEGIN:VEVENT\nUID:gap\nDTSTAMP:20260101T000000Z\nDTSTART;TZID=Europe/Berlin:20260329T023000
            DTEND;TZID=Europe/Berlin:20260329T033000\nEND:VEVENT
            BEGIN:VEVENT\nUID:overlap\nDTSTAMP:20260101T000000Z\nDTSTART;TZID=Europe/Berlin:20261025T023000
            DURATION:PT1H\nEND:VEVENT
            BEGIN:VEVENT\nUID:daily\nDTSTAMP:20260101T000000Z\nDTSTART;TZID=Europe/Berlin:20260327T090000
            DURATION:PT1H\nRRULE:FREQ=DAILY;COUNT=4\nEND:VEVENT

            """)
        let (starts, expansion) = instants(source, from: "2026-03-01T00:00:00Z", to: "2026-11-01T00:00:00Z")
        XCTAssertEqual(
            starts,
            [
                "daily 2026-03-27T08:00:00Z", "daily 2026-03-28T08:00:00Z",
                // 02:30 does not exist on 29 March: read with the offset before the gap (+01:00), i.e. 03:30 CEST.
                "gap 2026-03-29T01:30:00Z",
                // The daily 09:00 stays at 09:00 local after the change: 07:00 UTC.
                "daily 2026-03-29T07:00:00Z", "daily 2026-03-30T07:00:00Z",
                // 02:30 happens twice on 25 October: the first one (CEST) is meant.
                "overlap 2026-10-25T00:30:00Z",
            ])
        let gap = expansion.occurrences.first { $0.uid == "gap" }!
        XCTAssertEqual(ZoneClock(identifier: "Europe/Berlin")!.iso8601(gap.startDate), "2026-03-29T03:30:00+02:00")
        XCTAssertEqual(gap.endDate.timeIntervalSince(gap.startDate), 0, "03:30 local is both the shifted start and end")
    }

    /// An HOURLY series from 02:30 on the night 02:30 does not exist: its first two wall times, 02:30 and 03:30, are
    /// one instant (01:30Z). RFC 5545's recurrence set is a set of start times, so an EXDATE at 02:30 takes that
    /// instant out, and an override of 03:30 (the same instant) goes with it (docs/DEVIATIONS.md,
    /// `gap-exdate-instant`; python-dateutil excludes the wall time 02:30 alone).
    func testAnEXDATEInADSTGapExcludesItsInstant() {
        let source = Self.calendar(
            """
            BEGIN:VEVENT\nUID:hourly\nDTSTAMP:20260101T000000Z\nDTSTART;TZID=Europe/Berlin:20250330T023000
            DURATION:PT30M\nRRULE:FREQ=HOURLY;COUNT=4\nEXDATE;TZID=Europe/Berlin:20250330T023000\nEND:VEVENT
            BEGIN:VEVENT\nUID:hourly\nDTSTAMP:20260101T000000Z\nRECURRENCE-ID;TZID=Europe/Berlin:20250330T033000
            DTSTART;TZID=Europe/Berlin:20250331T033000\nDURATION:PT30M\nEND:VEVENT

            """)
        let (starts, _) = instants(source, from: "2025-03-29T00:00:00Z", to: "2025-04-02T00:00:00Z")
        XCTAssertEqual(starts, ["hourly 2025-03-30T02:30:00Z", "hourly 2025-03-30T03:30:00Z"])
        let (kept, _) = instants(
            source.replacingOccurrences(of: "EXDATE;TZID=Europe/Berlin:20250330T023000\n", with: ""),
            from: "2025-03-29T00:00:00Z", to: "2025-04-02T00:00:00Z")
        XCTAssertEqual(
            kept, ["hourly 2025-03-30T02:30:00Z", "hourly 2025-03-30T03:30:00Z", "hourly 2025-03-31T01:30:00Z"],
            "without the EXDATE the one instant at 01:30Z is the override's, moved to the next day")
    }

    func testWindowsAndOutlookZoneNamesGiveTheRightInstants() throws {
        let result = try readFixture("hand/windows-zone-names.ics")
        let expansion = result.calendars[0].occurrences(
            from: iso.date(from: "2026-01-01T00:00:00Z")!,
            to: iso.date(from: "2027-01-01T00:00:00Z")!)
        let byUID = Dictionary(
            uniqueKeysWithValues: expansion.occurrences.map { ($0.uid!, iso.string(from: $0.startDate)) })
        XCTAssertEqual(byUID["windows-id@example.com"], "2026-07-10T07:00:00Z", "W. Europe = Europe/Berlin, summer")
        XCTAssertEqual(byUID["display-name@example.com"], "2026-01-15T08:00:00Z", "(UTC+01:00) Amsterdam… in winter")
        XCTAssertEqual(byUID["eastern@example.com"], "2026-11-01T05:30:00Z", "01:30 EDT, the first of the two")
        XCTAssertEqual(byUID["unknown@example.com"], "2026-01-15T09:00:00Z", "unknown zone: floating, viewer in UTC")
        let messages = expansion.diagnostics.map(\.message)
        XCTAssertTrue(
            messages.contains {
                $0.contains(
                    "\"W. Europe Standard Time\" is a Windows time-zone name; read as "
                        + "Europe/Berlin")
            }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.contains("an Outlook time-zone display name; read as Europe/Berlin") })
        XCTAssertTrue(messages.contains { $0.contains("\"Customized Time Zone\" names no time zone known here") })
    }

    func testEveryOutlookSpellingOfEasternTimeMaps() throws {
        // Outlook versions write "&" or "and", with or without the offset (UTC or GMT), the parameter quoted or not.
        let spellings = [
            #"TZID="(UTC-05:00) Eastern Time (US & Canada)""#, #"TZID="(UTC-05:00) Eastern Time (US and Canada)""#,
            #"TZID="(GMT-05:00) Eastern Time (US and Canada)""#, #"TZID="Eastern Time (US and Canada)""#,
            "TZID=Eastern Time (US and Canada)", #"TZID="(UTC-05:00)  Eastern Time (US AND Canada)""#,
        ]
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
        for (index, parameter) in spellings.enumerated() {
            text +=
                "BEGIN:VEVENT\r\nUID:e\(index)\r\nDTSTAMP:20260101T000000Z\r\n"
                + "DTSTART;\(parameter):20260710T090000\r\nEND:VEVENT\r\n"
        }
        let result = ICS.read(Array((text + "END:VCALENDAR\r\n").utf8))
        let expansion = result.calendars[0].occurrences(
            from: iso.date(from: "2026-07-01T00:00:00Z")!, to: iso.date(from: "2026-08-01T00:00:00Z")!)
        XCTAssertEqual(expansion.occurrences.count, spellings.count)
        for occurrence in expansion.occurrences {
            XCTAssertEqual(
                iso.string(from: occurrence.startDate), "2026-07-10T13:00:00Z",
                "\(spellings[Int(occurrence.uid!.dropFirst())!]): 09:00 EDT")
        }
        XCTAssertFalse(expansion.diagnostics.contains { $0.message.contains("floating") }, "\(expansion.diagnostics)")
    }

    func testAnAllDaySeriesWithAUTCUntilEndsOnItsLastDayInTheCalendarsZone() throws {
        func days(_ header: String) -> (days: [String], notes: [String]) {
            let text =
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + header + "BEGIN:VEVENT\r\nUID:a\r\n"
                + "DTSTAMP:20240101T000000Z\r\nDTSTART;VALUE=DATE:20240129\r\nDTEND;VALUE=DATE:20240130\r\n"
                + "RRULE:FREQ=DAILY;UNTIL=20240131T230000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            let calendar = ICS.read(Array(text.utf8), file: "until.ics").calendars[0]
            let expansion = calendar.occurrences(
                from: iso.date(from: "2024-01-01T00:00:00Z")!, to: iso.date(from: "2024-03-01T00:00:00Z")!)
            return (expansion.occurrences.map { LocalDateTime($0.start).isoDate }, expansion.diagnostics.map(\.message))
        }
        // Exchange's way for a calendar in Berlin: 23:00 UTC on the 31st is the 1st of February there.
        let berlin = days("X-WR-TIMEZONE:Europe/Berlin\r\n")
        XCTAssertEqual(berlin.days, ["2024-01-29", "2024-01-30", "2024-01-31", "2024-02-01"])
        XCTAssertTrue(
            berlin.notes.contains {
                $0.contains("its last day is read in the calendar's zone Europe/Berlin: 2024-02-01")
            }, "\(berlin.notes)")
        let vtimezone = days(
            "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\n"
                + "TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nEND:STANDARD\r\n"
                + "BEGIN:DAYLIGHT\r\nDTSTART:19700329T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n"
                + "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n")
        XCTAssertEqual(vtimezone.days.last, "2024-02-01")
        // With no zone to read it in, UNTIL's UTC date ends it.
        XCTAssertEqual(days("").days, ["2024-01-29", "2024-01-30", "2024-01-31"])
    }

    func testADamagedRRULEIsRecoveredWithAWarningAndAWrongOneStaysAnError() throws {
        func read(_ rule: String) -> ICS.ReadResult {
            ICS.read(
                Array(
                    ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:a\r\n"
                        + "DTSTAMP:20260101T000000Z\r\nDTSTART:20260105T090000Z\r\nRRULE:\(rule)\r\nEND:VEVENT\r\n"
                        + "END:VCALENDAR\r\n").utf8), file: "rule.ics")
        }
        let window = (iso.date(from: "2026-01-01T00:00:00Z")!, iso.date(from: "2026-03-01T00:00:00Z")!)
        // Seen in a real export: the property name repeated, then a part with no '='.
        let damaged = read("RRULE:AnythingRandom;FREQ=WEEKLY;COUNT=3;X-NOTE=kept;BYWHATEVER")
        XCTAssertEqual(damaged.diagnostics.map(\.severity), [.warning], "\(damaged.diagnostics)")
        XCTAssertEqual(damaged.diagnostics.first?.line, 8)
        XCTAssertTrue(
            damaged.diagnostics.first?.message.contains(#"leaving out "RRULE:", "AnythingRandom", "BYWHATEVER""#)
                == true,
            "\(damaged.diagnostics)")
        XCTAssertEqual(damaged.calendars[0].occurrences(from: window.0, to: window.1).occurrences.count, 3)
        // Written back unchanged: the line is the file's.
        XCTAssertTrue(
            String(decoding: ICS.write(damaged.calendars), as: UTF8.self).contains(
                "RRULE:RRULE:AnythingRandom;FREQ=WEEKLY;COUNT=3;X-NOTE=kept;BYWHATEVER\r\n"))
        // Separators escaped as text are: the rule is read without the backslashes, with a warning.
        let escaped = ICS.read(
            Array(
                ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:b\r\n"
                    + "DTSTAMP:20240101T000000Z\r\nDTSTART:20240108T090000Z\r\n"
                    + "RRULE:FREQ=WEEKLY\\;COUNT=3\\;BYDAY=MO\\,WE\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").utf8),
            file: "escaped.ics")
        XCTAssertEqual(escaped.diagnostics.map(\.severity), [.warning], "\(escaped.diagnostics)")
        XCTAssertTrue(
            escaped.diagnostics.first?.message.contains("read as FREQ=WEEKLY;COUNT=3;BYDAY=MO,WE") == true,
            "\(escaped.diagnostics)")
        let instances = escaped.calendars[0].occurrences(
            from: iso.date(from: "2024-01-01T00:00:00Z")!, to: iso.date(from: "2024-03-01T00:00:00Z")!
        ).occurrences.map { iso.string(from: $0.startDate) }
        XCTAssertEqual(instances, ["2024-01-08T09:00:00Z", "2024-01-10T09:00:00Z", "2024-01-15T09:00:00Z"])
        // A rule that is wrong rather than damaged is not guessed at.
        for wrong in ["FREQ=SOMETIMES;COUNT=3", "COUNT=3", "FREQ=WEEKLY;COUNT=3;UNTIL=20260301T000000Z"] {
            let result = read(wrong)
            XCTAssertEqual(result.diagnostics.map(\.severity), [.error], "\(wrong): \(result.diagnostics)")
            XCTAssertEqual(result.calendars[0].occurrences(from: window.0, to: window.1).occurrences.count, 1, wrong)
        }
    }

    func testOutlookExportWithItsOwnVTIMEZONE() throws {
        let calendar = try readFixture("corpus-copies/outlook-2010.ics").calendars[0]
        let occurrences = calendar.occurrences(
            from: iso.date(from: "2013-06-01T00:00:00Z")!,
            to: iso.date(from: "2013-07-01T00:00:00Z")!
        ).occurrences
        XCTAssertEqual(
            occurrences.map { iso.string(from: $0.startDate) }, ["2013-06-10T16:00:00Z"],
            "12:00 in the file's Eastern Standard Time VTIMEZONE, daylight time in June")
    }

    func testGoogleXWRTimezoneMatchesTheXWRTimezoneTool() throws {
        let calendar = try readFixture("hand/google-x-wr-timezone.ics").calendars[0]
        let expected = try String(
            contentsOfFile: Paths.fixture("hand/google-x-wr-timezone.expected.txt"), encoding: .utf8
        )
        .split(separator: "\n").map(String.init)
        var options = ExpansionOptions()
        options.viewerZone = try CalendarZone("Europe/Berlin")
        let occurrences = calendar.occurrences(
            from: iso.date(from: "2026-02-28T23:00:00Z")!,
            to: iso.date(from: "2026-04-30T22:00:00Z")!, options: options
        ).occurrences
        let ours = occurrences.map { occurrence in
            "\(occurrence.uid!) "
                + (occurrence.isAllDay
                    ? LocalDateTime(occurrence.start).isoDate
                    : iso.string(from: occurrence.startDate))
        }.sorted()
        XCTAssertEqual(ours, expected)
        // Without X-WR-TIMEZONE the UTC series stays at 09:00 UTC after the clocks change.
        options.applyWRTimeZone = false
        let plain = calendar.occurrences(
            from: iso.date(from: "2026-04-16T00:00:00Z")!,
            to: iso.date(from: "2026-04-18T00:00:00Z")!, options: options
        ).occurrences
        XCTAssertEqual(plain.map { iso.string(from: $0.startDate) }, ["2026-04-17T09:00:00Z"])
    }

    /// X-WR-TIMEZONE resolved into an event as read rewrites only the lines of the times it moves, where they stood:
    /// every other line (an X- property, a line whose value does not parse, an alarm) is written as read and in its
    /// place, and a zoned time that does not move keeps its line too. An event changed in code before is written
    /// canonically, as any changed model.
    func testResolvingXWRTimezoneRewritesOnlyTheMovedLines() throws {
        let source = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:test\r\nX-WR-TIMEZONE:Europe/Berlin\r\nBEGIN:VEVENT\r
            UID:moved@example.com\r\nX-ORDER:first\r\nDTSTART:20260310T080000Z\r\nsummary:Stand-up\r
            EXDATE:20260317T080000Z\r\nEXDATE:not-a-date\r\nRRULE:FREQ=WEEKLY;COUNT=4\r\nDTEND:20260310T083000Z\r
            DTSTAMP:20260101T000000Z\r\nRDATE;TZID=Europe/Berlin:20260401T090000\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r
            TRIGGER:-PT5M\r\nDESCRIPTION:Soon\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """
        let read = ICS.read(Array(source.utf8)).calendars[0]
        let resolved = read.resolvingWRTimeZone()
        let written = String(decoding: ICS.write(components: [resolved.components[0].component]), as: UTF8.self)
        XCTAssertEqual(
            written,
            "BEGIN:VEVENT\r\nUID:moved@example.com\r\nX-ORDER:first\r\nDTSTART;TZID=Europe/Berlin:20260310T090000\r\n"
                + "summary:Stand-up\r\nEXDATE;TZID=Europe/Berlin:20260317T090000\r\nEXDATE:not-a-date\r\n"
                + "RRULE:FREQ=WEEKLY;COUNT=4\r\nDTEND;TZID=Europe/Berlin:20260310T093000\r\n"
                + "DTSTAMP:20260101T000000Z\r\nRDATE;TZID=Europe/Berlin:20260401T090000\r\nBEGIN:VALARM\r\n"
                + "ACTION:DISPLAY\r\nTRIGGER:-PT5M\r\nDESCRIPTION:Soon\r\nEND:VALARM\r\nEND:VEVENT\r\n")
        guard case .event(let event) = resolved.components[0] else { return XCTFail("an event") }
        XCTAssertEqual(event.start?.icsValue, "20260310T090000")
        XCTAssertEqual(event.start?.tzid, "Europe/Berlin")
        XCTAssertEqual(resolved.components[0].line, 5)
        // Read again, the rewritten event is the resolved model.
        let reread = ICS.read(
            Array(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:test\r\n" + written + "END:VCALENDAR\r\n").utf8))
        guard case .event(let again) = reread.calendars[0].components[0] else { return XCTFail("an event") }
        XCTAssertEqual(again.start, event.start)
        XCTAssertEqual(again.end, event.end)
        XCTAssertEqual(again.exceptionDates, event.exceptionDates)

        // Changed in code first: written canonically (DTSTAMP before DTSTART, the summary's name upper-cased).
        var edited = read
        guard case .event(var changed) = edited.components[0] else { return XCTFail("an event") }
        changed.summary = "Stand-up (edited)"
        edited.components[0] = .event(changed)
        let canonical = String(
            decoding: ICS.write(components: [edited.resolvingWRTimeZone().components[0].component]), as: UTF8.self)
        XCTAssertTrue(canonical.contains("SUMMARY:Stand-up (edited)\r\n"), canonical)
        XCTAssertTrue(canonical.contains("DTSTART;TZID=Europe/Berlin:20260310T090000\r\n"), canonical)
        XCTAssertFalse(canonical.contains("X-ORDER:first\r\nDTSTART"), canonical)
    }

    func testAMovedInstanceAppearsOnce() {
        let source = Self.calendar(
            """
            BEGIN:VEVENT\nUID:weekly\nDTSTAMP:20260101T000000Z\nDTSTART;TZID=Europe/Berlin:20261102T100000
            DURATION:PT1H\nRRULE:FREQ=WEEKLY;COUNT=8\nSUMMARY:Weekly\nEND:VEVENT
            BEGIN:VEVENT\nUID:weekly\nDTSTAMP:20260101T000000Z\nRECURRENCE-ID;TZID=Europe/Berlin:20261109T100000
            DTSTART;TZID=Europe/Berlin:20261111T150000\nDURATION:PT1H\nSUMMARY:Moved within the window\nEND:VEVENT
            BEGIN:VEVENT\nUID:weekly\nDTSTAMP:20260101T000000Z\nRECURRENCE-ID;TZID=Europe/Berlin:20261116T100000
            DTSTART;TZID=Europe/Berlin:20261201T100000\nDURATION:PT1H\nSUMMARY:Moved out of it\nEND:VEVENT
            BEGIN:VEVENT\nUID:weekly\nDTSTAMP:20260101T000000Z\nRECURRENCE-ID;TZID=Europe/Berlin:20261221T100000
            DTSTART;TZID=Europe/Berlin:20261118T080000\nDURATION:PT1H\nSUMMARY:Moved into it\nEND:VEVENT

            """)
        let (_, expansion) = instants(source, from: "2026-11-01T00:00:00Z", to: "2026-11-22T00:00:00Z")
        XCTAssertEqual(
            expansion.occurrences.map { "\($0.summary!) \(iso.string(from: $0.startDate))" },
            [
                "Weekly 2026-11-02T09:00:00Z",
                "Moved within the window 2026-11-11T14:00:00Z",
                "Moved into it 2026-11-18T07:00:00Z",
            ])
        XCTAssertEqual(expansion.occurrences[1].recurrenceID?.icsValue, "20261109T100000")
    }

    /// One UID is one item: of several versions the newest is placed (a higher SEQUENCE, else a later DTSTAMP,
    /// as `icskit import` keeps it), of equal ones the first (as recurring-ical-events does); overrides of one
    /// instance likewise.
    func testOfSeveralVersionsOfAnItemTheNewestThenTheFirstIsPlaced() {
        func event(
            _ uid: String, _ stamp: String, _ sequence: Int, _ start: String, _ summary: String, rid: String = ""
        )
            -> String
        {
            "BEGIN:VEVENT\nUID:\(uid)\nDTSTAMP:\(stamp)\nSEQUENCE:\(sequence)\n"
                + (rid.isEmpty ? "RRULE:FREQ=DAILY;COUNT=2\n" : "RECURRENCE-ID:\(rid)\n")
                + "DTSTART:\(start)\nSUMMARY:\(summary)\nEND:VEVENT\n"
        }
        let source = Self.calendar(
            event("equal", "20260101T000000Z", 0, "20260105T090000Z", "First of equals")
                + event("equal", "20260101T000000Z", 0, "20260105T100000Z", "Second of equals")
                + event("sequence", "20260101T000000Z", 2, "20260106T090000Z", "Higher SEQUENCE")
                + event("sequence", "20260301T000000Z", 1, "20260106T100000Z", "Later DTSTAMP, lower SEQUENCE")
                + event("stamp", "20260101T000000Z", 0, "20260107T090000Z", "Earlier DTSTAMP")
                + event("stamp", "20260102T000000Z", 0, "20260107T100000Z", "Later DTSTAMP")
                + event("equal", "20260101T000000Z", 0, "20260106T120000Z", "Moved first", rid: "20260106T090000Z")
                + event("equal", "20260101T000000Z", 0, "20260106T130000Z", "Moved second", rid: "20260106T090000Z"))
        let (_, expansion) = instants(source, from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
        XCTAssertEqual(
            expansion.occurrences.map { "\($0.summary!) \(iso.string(from: $0.startDate))" },
            [
                "First of equals 2026-01-05T09:00:00Z", "Higher SEQUENCE 2026-01-06T09:00:00Z",
                "Moved first 2026-01-06T12:00:00Z", "Higher SEQUENCE 2026-01-07T09:00:00Z",
                "Later DTSTAMP 2026-01-07T10:00:00Z", "Later DTSTAMP 2026-01-08T10:00:00Z",
            ])
    }

    func testThisAndFutureMovesTheRestOfTheSeries() {
        let source = Self.calendar(
            """
            BEGIN:VEVENT\nUID:s\nDTSTAMP:20260101T000000Z\nDTSTART:20260105T090000\nDURATION:PT1H
            RRULE:FREQ=WEEKLY;COUNT=4\nSUMMARY:Old time\nEND:VEVENT
            BEGIN:VEVENT\nUID:s\nDTSTAMP:20260101T000000Z\nRECURRENCE-ID;RANGE=THISANDFUTURE:20260112T090000
            DTSTART:20260112T140000\nDURATION:PT2H\nSUMMARY:New time\nEND:VEVENT

            """)
        let (_, expansion) = instants(source, from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
        XCTAssertEqual(
            expansion.occurrences.map { "\($0.summary!) \(LocalDateTime($0.start)) \(LocalDateTime($0.end))" },
            [
                "Old time 20260105T090000 20260105T100000", "New time 20260112T140000 20260112T160000",
                "New time 20260119T140000 20260119T160000", "New time 20260126T140000 20260126T160000",
            ])
    }

    func testAnUnboundedSecondlyRuleStopsAtTheLimitWithAWarning() {
        let source = Self.calendar(
            """
            BEGIN:VEVENT\nUID:flood\nDTSTAMP:20260101T000000Z\nDTSTART:20260101T000000Z\nRRULE:FREQ=SECONDLY
            END:VEVENT

            """)
        let (starts, expansion) = instants(source, from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z") {
            $0.limitPerSeries = 5000
        }
        XCTAssertEqual(starts.count, 5000)
        XCTAssertEqual(starts.last, "flood 2026-01-01T01:23:19Z")
        XCTAssertTrue(expansion.diagnostics.contains { $0.message.contains("made more than 5000 instances") })
    }

    func testRDateExDateAndDTStartOutsideTheRule() {
        let source = Self.calendar(
            """
            BEGIN:VEVENT\nUID:r\nDTSTAMP:20260101T000000Z\nDTSTART;VALUE=DATE:20260103\nRRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3
            RDATE;VALUE=DATE:20260110,20260111\nEXDATE;VALUE=DATE:20260112\nEND:VEVENT

            """)
        let (starts, _) = instants(source, from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
        // DTSTART (a Saturday) is the first instance though the rule only has Mondays (RFC 5545 §3.8.5.3).
        XCTAssertEqual(
            starts,
            [
                "r 2026-01-03T00:00:00Z", "r 2026-01-05T00:00:00Z", "r 2026-01-10T00:00:00Z",
                "r 2026-01-11T00:00:00Z", "r 2026-01-19T00:00:00Z",
            ])
    }

    func testNormalizedTimeZonesUseBareIANANamesOnePerTZID() throws {
        let source = Self.calendar(
            """
            BEGIN:VTIMEZONE\nTZID:/mozilla.org/20070129_1/Europe/Berlin\nBEGIN:STANDARD\nDTSTART:19701025T030000
            TZOFFSETFROM:+0200\nTZOFFSETTO:+0100\nRRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\nEND:STANDARD
            BEGIN:DAYLIGHT\nDTSTART:19700329T020000\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0200
            RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\nEND:DAYLIGHT\nEND:VTIMEZONE
            BEGIN:VEVENT\nUID:a\nDTSTAMP:20260101T000000Z\nDTSTART;TZID=/mozilla.org/20070129_1/Europe/Berlin:20260710T090000
            DURATION:PT1H\nEND:VEVENT
            BEGIN:VEVENT\nUID:b\nDTSTAMP:20260101T000000Z\nDTSTART;TZID=W. Europe Standard Time:20250110T090000
            DURATION:PT1H\nEND:VEVENT
            BEGIN:VEVENT\nUID:c\nDTSTAMP:20260101T000000Z\nDTSTART;TZID=America/New_York:20260301T090000
            DTEND;TZID=America/New_York:20260301T100000\nRRULE:FREQ=MONTHLY\nEXDATE;TZID=America/New_York:20260401T090000
            END:VEVENT

            """)
        let original = ICS.read(Array(source.utf8)).calendars[0]
        let normalized = original.normalizingTimeZones().calendar
        let text = String(decoding: ICS.write([normalized]), as: UTF8.self)
        let reread = ICS.read(Array(text.utf8)).calendars[0]
        XCTAssertEqual(reread.timeZones.compactMap(\.tzid), ["Europe/Berlin", "America/New_York"])
        XCTAssertFalse(text.contains("freeassociation") || text.contains("mozilla") || text.contains("W. Europe"), text)
        XCTAssertEqual(reread.events.map { $0.start?.tzid }, ["Europe/Berlin", "Europe/Berlin", "America/New_York"])
        XCTAssertTrue(text.contains("EXDATE;TZID=America/New_York:20260401T090000"))
        // Trimmed to the years in use: nothing before 2025 for Berlin, nothing before 2026 for New York.
        let berlin = reread.timeZones[0].component.components.compactMap { $0.property("DTSTART")?.value }
        XCTAssertTrue(berlin.allSatisfy { $0 >= "2025" }, "\(berlin)")
        XCTAssertLessThan(text.utf8.count, 4000, "truncated, not tzdata's history back to 1893")
        // The instants do not move.
        let window = (iso.date(from: "2025-01-01T00:00:00Z")!, iso.date(from: "2027-01-01T00:00:00Z")!)
        XCTAssertEqual(
            reread.occurrences(from: window.0, to: window.1).occurrences.map(\.startDate),
            original.occurrences(from: window.0, to: window.1).occurrences.map(\.startDate))
    }

    /// A TZID nothing explains is floating time, for the length of an instance too: from such a start to an end in a
    /// real zone is the wall-clock difference, as from a floating start (and as `--repair` writes it: floating).
    func testAnUnknownTZIDIsFloatingForTheLengthToo() {
        let source = Self.calendar(
            """
            BEGIN:VTODO\nUID:unknown\nDTSTAMP:20260101T000000Z\nDTSTART;TZID=CST:20260501T110000
            DUE;TZID=America/Los_Angeles:20260501T120000\nEND:VTODO
            BEGIN:VTODO\nUID:floating\nDTSTAMP:20260101T000000Z\nDTSTART:20260501T110000
            DUE;TZID=America/Los_Angeles:20260501T120000\nEND:VTODO

            """)
        let (_, expansion) = instants(source, from: "2026-04-01T00:00:00Z", to: "2026-06-01T00:00:00Z") {
            $0.components = [.todo]
        }
        let spans = expansion.occurrences.map {
            "\($0.uid ?? "") \(iso.string(from: $0.startDate)) \(iso.string(from: $0.endDate))"
        }
        XCTAssertEqual(
            spans.sorted(),
            ["floating 2026-05-01T11:00:00Z 2026-05-01T12:00:00Z", "unknown 2026-05-01T11:00:00Z 2026-05-01T12:00:00Z"])
    }

    /// A Windows name with its own VTIMEZONE is read by that VTIMEZONE. Normalizing renames it to the IANA zone only
    /// where the VTIMEZONE gives that zone's times on the dates in use; one that gives other times (khal's test file
    /// puts "New Zealand Standard Time" at +01:00) is left as it is, with a warning, so its instants do not move.
    func testNormalizingKeepsAWindowsNameWhoseVTIMEZONEGivesOtherTimes() throws {
        func zone(_ tzid: String, standard: String, daylight: String) -> String {
            "BEGIN:VTIMEZONE\nTZID:\(tzid)\nBEGIN:STANDARD\nDTSTART:19701025T030000\nTZOFFSETFROM:\(daylight)\n"
                + "TZOFFSETTO:\(standard)\nRRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\nEND:STANDARD\nBEGIN:DAYLIGHT\n"
                + "DTSTART:19700329T020000\nTZOFFSETFROM:\(standard)\nTZOFFSETTO:\(daylight)\n"
                + "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\nEND:DAYLIGHT\nEND:VTIMEZONE\n"
        }
        let source = Self.calendar(
            zone("W. Europe Standard Time", standard: "+0100", daylight: "+0200")
                + zone("New Zealand Standard Time", standard: "+0100", daylight: "+0200")
                    + """
                    BEGIN:VEVENT\nUID:berlin\nDTSTAMP:20260101T000000Z\nDTSTART;TZID=W. Europe Standard Time:20260710T090000
                    DURATION:PT1H\nEND:VEVENT
                    BEGIN:VEVENT\nUID:odd\nDTSTAMP:20260101T000000Z\nDTSTART;TZID=New Zealand Standard Time:20260710T090000
                    DURATION:PT1H\nEND:VEVENT

                    """)
        let original = ICS.read(Array(source.utf8)).calendars[0]
        let (normalized, diagnostics) = original.normalizingTimeZones()
        let reread = ICS.read(ICS.write([normalized])).calendars[0]
        XCTAssertEqual(
            Set(reread.timeZones.compactMap(\.tzid)), ["Europe/Berlin", "New Zealand Standard Time"])
        XCTAssertEqual(reread.events.map { $0.start?.tzid }, ["Europe/Berlin", "New Zealand Standard Time"])
        XCTAssertEqual(
            diagnostics.map(\.message),
            [
                "TZID \"New Zealand Standard Time\" names Pacific/Auckland, but its VTIMEZONE gives other times on the "
                    + "dates in use, and ICSKit reads them by that VTIMEZONE; left as it is"
            ])
        let window = (iso.date(from: "2026-01-01T00:00:00Z")!, iso.date(from: "2027-01-01T00:00:00Z")!)
        let before = original.occurrences(from: window.0, to: window.1).occurrences
        XCTAssertEqual(before.map { iso.string(from: $0.startDate) }, ["2026-07-10T07:00:00Z", "2026-07-10T07:00:00Z"])
        XCTAssertEqual(
            reread.occurrences(from: window.0, to: window.1).occurrences.map(\.startDate), before.map(\.startDate))
    }

    /// The todo list shows a repeating todo's earliest open occurrence after the latest one done (issue 60: before,
    /// the first one ending today or later, so a missed occurrence was never shown overdue); one whose override is
    /// completed is skipped, and so is an excluded one.
    func testTodoListDueIsTheEarliestOpenOccurrence() throws {
        var calendar = try XCTUnwrap(try readFixture("hand/recurring-todos.ics").calendars.first)
        let zone = try XCTUnwrap(ZoneClock(identifier: "Europe/Berlin"))
        func due(_ uid: String, now: String) throws -> (String?, Bool?) {
            let now = try XCTUnwrap(ISO8601DateFormatter().date(from: now))
            let list = TodoList(calendars: [(calendar, "tasks")], zone: zone, now: now)
            let entry = list.entries.first { $0.uid == uid && !$0.isPastOccurrence }
            return (
                entry?.dueValue.map { $0.isDate ? LocalDateTime($0).isoDate : LocalDateTime($0).iso8601 },
                entry?.isOverdue
            )
        }
        XCTAssertEqual(try due("plants@example.org", now: "2026-01-07T12:00:00Z").0, "2026-01-18", "the 11th was done")
        XCTAssertEqual(try due("plants@example.org", now: "2026-01-19T12:00:00Z").0, "2026-01-18")
        XCTAssertEqual(try due("plants@example.org", now: "2026-01-19T12:00:00Z").1, true)
        XCTAssertEqual(try due("report@example.org", now: "2026-01-06T12:00:00Z").0, "2026-01-05T17:00:00")
        XCTAssertEqual(try due("report@example.org", now: "2026-01-06T12:00:00Z").1, true)
        // The 5th and the 12th ticked off: the 19th is excluded, the 26th is next.
        var series = try XCTUnwrap(TodoSeries(calendar, uid: "report@example.org"))
        let berlin = try CalendarZone("Europe/Berlin")
        for day in [5, 12] {
            let occurrence = try XCTUnwrap(
                series.occurrence(at: CalendarDate(year: 2026, month: 1, day: day), zone: berlin))
            series.complete(occurrence, zone: berlin)
        }
        calendar.components = calendar.components.filter { $0.core?.uid != "report@example.org" } + series.components
        XCTAssertEqual(try due("report@example.org", now: "2026-01-13T12:00:00Z").0, "2026-01-26T17:00:00")
    }

}
