import CalendarModel
import Foundation
import ICSKitTestSupport
import XCTest

/// CSV both ways: RFC 4180 tables, Google's and Outlook's layouts, bad cells, and ICS → CSV → ICS over the corpus
/// for the fields CSV carries.
final class CSVTests: XCTestCase {
    func testICSToCSVToICSKeepsTheFieldsCSVCarriesOverTheCorpus() throws {
        var failures: [String] = []
        var items = 0
        let utc = CSVOptions(zone: "UTC")
        for file in try Oracle.load().parsedByPython {
            let (_, original) = try readCorpus(file.path)
            let csv = CSVCalendar.write(original.calendars, options: utc).text
            let back = CSVCalendar.read(Array(csv.utf8), file: file.path, options: utc)
            let before = original.calendars.flatMap { CSVFields.of($0) }.filter(\.carriesSomething)
            let after = back.calendars.flatMap { CSVFields.of($0) }.filter(\.carriesSomething)
            if before.count != after.count {
                failures.append("\(file.path): \(before.count) items became \(after.count)")
                continue
            }
            for (expected, actual) in zip(before, after) where expected != actual {
                failures.append("\(file.path): \(expected.mismatch(actual))")
            }
            items += before.count
        }
        XCTAssertGreaterThan(items, 1000)
        XCTAssertEqual(failures, [])
    }

