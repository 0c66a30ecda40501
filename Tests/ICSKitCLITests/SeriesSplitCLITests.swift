import Foundation
import XCTest

/// "This and following" on real exports: `edit --instance DATE --and-following` splits a series (the earlier part
/// ends before DATE, a new series carries the change) and `rm --instance DATE --and-following` ends it there. The
/// export is what recurring-ical-events (an independent implementation) lists too, one `undo` takes it back, and a
/// vdir sync carries both parts.
final class SeriesSplitCLITests: StoreCLITestCase {
    /// (start as UTC seconds, summary) of every instance in [from, to) that recurring-ical-events finds in a file.
    func recurringICalEvents(_ file: String, from: String, to: String) throws -> [String] {
        let run = CLI.python([
            "-c",
            """
            import sys, datetime, icalendar, recurring_ical_events
            cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            span = [tuple(int(x) for x in d.split('-')) for d in sys.argv[2:4]]
            for e in recurring_ical_events.of(cal).between(*span):
                start = e['DTSTART'].dt
                if not isinstance(start, datetime.datetime):
                    start = datetime.datetime(start.year, start.month, start.day, tzinfo=datetime.timezone.utc)
                elif start.tzinfo is None:
                    start = start.replace(tzinfo=datetime.timezone.utc)
                print(int(start.timestamp()), str(e.get('SUMMARY', '')))
            """, file, from, to,
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout.split(separator: "\n").map(String.init).sorted()
    }

    /// The same from icskit's agenda of the file (floating times in UTC, as above).
    func agenda(_ file: String, from: String, to: String) throws -> [String] {
        let run = try CLI.run(["agenda", file, "--from", from, "--to", to, "--tz", "UTC", "--json", "-q"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let items = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        return try items.map { item in
            let text = try XCTUnwrap(item["start"] as? String)
            // A date, a floating time (both placed in UTC, as above) or a time with its offset.
            let full = text.count == 10 ? text + "T00:00:00Z" : text.count == 19 ? text + "Z" : text
            let date = try XCTUnwrap(ISO8601DateFormatter().date(from: full), text)
            return "\(Int(date.timeIntervalSince1970)) \(item["summary"] as? String ?? "")"
        }.sorted()
    }

    func export(_ name: String, calendar: String) throws -> String {
        let file = path(name)
        try icskit(["export", "--calendar", calendar, "-o", file])
        return file
    }

    /// Every instance keeps its time; from the cut on, the summary is the new one; both implementations agree.
    func testEditingThisAndFollowingOfRealExportsSplitsTheSeries() throws {
        // (fixture, calendar, handle, the instance cut at, the window listed, the zone DATE is read in)
        let cases = [
            (
                "corpus-copies/apple-icloud.ics", "Apple", "6D0A3855", "2022-10-03", ("2022-09-20", "2022-10-20"),
                "America/Los_Angeles"
            ),
            ("demo/work.ics", "Work", "standup-7f3a", "2026-11-20", ("2026-11-01", "2027-01-15"), "Europe/Berlin"),
            (
                "hand/weekly-count-override.ics", "Team", "standup@example", "2027-01-04", ("2026-12-01", "2027-03-01"),
                "Europe/Berlin"
            ),
        ]
        for (fixture, calendar, handle, cut, window, zone) in cases {
            try icskit(["import", CLI.fixture(fixture), "--calendar", calendar, "-q"])
            let before = try recurringICalEvents(
                export("\(calendar)-before.ics", calendar: calendar), from: window.0, to: window.1)
            let edited = try icskit([
                "edit", handle, "--instance", cut, "--and-following", "--summary", "Split here", "--tz", zone,
            ])
            XCTAssertTrue(edited.stdout.contains("from \(cut) on, a new series"), edited.stdout)
            let file = try export("\(calendar)-after.ics", calendar: calendar)
            let after = try recurringICalEvents(file, from: window.0, to: window.1)
            XCTAssertEqual(
                after, try agenda(file, from: window.0, to: window.1), "\(fixture): both read the split alike")
            XCTAssertEqual(
                after.map { $0.prefix { $0 != " " } }, before.map { $0.prefix { $0 != " " } },
                "\(fixture): every instance where it was")
            let cutSeconds = try XCTUnwrap(
                ISO8601DateFormatter().date(from: cut + "T00:00:00Z")?.timeIntervalSince1970)
            let changed = after.filter { $0.hasSuffix(" Split here") }.map { Double($0.prefix { $0 != " " })! }
            XCTAssertFalse(changed.isEmpty, fixture)
            XCTAssertTrue(
                changed.allSatisfy { $0 >= cutSeconds - 86_400 }, "\(fixture): nothing before the cut changed")
            let earlier = { (lines: [String]) in lines.filter { Double($0.prefix { $0 != " " })! < cutSeconds - 86_400 }
            }
            XCTAssertEqual(earlier(after), earlier(before), "\(fixture): the instances before the cut are as they were")

            // One undo takes the split back whole.
            try icskit(["undo"])
            let undone = try export("\(calendar)-undone.ics", calendar: calendar)
            XCTAssertEqual(try recurringICalEvents(undone, from: window.0, to: window.1), before, fixture)
        }
    }

    func testRemovingThisAndFollowingEndsTheSeries() throws {
        try icskit(["import", CLI.fixture("demo/work.ics"), "--calendar", "Work", "-q"])
        let window = ("2026-11-01", "2027-02-01")
        let before = try recurringICalEvents(export("before.ics", calendar: "Work"), from: window.0, to: window.1)
        let removed = try icskit([
            "rm", "standup-7f3a", "--instance", "2026-11-24", "--and-following", "--tz", "Europe/Berlin",
        ])
        XCTAssertTrue(removed.stdout.contains("removed: the instances from 2026-11-24 on"), removed.stdout)
        let file = try export("after.ics", calendar: "Work")
        let after = try recurringICalEvents(file, from: window.0, to: window.1)
        XCTAssertEqual(after, try agenda(file, from: window.0, to: window.1))
        let cut = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-11-24T00:00:00Z")?.timeIntervalSince1970)
        let standups = { (lines: [String]) in lines.filter { $0.contains("Stand-up") } }
        XCTAssertEqual(
            standups(after), standups(before).filter { Double($0.prefix { $0 != " " })! < cut },
            "the stand-ups before the 24th stay, none after (the moved one of the 25th included)")
        XCTAssertEqual(
            after.filter { !$0.contains("Stand-up") }, before.filter { !$0.contains("Stand-up") }, "the rest stays")

        // From the first instance, that is the whole series: asked for, or --yes.
        let first = try CLI.run(
            [
                "rm", "standup-7f3a", "--instance", "2026-11-02", "--and-following", "--tz", "Europe/Berlin", "--store",
                store,
            ],
            stdin: Data())
        XCTAssertNotEqual(first.status, 0, "the whole series is not removed without --yes")
        try icskit([
            "rm", "standup-7f3a", "--instance", "2026-11-02", "--and-following", "--tz", "Europe/Berlin", "--yes",
        ])
        XCTAssertTrue(
            standups(try recurringICalEvents(export("gone.ics", calendar: "Work"), from: window.0, to: window.1))
                .isEmpty)

        let refused = try icskit(["rm", "planning-2b91", "--and-following"], status: 2)
        XCTAssertTrue(refused.stderr.contains("--and-following needs --instance"), refused.stderr)
    }

    /// Todos: a series with DTSTART splits like an event's; one placed only by DUE cannot be split or ended there,
    /// which is said, and nothing changes (it is not taken for its first instance and edited or removed whole).
    func testTodoSeriesSplitWhenTheyHaveAStart() throws {
        try icskit(["import", CLI.fixture("hand/recurring-todos.ics"), "--calendar", "Tasks", "-q"])
        let before = try icskit(["export", "--calendar", "Tasks"]).stdout
        for command in [
            ["edit", "plants@example", "--instance", "2026-01-18", "--and-following", "--summary", "Cacti"],
            ["rm", "plants@example", "--instance", "2026-01-18", "--and-following", "--yes"],
        ] {
            let refused = try icskit(command + ["--tz", "Europe/Berlin"], status: 1)
            XCTAssertTrue(refused.stderr.contains("its series has no DTSTART"), refused.stderr)
        }
        XCTAssertEqual(try icskit(["export", "--calendar", "Tasks"]).stdout, before, "nothing changed")
        let split = try icskit([
            "edit", "report@example", "--instance", "2026-01-26", "--and-following", "--summary", "Monthly report",
            "--tz", "Europe/Berlin",
        ])
        XCTAssertTrue(split.stdout.contains("from 2026-01-26 on, a new series"), split.stdout)
        let after = try icskit(["export", "--calendar", "Tasks"]).stdout
        XCTAssertTrue(after.contains("RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3"), after)
        XCTAssertTrue(after.contains("DUE;TZID=Europe/Berlin:20260126T170000"), "the due time moved with the start")
    }

    /// A calendar bound to a vdir: after the split, the vdir holds the shortened series and the new one, each in
    /// its own file, and a second sync changes nothing.
    func testASplitSeriesSyncsToAVdir() throws {
        try icskit(["import", CLI.fixture("hand/weekly-count-override.ics"), "--calendar", "Team", "-q"])
        let vdir = path("team")
        try icskit(["sync", "Team", "--vdir", vdir])
        try icskit([
            "edit", "standup@example", "--instance", "2027-01-04", "--and-following", "--start", "2027-01-04 09:30",
            "--tz", "Europe/Berlin",
        ])
        let synced = try icskit(["sync", "Team", "--vdir", vdir]).stdout
        XCTAssertTrue(synced.contains("vdir: 1 created, 1 updated, 0 deleted"), synced)
        let files = try FileManager.default.contentsOfDirectory(atPath: vdir).filter { $0.hasSuffix(".ics") }.sorted()
        XCTAssertEqual(files.count, 2, "\(files)")
        let texts = try files.map { try String(contentsOfFile: vdir + "/" + $0, encoding: .utf8) }
        let old = try XCTUnwrap(texts.first { $0.contains("UID:standup@example.com") })
        XCTAssertTrue(old.contains("RRULE:FREQ=WEEKLY;COUNT=4"), old)
        XCTAssertFalse(old.contains("RECURRENCE-ID"), "the moved instance went with the later part")
        let new = try XCTUnwrap(texts.first { !$0.contains("UID:standup@example.com") })
        XCTAssertTrue(new.contains("RRULE:FREQ=WEEKLY;COUNT=6"), new)
        XCTAssertTrue(new.contains("DTSTART;TZID=Europe/Berlin:20270104T093000"), new)
        XCTAssertTrue(new.contains("RECURRENCE-ID;TZID=Europe/Berlin:20270118T093000"), new)

        // The vdir read by an independent implementation lists what the store lists.
        let joined = path("joined.ics")
        let combined = texts.map { text -> String in
            let start = text.range(of: "BEGIN:VTIMEZONE") ?? text.range(of: "BEGIN:VEVENT")!
            return String(text[start.lowerBound...].replacingOccurrences(of: "END:VCALENDAR\r\n", with: ""))
        }
        try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + combined.joined() + "END:VCALENDAR\r\n").write(
            toFile: joined, atomically: true, encoding: .utf8)
        XCTAssertEqual(
            try recurringICalEvents(joined, from: "2026-12-01", to: "2027-03-01"),
            try agenda(try export("store.ics", calendar: "Team"), from: "2026-12-01", to: "2027-03-01"))
        let again = try icskit(["sync", "Team", "--vdir", vdir])
        XCTAssertTrue(again.stdout.contains("nothing changed on either side"), again.stdout)
    }

    /// Issue 65 class 7: a Chicago series split and moved from Berlin stays a Chicago series. It became
    /// Europe/Berlin, so its instances followed Berlin's clock changes and the two halves disagreed by an hour
    /// between the US and the European change (9–29 March 2026).
    func testThisAndFollowingKeepsTheSeriesZone() throws {
        try icskit(["import", CLI.fixture("hand/round4-chicago-series.ics"), "--calendar", "Team", "-q"])
        // 16:00 in Berlin on 16 March (CET) is 15:00Z, 10:00 in Chicago (CDT).
        try icskit([
            "edit", "chicago-weekly", "--instance", "2026-03-16", "--and-following", "--start", "2026-03-16 16:00",
            "--tz", "Europe/Berlin",
        ])
        let text = try String(contentsOfFile: try export("split.ics", calendar: "Team"), encoding: .utf8)
        XCTAssertTrue(text.contains("DTSTART;TZID=America/Chicago:20260316T100000"), text)
        XCTAssertTrue(text.contains("DTEND;TZID=America/Chicago:20260316T103000"), text)
        XCTAssertFalse(text.contains("TZID=Europe/Berlin"), text)
        // After Berlin's change (29 March) the new half is still at 10:00 in Chicago: 15:00Z on 30 March.
        let listed = try agenda(try export("again.ics", calendar: "Team"), from: "2026-03-01", to: "2026-04-30")
        XCTAssertTrue(listed.contains("1774882800 Chicago check-in"), "\(listed)")
        XCTAssertEqual(listed.count, 8, "\(listed)")
    }
}
