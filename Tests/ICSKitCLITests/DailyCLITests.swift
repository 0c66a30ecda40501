import Foundation
import XCTest

/// The daily commands over several calendars: a repeated `--calendar` is a union, and an empty store says where it
/// is and how to fill it.
final class DailyCLITests: StoreCLITestCase {
    func testARepeatedCalendarShowsEachOfThem() throws {
        try icskit(["import", CLI.fixture("demo/work.ics"), "--calendar", "Work", "-q"])
        try icskit(["import", CLI.fixture("demo/family.ics"), "--calendar", "Family", "-q"])
        try icskit(["import", CLI.fixture("hand/tasks.ics"), "--calendar", "Tasks", "-q"])
        let window = ["--from", "2026-11-23", "--to", "+7d", "--tz", "Europe/Berlin", "--no-ids"]
        let both = try icskit(["agenda", "--calendar", "Work", "--calendar", "Family"] + window).stdout
        XCTAssertTrue(both.contains("Sprint planning  (Work)"), both)
        XCTAssertTrue(both.contains("(Family)"), both)
        let work = try icskit(["agenda", "--calendar", "Work"] + window).stdout
        XCTAssertFalse(work.contains("(Family)"), work)
        // The same name twice is that calendar once.
        XCTAssertEqual(try icskit(["agenda", "--calendar", "Work", "--calendar", "Work"] + window).stdout, work)
        let unknown = try icskit(["agenda", "--calendar", "Work", "--calendar", "Nope"] + window, status: 1)
        XCTAssertTrue(unknown.stderr.contains("no calendar \"Nope\""), unknown.stderr)
        let todos = try icskit(["todo", "--calendar", "Work", "--calendar", "Tasks", "--no-ids"]).stdout
        XCTAssertTrue(todos.contains("Write the release notes"), todos)
        XCTAssertFalse(todos.contains("Pay the electricity bill"), todos)
        let all = try icskit(["todo", "--calendar", "Family", "--calendar", "Work", "--no-ids"]).stdout
        XCTAssertTrue(all.contains("Pay the electricity bill") && all.contains("Write the release notes"), all)
    }

    /// A listing of thousands of instances is written on both cores, half of the days each; `--details` (which
    /// reads zones, one thread's) writes on one. With nothing to detail, both must print the same, byte for byte:
    /// quarter-hourly series, all-day items and timed items over several days (which cross the halves), from a
    /// file and from the store (its kept months).
    func testAListingWrittenOnBothCoresIsTheListingWrittenOnOne() throws {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ICSKit tests//many//EN\r\n"
        for series in 0..<8 {
            text += "BEGIN:VEVENT\r\nUID:quarter-\(series)@example.org\r\nDTSTAMP:20260101T000000Z\r\n"
            text += "DTSTART;TZID=Europe/Berlin:20261123T00\(series)000\r\nDURATION:PT10M\r\n"
            text += "RRULE:FREQ=MINUTELY;INTERVAL=15\r\nSUMMARY:Tick \(series)\r\nEND:VEVENT\r\n"
        }
        for (index, (start, end)) in [
            ("VALUE=DATE:20261125", "VALUE=DATE:20261128"),
            ("TZID=Europe/Berlin:20261124T220000", "TZID=Europe/Berlin:20261127T060000"),
            ("VALUE=DATE:20261123", "VALUE=DATE:20261124"),
        ].enumerated() {
            text += "BEGIN:VEVENT\r\nUID:long-\(index)@example.org\r\nDTSTAMP:20260101T000000Z\r\n"
            text += "DTSTART;\(start)\r\nDTEND;\(end)\r\nSUMMARY:Long \(index)\r\nEND:VEVENT\r\n"
        }
        text += "END:VCALENDAR\r\n"
        let file = directory.appendingPathComponent("many.ics").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let window = ["--week", "2026-W48", "--tz", "Europe/Berlin", "--no-ids", "--max-total", "100000"]
        let plain = try icskit(["agenda", file] + window).stdout
        XCTAssertEqual(plain.components(separatedBy: "Tick 0").count - 1, 7 * 96, "every quarter of the week")
        XCTAssertEqual(try icskit(["agenda", file, "--details"] + window).stdout, plain)
        try icskit(["import", file, "--calendar", "Many", "-q"])
        let stored = try icskit(["agenda"] + window).stdout
        XCTAssertEqual(stored, plain.replacingOccurrences(of: "(many)", with: "(Many)"))
        XCTAssertEqual(try icskit(["agenda", "--details"] + window).stdout, stored)
    }