    /// Every string comes back from CSV as it went in, whatever it starts with: a formula start gets a `'` on the
    /// way out that comes off on the way back, and so does a `'` of the string's own (random strings over the
    /// characters that matter, the seed printed).
    func testEveryStringRoundTripsThroughCSVWhateverItStartsWith() throws {
        let seed = SeededGenerator.seed(from: "ICSKIT_CSV_SEED")
        print("CSV round-trip seed \(seed) (ICSKIT_CSV_SEED replays it)")
        var generator = SeededGenerator(seed: seed)
        let alphabet: [Character] = ["'", "=", "+", "-", "@", "\t", "a", "T", " ", ",", "\"", "é", "1"]
        var summaries = ["'Tis the season", "''", "'", "'=1+2", "=1+2", "-5", "'-5", "@home", "'@home", "''x"]
        for _ in 0..<300 {
            let length = Int.random(in: 1...6, using: &generator)
            let summary = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            // A cell of blanks alone is an empty cell to the reader, as to spreadsheets: not this test's matter.
            if summary.allSatisfy(\.isWhitespace) { continue }
            summaries.append(summary)
        }
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
        for (index, summary) in summaries.enumerated() {
            let escaped = summary.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: ";", with: "\\;")
            text +=
                "BEGIN:VEVENT\r\nUID:\(index)@t\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260310T090000Z\r\n"
                + "SUMMARY:\(escaped)\r\nLOCATION:\(escaped)\r\nEND:VEVENT\r\n"
        }
        let calendars = ICS.read(Array((text + "END:VCALENDAR\r\n").utf8)).calendars
        let utc = CSVOptions(zone: "UTC")
        let csv = CSVCalendar.write(calendars, options: utc).text
        let back = CSVCalendar.read(Array(csv.utf8), file: "round.csv", options: utc).calendars
        let events = back.flatMap(\.components).compactMap { component -> Event? in
            if case .event(let event) = component { event } else { nil }
        }
        XCTAssertEqual(events.count, summaries.count)
        for (event, summary) in zip(events, summaries) where event.summary != summary || event.location != summary {
            XCTFail(
                "\(summary.debugDescription) came back as \(String(describing: event.summary).debugDescription) "
                    + "and \(String(describing: event.location).debugDescription) (seed \(seed))")
        }
        // A cell another program wrote with a quote of its own keeps it.
        let foreign = CSVCalendar.read(
            Array("Subject,Start Date\r\n'Tis the season,03/10/2026\r\n".utf8), file: "foreign.csv")
        XCTAssertEqual(foreign.calendars.first?.components.first?.core?.summary, "'Tis the season")
    }

    func testTablesFollowRFC4180() {
        let table = CSVTable(rows: [
            CSVTable.Row(cells: ["plain", "with, comma", "with \"quotes\"", "two\nlines", " padded", ""], line: 0)
        ])
        let text = table.text()
        XCTAssertEqual(text, "plain,\"with, comma\",\"with \"\"quotes\"\"\",\"two\nlines\",\" padded\",\r\n")
        let (read, problems) = CSVTable.read(Array("\u{FEFF}".utf8) + Array(text.utf8))
        XCTAssertEqual(problems, [])
        XCTAssertEqual(read.rows.map(\.cells), table.rows.map(\.cells))
        let (semicolons, _) = CSVTable.read(Array("a;b;\"c;d\"\r\n1;2;3\r\n".utf8))
        XCTAssertEqual(semicolons.delimiter, ";")
        XCTAssertEqual(semicolons.rows.map(\.cells), [["a", "b", "c;d"], ["1", "2", "3"]])
        XCTAssertEqual(semicolons.rows.map(\.line), [1, 2])
        let (broken, brokenProblems) = CSVTable.read(Array("a,b\r\n1,\"never\r\nclosed\r\n".utf8))
        XCTAssertEqual(broken.rows.count, 1)
        XCTAssertEqual(brokenProblems.first?.line, 2)
        XCTAssertEqual(brokenProblems.first?.isError, true)
        XCTAssertTrue(brokenProblems.first?.message.contains("row 2, cell 2") ?? false, "\(brokenProblems)")
    }

    func testGoogleCalendarLayoutImports() throws {
        let bytes = try fixtureBytes("hand/csv/google-calendar.csv")
        let read = CSVCalendar.read(bytes, file: "google.csv")
        XCTAssertEqual(read.diagnostics, [])
        let events = try XCTUnwrap(read.calendars.first?.events)
        XCTAssertEqual(events.map(\.summary), ["Final exam", "Spring break", "Doctor", "Office hours"])
        XCTAssertEqual(events[0].start?.icsValue, "20260530T100000")
        XCTAssertEqual(events[0].start?.form, .floating)
        XCTAssertEqual(events[0].end?.icsValue, "20260530T130000")
        XCTAssertEqual(events[0].description, "Bring two pencils, an eraser\nand your ID")
        XCTAssertEqual(events[0].location, "Hall 3")
        // Google's all-day End Date is the last day; DTEND is the day after it.
        XCTAssertEqual(events[1].start, try CalendarDate(year: 2026, month: 3, day: 16))
        XCTAssertEqual(events[1].end, try CalendarDate(year: 2026, month: 3, day: 21))
        XCTAssertEqual(events[2].classification, .private)
        XCTAssertEqual(events[2].description, "Dr. \"Who\" practice")
        XCTAssertEqual(events[3].end?.icsValue, "20261102T170000")
        // Stable derived UIDs: reading the same file again finds the same items.
        let again = CSVCalendar.read(bytes, file: "google.csv")
        XCTAssertEqual(again.calendars.first?.events.map(\.uid), events.map(\.uid))
        XCTAssertEqual(Set(events.compactMap(\.uid)).count, 4)

        let zoned = CSVCalendar.read(bytes, file: "google.csv", options: CSVOptions(zone: "Europe/Berlin"))
        let calendar = try XCTUnwrap(zoned.calendars.first)
        XCTAssertEqual(calendar.events[0].start?.tzid, "Europe/Berlin")
        XCTAssertEqual(calendar.timeZones.compactMap(\.tzid), ["Europe/Berlin"])
        XCTAssertEqual(zoned.diagnostics, [])
        let time = CalendarTime(calendar: calendar, viewerZone: "UTC")
        // 26 Oct 2026 is the Monday after the change to CET: 08:30 Berlin is 07:30 UTC.
        XCTAssertEqual(time.date(of: calendar.events[2].start!), utcDate("2026-10-26T07:30:00Z"))
    }

    func testOutlookCalendarExportImports() throws {
        let read = CSVCalendar.read(
            try fixtureBytes("hand/csv/outlook-calendar.csv"), file: "outlook.csv",
            options: CSVOptions(zone: "America/New_York"))
        XCTAssertEqual(read.diagnostics.map(\.message), ["the file is not UTF-8; read as Windows-1252"])
        let events = try XCTUnwrap(read.calendars.first?.events)
        XCTAssertEqual(events.count, 3)
        let review = events[0]
        XCTAssertEqual(review.start?.icsValue, "20260115T090000")
        XCTAssertEqual(review.start?.tzid, "America/New_York")
        XCTAssertEqual(review.end?.icsValue, "20260115T103000")
        XCTAssertEqual(review.location, "Café Müller")
        XCTAssertEqual(review.description, "Agenda:\n1. Numbers\n2. Café plans")
        XCTAssertEqual(review.categories.map(\.name), ["Business", "Travel"])
        XCTAssertEqual(review.priority, 1)
        XCTAssertEqual(review.organizer?.address, "mailto:carol@example.com")
        XCTAssertEqual(review.organizer?.commonName, "Carol Dupré")
        XCTAssertEqual(review.attendees.map(\.address), ["mailto:bob@example.com", "mailto:dave@example.com"])
        XCTAssertEqual(review.attendees.map(\.role), ["REQ-PARTICIPANT", "OPT-PARTICIPANT"])
        XCTAssertEqual(
            review.alarms.first?.trigger,
            .relative(CalendarDuration(isNegative: true, minutes: 15), relatedToEnd: false))
        let kept = review.otherProperties.filter { $0.name == "X-ICSKIT-CSV" }.map {
            "\($0["X-COLUMN"] ?? ""): \($0.value)"
        }
        XCTAssertEqual(kept, ["Billing Information: ACME-42", "Required Attendees: Alice Smith"])
        // Outlook's all-day end is the day after, at 12:00:00 AM, as in iCalendar.
        XCTAssertEqual(events[1].start, try CalendarDate(year: 2026, month: 3, day: 16))
        XCTAssertEqual(events[1].end, try CalendarDate(year: 2026, month: 3, day: 21))
        XCTAssertEqual(events[1].transparency, .transparent)
        XCTAssertEqual(events[2].classification, .private)
        XCTAssertEqual(events[2].priority, 9)
        XCTAssertEqual(
            events[2].alarms.first?.trigger,
            .relative(CalendarDuration(isNegative: true, hours: 1), relatedToEnd: false))
        XCTAssertEqual(events[2].otherProperties.first { $0.name == "X-MICROSOFT-CDO-BUSYSTATUS" }?.value, "OOF")
    }

    func testOutlookTaskExportImports() throws {
        let read = CSVCalendar.read(
            try fixtureBytes("hand/csv/outlook-tasks.csv"), file: "tasks.csv",
            options: CSVOptions(zone: "Europe/Berlin"))
        XCTAssertEqual(read.diagnostics, [])
        let calendar = try XCTUnwrap(read.calendars.first)
        XCTAssertEqual(calendar.events.count, 0)
        let todos = calendar.todos
        XCTAssertEqual(todos.map(\.summary), ["File taxes", "Renew passport", "Call plumber"])
        XCTAssertEqual(todos[0].due, try CalendarDate(year: 2026, month: 4, day: 15))
        XCTAssertEqual(todos[0].status, .inProcess)
        XCTAssertEqual(todos[0].percentComplete, 25)
        XCTAssertEqual(todos[0].description, "Receipts are in the blue folder")
        XCTAssertEqual(
            todos[0].alarms.first?.trigger, .relative(CalendarDuration(isNegative: true, hours: 15), relatedToEnd: true)
        )
        XCTAssertTrue(todos[1].isCompleted)
        // Completed on 28 Jan in Berlin: midnight there is 23:00 UTC the day before.
        XCTAssertEqual(todos[1].completed?.icsValue, "20260127T230000Z")
        // Outlook's "0/0/00" and "None" stand for no date.
        XCTAssertEqual(todos[2].status, .needsAction)
        XCTAssertNil(todos[2].due)
        XCTAssertNil(todos[2].start)
        XCTAssertFalse(todos[2].isCompleted)
        let none = CSVCalendar.read(Array("Subject,Due\r\nNone,None\r\n".utf8), file: "none.csv")
        XCTAssertEqual(none.calendars.first?.todos.first?.summary, "None")
    }

    func testABadCellIsReportedWithItsRowAndColumn() {
        let text = """
            Subject,Start Date,Start Time,Priority,RRULE\r
            Good,01/05/2026,9:00 AM,3,FREQ=WEEKLY\r
            Bad date,13/45/2026,9:00 AM,,\r
            Bad time,01/06/2026,25:00,,\r
            Bad extras,01/07/2026,10:00,urgentest,FREQ=SOMETIMES\r

            """
        let read = CSVCalendar.read(Array(text.utf8), file: "bad.csv")
        let messages = read.diagnostics.map { "\($0.line): \($0.severity): \($0.message)" }
        XCTAssertEqual(
            messages,
            [
                "3: error: row 3, column \"Start Date\": \"13/45/2026\" is not a date (MM/DD/YYYY, DD.MM.YYYY or YYYY-MM-DD); row skipped",
                "4: error: row 4, column \"Start Time\": \"25:00\" is not a time of day (10:00 AM or 14:30); row skipped",
                "5: error: row 5, column \"Priority\": \"urgentest\" is not a priority (0–9, High, Normal or Low); left out",
                "5: error: row 5, column \"RRULE\": \"FREQ=SOMETIMES\" is not a recurrence rule (FREQ=WEEKLY;BYDAY=MO…); left out",
            ])
        let events = read.calendars.first?.events ?? []
        XCTAssertEqual(events.map(\.summary), ["Good", "Bad extras"])
        XCTAssertEqual(events.first?.priority, 3)
        XCTAssertNil(events.last?.priority)
        XCTAssertEqual(events.last?.start?.icsValue, "20260107T100000")
    }

    func testColumnsMapAnySpreadsheetAndDatesMayPutTheDayFirst() throws {
        let text =
            "Topic;When;Until;Room;Owner\r\nStand-up;23/11/2026 09:15;23/11/2026 09:30;Room 2;Kim\r\n"
            + "Retro;05/12/2026 14:00;05/12/2026 15:00;;Lee\r\n"
        let unmapped = CSVCalendar.read(Array(text.utf8), file: "sheet.csv")
        XCTAssertTrue(unmapped.calendars.isEmpty)
        XCTAssertTrue(
            unmapped.diagnostics.first?.message.contains("no column is a subject, start or due date") ?? false)
        let columns = try XCTUnwrap(CSVOptions.columns("Topic=summary, When=start ,Until=end,Room=location").success)
        let read = CSVCalendar.read(Array(text.utf8), file: "sheet.csv", options: CSVOptions(columns: columns))
        XCTAssertEqual(read.diagnostics, [])
        let events = try XCTUnwrap(read.calendars.first?.events)
        // 23/11 can only be day first, so 05/12 is 5 December too.
        XCTAssertEqual(events.map { $0.start?.icsValue }, ["20261123T091500", "20261205T140000"])
        XCTAssertEqual(events.map { $0.end?.icsValue }, ["20261123T093000", "20261205T150000"])
        XCTAssertEqual(events[0].location, "Room 2")
        XCTAssertEqual(
            events[1].otherProperties.first { $0.name == "X-ICSKIT-CSV" }?.contentLine,
            "X-ICSKIT-CSV;X-COLUMN=Owner:Lee")
        guard case .failure(let problem) = CSVOptions.columns("Topic=headline") else { return XCTFail("accepted") }
        XCTAssertTrue(problem.description.contains("\"headline\" is no field"))
    }

    func testDateAndTimeFormsFromOtherTools() throws {
        let text =
            "Subject,Start,End\r\nDashes,30-05-2026 10:00,30-05-2026 11:30\r\nISO UTC,2026-05-30T09:00:00Z,"
            + "2026-05-30T10:00:00Z\r\nCompact,20260531T080000,20260531\r\nGerman,31.05.2026 14:15,31.05.2026 15:00\r\n"
        let read = CSVCalendar.read(Array(text.utf8), file: "forms.csv")
        let events = try XCTUnwrap(read.calendars.first?.events)
        XCTAssertEqual(
            events.map { $0.start?.icsValue },
            [
                "20260530T100000", "20260530T090000Z", "20260531T080000",
                "20260531T141500",
            ])
        // A date alone for the end of a timed event is its midnight: here before the start, so it is left out.
        XCTAssertEqual(
            events.map { $0.end?.icsValue }, ["20260530T113000", "20260530T100000Z", nil, "20260531T150000"])
        XCTAssertEqual(
            read.diagnostics.map(\.message),
            [
                "row 4: the end 20260531T000000 is before the start "
                    + "20260531T080000; the end is left out"
            ])
    }

    func testExportUsesGoogleColumnsAndForms() throws {
        let read = try readFixture("hand/all-day-and-tasks.ics")
        let csv = CSVCalendar.write(read.calendars, options: CSVOptions(zone: "Europe/Berlin")).text
        let rows = CSVTable.read(Array(csv.utf8)).table.rows.map(\.cells)
        XCTAssertEqual(rows.first, CSVCalendar.exportHeader)
        XCTAssertEqual(
            Array(CSVCalendar.exportHeader.prefix(9)),
            [
                "Subject", "Start Date", "Start Time", "End Date",
                "End Time", "All Day Event", "Description",
                "Location", "Private",
            ])
        let holiday = try XCTUnwrap(rows.first { $0[0] == "Holiday" })
        XCTAssertEqual(Array(holiday[1...5]), ["11/23/2026", "", "11/23/2026", "", "True"])
        let call = try XCTUnwrap(rows.first { $0[0] == "Call with Auckland" })
        XCTAssertEqual(Array(call[1...5]), ["11/23/2026", "9:00 PM", "11/23/2026", "10:00 PM", "False"])
        XCTAssertEqual(call[15], "FREQ=DAILY;COUNT=2")
        XCTAssertEqual(call[16], "event")
        let slides = try XCTUnwrap(rows.first { $0[0] == "Slides for the report" })
        XCTAssertEqual(Array(slides[11...14]), ["COMPLETED", "01/05/2026 5:00 PM", "01/04/2026 1:00 PM", ""])
        XCTAssertEqual(slides[16], "todo")
    }

    /// Every field the importer knows, read into typed events and todos; rows without a UID keep the UIDs earlier
    /// versions derived for them (pinned here from the build before the typed importer), so a file imported then
    /// and again now finds the same items.
    func testEveryFieldReadsIntoTypedItemsWithTheUIDsEarlierVersionsDerived() throws {
        let read = CSVCalendar.read(
            try fixtureBytes("hand/csv/every-field.csv"), file: "every.csv", options: CSVOptions(zone: "Europe/Berlin"))
        XCTAssertEqual(
            read.diagnostics.map { "\($0.line): \($0.message)" }, ["8: row 7 has no start date; read as a to-do"])
        let calendar = try XCTUnwrap(read.calendars.first)
        XCTAssertEqual(
            calendar.components.map(\.name),
            ["VTIMEZONE", "VEVENT", "VEVENT", "VTODO", "VTODO", "VEVENT", "VTODO", "VEVENT"])
        let items = calendar.components.compactMap(\.core)
        XCTAssertEqual(
            items.map(\.uid),
            [
                "icskit-03a2c21f2027b0d3@derived", "icskit-365a62aa62b33fa2@derived", "report-42@example.com",
                "icskit-75fd6741ef43cd62@derived", "icskit-7b2860629f5e73e2@derived",
                "icskit-88932e9b15b6b120@derived", "icskit-737fa10536d795fe@derived",
            ])
        let planning = calendar.events[0]
        XCTAssertEqual(planning.summary, "Planning, round 2")
        XCTAssertEqual(
            planning.start,
            try CalendarDate(
                year: 2026, month: 3, day: 2, hour: 9, minute: 0, second: 0,
                form: .zoned(tzid: try TimeZoneID("Europe/Berlin"))))
        XCTAssertEqual(planning.end?.icsValue, "20260302T103000")
        XCTAssertEqual(planning.description, "Line one\nline two; with a semicolon")
        XCTAssertEqual(planning.location, "Room 4\\B")
        XCTAssertEqual(planning.classification, .confidential)
        XCTAssertEqual(planning.categories.map(\.name), ["Work", "Planning, Q2"])
        XCTAssertEqual(planning.status, .tentative)
        XCTAssertEqual(planning.priority, 1)
        XCTAssertEqual(planning.recurrenceRules.map(\.icsValue), ["FREQ=WEEKLY;COUNT=4"])
        XCTAssertEqual(planning.organizer, CalendarUser(address: "mailto:ana@example.com", commonName: "Ana Ruiz"))
        XCTAssertEqual(planning.attendees.map(\.address), ["mailto:bo@example.com", "mailto:dee@example.com"])
        XCTAssertEqual(planning.attendees.map(\.role), ["REQ-PARTICIPANT", "OPT-PARTICIPANT"])
        XCTAssertEqual(planning.attendees.map(\.commonName), ["Bo", nil])
        XCTAssertEqual(
            planning.alarms.map(\.trigger),
            [.relative(CalendarDuration(isNegative: true, minutes: 15), relatedToEnd: false)])
        XCTAssertEqual(planning.alarms.first?.description, "Planning, round 2")
        XCTAssertEqual(
            planning.otherProperties.map(\.contentLine),
            [
                "X-MICROSOFT-CDO-BUSYSTATUS:OOF", "RESOURCES:Projector,Room 4",
                "X-ICSKIT-CSV;X-COLUMN=Notes for later:keep me", "X-ICSKIT-CSV;X-COLUMN=Required Attendees:Cy Only",
            ])
        let holiday = calendar.events[1]
        XCTAssertEqual(holiday.end, try CalendarDate(year: 2026, month: 4, day: 4))
        XCTAssertEqual(holiday.transparency, .transparent)
        XCTAssertEqual(holiday.classification, .private)

        let report = calendar.todos[0]
        XCTAssertEqual(report.due?.icsValue, "20260305T170000")
        XCTAssertEqual(report.status, .inProcess)
        XCTAssertEqual(report.percentComplete, 50)
        XCTAssertEqual(
            report.alarms.map(\.trigger), [.relative(CalendarDuration(isNegative: true, hours: 8), relatedToEnd: true)])
        let rent = calendar.todos[1]
        XCTAssertEqual(rent.completed?.icsValue, "20260330T061500Z")
        XCTAssertEqual(rent.status, .completed)
        XCTAssertEqual(rent.recurrenceRules.map(\.icsValue), ["FREQ=MONTHLY;BYMONTHDAY=-1"])
        XCTAssertEqual(calendar.todos[2].summary, "Note only")
        XCTAssertEqual(calendar.events[2].status, .tentative)
        XCTAssertEqual(calendar.events[3].start?.form, .utc)
        XCTAssertEqual(calendar.events[3].priority, 0)

        // What it writes reads back as the same items, with no diagnostics.
        let written = ICS.write(read.calendars)
        let again = ICS.read(written, file: "again.ics")
        XCTAssertEqual(again.diagnostics, [])
        XCTAssertEqual(again.calendars.first?.components.compactMap(\.core), items)
    }

    func testAnEventRowWithoutAStartStaysAnEventWithAWarning() {
        let text = "Kind,Subject,Start\r\nevent,No date,\r\ntodo,Fine,\r\n"
        let read = CSVCalendar.read(Array(text.utf8), file: "kind.csv")
        XCTAssertEqual(
            read.diagnostics.map { "\($0.line): \($0.message)" },
            ["2: row 2 is an event without a start date; kept, but strict readers want DTSTART"])
        XCTAssertEqual(read.calendars.first?.components.map(\.name), ["VEVENT", "VTODO"])
        XCTAssertEqual(read.calendars.first?.components.compactMap(\.core?.summary), ["No date", "Fine"])
    }

    func fixtureBytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Paths.fixture(name))))
    }

    func utcDate(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
}

/// What a CSV row carries of an item, with times as instants (UTC) so zones written differently compare equal.
struct CSVFields: Equatable {
    var kind: String
    var summary: String
    var start: String
    var end: String
    var due: String
    var completed: String
    var description: String
    var location: String
    var isPrivate: Bool
    var categories: [String]
    var status: String
    var priority: String
    var rules: [String]
    var uid: String

    static func of(_ calendar: ICalendar) -> [CSVFields] {
        let time = CalendarTime(calendar: calendar, viewerZone: "UTC")
        func moment(_ date: CalendarDate?) -> String {
            guard let date else { return "" }
            if date.isDate { return date.icsValue }
            return ISO8601DateFormatter().string(from: time.date(of: date))
        }
        return calendar.components.compactMap { component -> CSVFields? in
            switch component {
            case .event(let event) where event.recurrenceID == nil:
                var end = event.end
                if end == nil, let start = event.start, let duration = event.duration {
                    end = LocalDateTime(start).adding(seconds: Int64(duration.totalSeconds)).calendarDate(start.form)
                }
                if let start = event.start, start.isDate {
                    // A date needs a date end at least a day later; iCalendar's default is one day.
                    let day = LocalDateTime(start).adding(days: 1).calendarDate(.date)
                    if let value = end, value.isDate, LocalDateTime(value) >= LocalDateTime(day) {
                        end = value
                    } else {
                        end = day
                    }
                }
                if let start = event.start, !start.isDate, let value = end, value.isDate {
                    end = LocalDateTime(value).calendarDate(.floating)  // a date end to a timed start: its midnight
                }
                if event.start == nil { end = nil }
                if let start = event.start, let value = end, time.date(of: value) < time.date(of: start) { end = nil }
                return CSVFields(
                    kind: "event", core: event.core, start: moment(event.start), end: moment(end),
                    due: "", completed: "")
            case .todo(let todo) where todo.recurrenceID == nil:
                return CSVFields(
                    kind: "todo", core: todo.core, start: moment(todo.start), end: "",
                    due: moment(todo.due),
                    completed: moment(
                        todo.completed.map { date in
                            date.isDate ? LocalDateTime(date).calendarDate(.utc) : date
                        }))
            default: return nil
            }
        }
    }