    /// Once a listing has kept its months, listing them again (and reminding) leaves the store file as it was,
    /// byte for byte, with no WAL left beside it: nothing is committed, nothing synced. (A pool of connections
    /// committed a table made and dropped at every open.) A change is still seen by the next listing.
    func testListingAnUnchangedStoreWritesNothing() throws {
        try icskit(["import", CLI.fixture("demo/work.ics"), "--calendar", "Work", "-q"])
        let week = ["agenda", "--from", "2026-11-23", "--to", "+7d", "--tz", "Europe/Berlin"]
        let remind = ["remind", "--within", "1d", "--now", "2026-11-24T07:00:00Z", "--tz", "Europe/Berlin"]
        let first = try icskit(week).stdout
        _ = try icskit(remind)
        _ = try icskit(week)  // the months' last use written once more, after remind's
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        for _ in 0..<3 {
            XCTAssertEqual(try icskit(week).stdout, first)
            _ = try icskit(week + ["--json"])
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store)), before, "the listings wrote to the store")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store + "-wal"), "a WAL file was left")
        try icskit([
            "add", "event", "Dentist", "--start", "2026-11-25 15:00", "--duration", "1h", "--tz", "Europe/Berlin",
            "--calendar", "Work",
        ])
        XCTAssertTrue(try icskit(week).stdout.contains("Dentist"))
    }

    func testAnEmptyStoreSaysWhereItIsAndHowToFillIt() throws {
        let agenda = try icskit(["agenda", "--from", "2026-11-23", "--to", "+7d"]).stdout
        XCTAssertTrue(agenda.hasPrefix("nothing between 2026-11-23T00:00:00 and 2026-11-30T00:00:00\n"), agenda)
        XCTAssertTrue(
            agenda.contains("the store \(store) holds no items yet: icskit import FILE --calendar NAME"), agenda)
        let todos = try icskit(["todo"]).stdout
        XCTAssertTrue(todos.contains("holds no items yet"), todos)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store), "a reading command created the store")
        // A store with items but none in the window says only that.
        try icskit(["import", CLI.fixture("demo/work.ics"), "--calendar", "Work", "-q"])
        let quiet = try icskit(["agenda", "--from", "2020-01-01", "--to", "+1d"]).stdout
        XCTAssertEqual(quiet, "nothing between 2020-01-01T00:00:00 and 2020-01-02T00:00:00\n")
    }

    func testDetailsMarksAndColours() throws {
        try icskit(["import", CLI.fixture("demo/family.ics"), "--calendar", "Family", "-q"])
        let marked = path("marked.ics")
        try """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:called-off@test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20261124T080000Z\r
        DURATION:PT1H\r
        SUMMARY:Board meeting\r
        STATUS:CANCELLED\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:maybe@test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20261124T100000Z\r
        DURATION:PT1H\r
        SUMMARY:Lunch with Ana\r
        STATUS:TENTATIVE\r
        URL:https://example.com/lunch\r
        DESCRIPTION:Somewhere near the office\\nor the park\r
        ATTENDEE;CN=Ana:mailto:ana@example.com\r
        ATTENDEE:mailto:ben@example.com\r
        END:VEVENT\r
        END:VCALENDAR\r

        """.write(toFile: marked, atomically: true, encoding: .utf8)
        try icskit(["import", marked, "--calendar", "Mine", "-q"])
        let window = ["--from", "2026-11-24", "--to", "+1d", "--tz", "Europe/Berlin", "--no-ids"]
        let plain = try icskit(["agenda"] + window).stdout
        XCTAssertTrue(plain.contains("09:00–10:00  Board meeting [cancelled]  (Mine)\n"), plain)
        XCTAssertTrue(plain.contains("11:00–12:00  Lunch with Ana [tentative]  (Mine)\n"), plain)
        XCTAssertFalse(plain.contains("at Stadtbad"), plain)

        let detailed = try icskit(["agenda", "--details"] + window).stdout
        XCTAssertTrue(
            detailed.contains(
                "  17:30–18:15  Swimming lesson (Lea) ⟳ ⏰  (Family)\n               at Stadtbad\n"
                    + "               alarm 2026-11-24 17:00\n"), detailed)
        XCTAssertTrue(
            detailed.contains(
                "               with Ana, ben@example.com\n               https://example.com/lunch\n"
                    + "               Somewhere near the office\n"), detailed)

        // Colours: never through a pipe or with NO_COLOR unless asked for; the calendar's own colour when asked.
        try icskit(["calendars", "Mine", "--set-color", "#112233"])
        XCTAssertFalse(try icskit(["agenda"] + window).stdout.contains("\u{1B}["))
        let coloured = try icskit(["agenda", "--color", "always"] + window).stdout
        XCTAssertTrue(
            coloured.contains("  09:00–10:00  \u{1B}[38;2;17;34;51m●\u{1B}[0m Board meeting [cancelled]"), coloured)
        let noColor = try CLI.run(
            ["agenda", "--color", "auto", "--store", store] + window, environment: ["NO_COLOR": "1"])
        XCTAssertFalse(noColor.stdout.contains("\u{1B}["), noColor.stdout)
        XCTAssertEqual(try icskit(["agenda", "--color", "never"] + window).stdout, plain)
    }

    func testEveryCommandReadsTheSameDayWords() throws {
        try icskit(["add", "event", "Dentist", "--start", "27.11.2026 14:00", "--duration", "45m", "--tz", "UTC"])
        let day = try icskit(["agenda", "--from", "27.11.2026", "--to", "+1d", "--tz", "UTC", "--no-ids"]).stdout
        XCTAssertEqual(day, "Fri 2026-11-27\n  14:00–14:45  Dentist  (Personal)\n")
        try icskit(["edit", "dentist", "--start", "28.11.2026 09:00", "--tz", "UTC"])
        XCTAssertTrue(try icskit(["search", "dentist", "--tz", "UTC"]).stdout.hasPrefix("2026-11-28 09:00  Dentist"))
        let bad = try icskit(["agenda", "--from", "31.02.2026"], status: 1)
        XCTAssertTrue(bad.stderr.contains("--from: cannot read the time 31.02.2026"), bad.stderr)

        // Named months and weeks: this year's November; the week before this one.
        var utc = Calendar(identifier: .iso8601)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let year = utc.component(.year, from: Date())
        let november = try icskit(["agenda", "--month", "nov", "--tz", "UTC", "--calendar", "Personal"]).stdout
        XCTAssertTrue(
            november.hasPrefix(year == 2026 ? "Sat 2026-11-28" : "nothing between \(year)-11-01T00:00:00"), november)
        let monday = utc.date(from: utc.dateComponents([.yearForWeekOfYear, .weekOfYear], from: Date()))!
        let lastWeek = try icskit(["agenda", "--week", "last", "--tz", "UTC", "--calendar", "Personal"]).stdout
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let expectedStart = formatter.string(from: monday.addingTimeInterval(-7 * 86_400))
        XCTAssertTrue(
            lastWeek.contains("between \(expectedStart)T00:00:00") || lastWeek.contains("Dentist"), lastWeek)
    }

    /// `--me` (or ICSKIT_ME) marks invitations waiting for my answer and ones I declined, on a real Outlook 2010
    /// invitation (attendees without PARTSTAT: NEEDS-ACTION, as RFC 5545 says) and a declined one; the organizer
    /// and strangers see no mark.
    func testInvitationsWaitingForMyAnswerAreMarked() throws {
        try icskit(["import", CLI.fixture("corpus-copies/outlook-2010.ics"), "--calendar", "Work", "-q"])
        let declined =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:party@x\r\n"
            + "DTSTAMP:20130601T000000Z\r\nDTSTART:20130610T180000Z\r\nSUMMARY:Party\r\n"
            + "ORGANIZER:mailto:bobsmith@example.com\r\n"
            + "ATTENDEE;PARTSTAT=DECLINED:mailto:johndoe@example.com\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let file = directory.appendingPathComponent("party.ics")
        try declined.write(to: file, atomically: true, encoding: .utf8)
        try icskit(["import", file.path, "--calendar", "Work", "-q"])
        let window = ["agenda", "--from", "2013-06-10", "--to", "2013-06-11", "--tz", "UTC", "--no-ids"]
        let mine = try icskit(window + ["--me", "MAILTO:JohnDoe@Example.com,john@home.example"]).stdout
        XCTAssertTrue(mine.contains("Team Meeting [answer needed]"), mine)
        XCTAssertTrue(mine.contains("Party [declined]"), mine)
        let fromEnvironment = try CLI.run(
            window + ["--store", store], environment: ["ICSKIT_ME": "janedoe@example.com"])
        XCTAssertTrue(fromEnvironment.stdout.contains("Team Meeting [answer needed]"), fromEnvironment.stdout)
        for me in ["bobsmith@example.com", "someone@else.example"] {
            let other = try icskit(window + ["--me", me]).stdout
            XCTAssertFalse(other.contains("[answer needed]") || other.contains("[declined]"), other)
        }
        let shown = try icskit(["show", "Team Meeting", "--me", "johndoe@example.com"]).stdout
        XCTAssertTrue(shown.contains("you         invited, your answer is needed"), shown)
    }
}