    init(kind: String, core: ItemCore, start: String, end: String, due: String, completed: String) {
        self.kind = kind
        summary = core.summary ?? ""
        self.start = start
        self.end = end
        self.due = due
        self.completed = completed
        description = core.description ?? ""
        location = core.location ?? ""
        isPrivate = core.classification == .private || core.classification == .confidential
        categories = core.categories.map(\.name).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let known =
            kind == "todo"
            ? ["NEEDS-ACTION", "COMPLETED", "IN-PROCESS", "CANCELLED"]
            : ["TENTATIVE", "CONFIRMED", "CANCELLED"]
        status =
            core.status.map { $0.rawValue.replacingOccurrences(of: " ", with: "-") }.flatMap {
                known.contains($0) || $0.hasPrefix("X-") ? $0 : nil
            } ?? ""
        if kind == "todo", status.isEmpty, !completed.isEmpty { status = "COMPLETED" }
        priority = core.priority.flatMap { (0...9).contains($0) ? String($0) : nil } ?? ""
        rules = core.recurrenceRules.map(\.icsValue)
        // A UID the import derived for an item that had none compares as none.
        uid = core.uid.flatMap { $0.hasSuffix("@derived") ? nil : $0 } ?? ""
    }

    /// Whether a row has anything to say: items with none of these are not written back as items.
    var carriesSomething: Bool {
        !summary.isEmpty || !start.isEmpty || !due.isEmpty || !description.isEmpty || !uid.isEmpty
    }

    func mismatch(_ other: CSVFields) -> String {
        let mine = Mirror(reflecting: self).children, theirs = Mirror(reflecting: other).children
        for (a, b) in zip(mine, theirs) where "\(a.value)" != "\(b.value)" {
            return "\(summary): \(a.label ?? "?") \(a.value) ≠ \(b.value)"
        }
        return "\(summary): differs"
    }
}
