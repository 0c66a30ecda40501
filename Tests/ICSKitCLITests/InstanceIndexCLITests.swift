import Foundation
import ICSKitTestSupport
import XCTest

/// The instance index (`agenda` and `remind` from the store): for random windows, zones and options, and after
/// random changes of every kind (imports, merges, removals, edits, adds, renames, undo), a listing through the index
/// is byte for byte the listing of every series expanded anew (`ICSKIT_INSTANCE_INDEX=0`), warnings included. Every
/// output option is drawn: text or `--json` (agenda and remind), lines with and without handles (`--no-ids`),
/// `--details`, `--color always`, `--me`, `--component`, `--calendar`, `--zones file` and `--no-x-wr-timezone`,
/// so that every field a listing shows, and how, is compared on both paths.
final class InstanceIndexCLITests: StoreCLITestCase {
    static let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC"]
    /// Attendees and organizers of the fixtures imported, for `--me`.
    static let addresses = [
        "priya.raman@example.org", "daniel.latham@example.org", "janedoe@example.com", "ann@example.org",
        "nobody@example.net",
    ]

    /// The listing twice, through the index and expanded: the same exit, output and warnings.
    func assertSameListing(_ arguments: [String], _ context: String) throws {
        let indexed = try CLI.run(arguments + ["--store", store])
        let expanded = try CLI.run(arguments + ["--store", store], environment: ["ICSKIT_INSTANCE_INDEX": "0"])
        let what = "\(context): icskit \(arguments.joined(separator: " "))"
        XCTAssertEqual(indexed.status, expanded.status, "\(what)\n\(indexed.stderr)\n\(expanded.stderr)")
        XCTAssertEqual(indexed.stdout, expanded.stdout, what)
        XCTAssertEqual(indexed.stderr, expanded.stderr, what)
    }

    /// A listing around a random item's start: agenda (text or JSON, events or events and todos, one calendar or
    /// all) or remind, in a random zone.
    func randomListing(_ random: inout SeededGenerator) throws -> [String] {
        let starts = try CLI.sqlite(store, "SELECT startUTC FROM item WHERE startUTC IS NOT NULL ORDER BY id")
            .split(separator: "\n").compactMap { Int($0) }
        let start = Double(
            (starts.randomElement(using: &random) ?? 1_790_000_000) - Int.random(in: 0...20, using: &random) * 86_400)
        let day = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: start)).prefix(10)
        let zone = Self.zones.randomElement(using: &random)!
        if Int.random(in: 0..<4, using: &random) == 0 {
            return [
                "remind", "--now", "\(day)T08:00:00Z", "--within", "\(Int.random(in: 1...20, using: &random))d", "--tz",
                zone,
            ] + (Bool.random(using: &random) ? ["--json"] : [])
        }
        var arguments = [
            "agenda", "--from", String(day), "--to", "+\(Int.random(in: 1...45, using: &random))d", "--tz", zone,
        ]
        // Every field a listing shows: JSON, the line with its place, alarms, people, link and description
        // (--details), or the line alone, with or without handles.
        switch Int.random(in: 0..<4, using: &random) {
        case 0: arguments.append("--json")
        case 1: arguments.append("--details")
        case 2: arguments.append("--no-ids")
        default: break
        }
        // How lines look: colours by calendar and category (`--color always`), and the items waiting for my answer
        // marked (`--me`, an attendee of the fixtures below, or the organizer).
        if !arguments.contains("--json"), Int.random(in: 0..<3, using: &random) == 0 {
            arguments += ["--color", "always"]
        }
        if Int.random(in: 0..<3, using: &random) == 0 {
            arguments += ["--me", Self.addresses.randomElement(using: &random)!]
        }
        if Bool.random(using: &random) { arguments += ["--component", "event,todo"] }
        // How times are read: the file's VTIMEZONEs over tzdata, and Google's X-WR-TIMEZONE left alone.
        if Int.random(in: 0..<4, using: &random) == 0 { arguments += ["--zones", "file"] }
        if Int.random(in: 0..<4, using: &random) == 0 { arguments.append("--no-x-wr-timezone") }
        let calendars = try CLI.sqlite(store, "SELECT name FROM calendar ORDER BY name").split(separator: "\n")
        if Int.random(in: 0..<4, using: &random) == 0, let name = calendars.randomElement(using: &random) {
            arguments += ["--calendar", String(name)]
        }
        return arguments
    }

    func testIndexedListingsListWhatExpansionListsThroughChanges() throws {
        var (random, seed, rounds) = SeededGenerator.start(
            "instance index property test", seedVariable: "ICSKIT_INSTANCES_SEED",
            countVariable: "ICSKIT_INSTANCES_ROUNDS", defaultCount: 2, unit: "rounds")
        var indexedRows = 0
        for round in 0..<rounds {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
            // Real exports, series whose expansion warns (an unknown TZID, X-WR-TIMEZONE, Windows zone names),
            // overrides without their series, recurring todos, and a generated calendar.
            for (file, calendar) in [
                ("corpus-copies/google-issue52.ics", "Google"), ("corpus-copies/outlook-2010.ics", "Outlook"),
                ("corpus-copies/apple-icloud.ics", "Apple"), ("corpus-copies/khal-recuid-no-master.ics", "Khal"),
                ("hand/unknown-tzid.ics", "Odd"), ("hand/google-x-wr-timezone.ics", "Odd"),
                ("hand/windows-zone-names.ics", "Odd"), ("hand/recurring-todos.ics", "Tasks"),
                ("demo/work.ics", "Work"), ("demo/family.ics", "Home"), ("hand/round4-lost-folds.ics", "Invites"),
                ("hand/round4-strict-readers.ics", "Invites"),
            ] {
                try icskit(["import", CLI.fixture(file), "--calendar", calendar, "-q"])
            }
            let generated = CLI.python([
                CLI.package.deletingLastPathComponent().appendingPathComponent("shared/tools/gen_ics.py").path, "60",
            ])
            XCTAssertEqual(generated.status, 0, generated.stderr)
            try generated.stdout.write(toFile: path("generated.ics"), atomically: true, encoding: .utf8)
            try icskit(["import", path("generated.ics"), "--calendar", "Generated", "-q"])
            for step in 0..<6 {
                for _ in 0..<3 {
                    try assertSameListing(try randomListing(&random), "seed \(seed), round \(round), step \(step)")
                }
                let count = try CLI.sqlite(store, "SELECT count(*) FROM instance")
                indexedRows = max(indexedRows, Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0)
                let command = Int.random(in: 0..<5, using: &random) == 0 ? ["undo"] : try randomCommand(&random)
                // A command may fail as a user's would (an item removed before); never inside the store.
                let run = try CLI.run(command + ["--store", store], stdin: Data())
                XCTAssertFalse(run.stderr.contains("SQLite error"), "\(command): \(run.stderr)")
            }
        }
        XCTAssertGreaterThan(indexedRows, 0, "the listings kept no instance: the index was not used")
    }

    /// An edit changes a series' kept instances at once; removing a calendar takes its months away; a year's
    /// listing is expanded and keeps nothing; a calendar keeps 24 months, the least recently made going first; a
    /// store that does not exist is not made by listing it.
    func testChangesAreSeenYearsAreExpandedAndOldMonthsGo() throws {
        try icskit(["import", CLI.fixture("demo/work.ics"), "--calendar", "Work", "-q"])
        let week = ["agenda", "--from", "2026-11-30", "--to", "+14d", "--tz", "Europe/Berlin", "--no-ids"]
        let before = try icskit(week).stdout
        let kept = try CLI.sqlite(store, "SELECT count(*) FROM instance").trimmingCharacters(
            in: .whitespacesAndNewlines)
        XCTAssertGreaterThan(Int(kept) ?? 0, 0)
        try icskit(["edit", "standup-7f3a@google.com", "--summary", "Weekly sync"])
        let after = try icskit(week).stdout
        XCTAssertFalse(after.contains("Stand-up\n"), after)
        XCTAssertEqual(
            before.components(separatedBy: "Stand-up ").count, after.components(separatedBy: "Weekly sync ").count)
        try assertSameListing(week, "after an edit")
        try icskit(["calendars", "Work", "--remove", "--yes"])
        try icskit(["import", CLI.fixture("demo/family.ics"), "--calendar", "Home", "-q"])
        try assertSameListing(week, "after a calendar's removal")
        let orphans = try CLI.sqlite(
            store, "SELECT count(*) FROM instanceMonth WHERE calendarID NOT IN (SELECT id FROM calendar)")
        XCTAssertEqual(orphans.trimmingCharacters(in: .whitespacesAndNewlines), "0")

        // A year is expanded, not kept; a calendar keeps at most 24 months, the least recently made going first.
        func months() throws -> Int {
            Int(
                try CLI.sqlite(store, "SELECT count(*) FROM instanceMonth").trimmingCharacters(
                    in: .whitespacesAndNewlines))
                ?? -1
        }
        let monthsBefore = try months()
        try assertSameListing(["agenda", "--from", "2027-01-01", "--to", "2028-01-01", "--tz", "UTC"], "a year")
        XCTAssertEqual(try months(), monthsBefore)
        for month in 1...26 {
            let day = String(format: "%04d-%02d-10", 2024 + (month - 1) / 12, (month - 1) % 12 + 1)
            try icskit(["agenda", "--from", day, "--to", "+1d", "--tz", "UTC", "--calendar", "Home"])
        }
        let utc = try CLI.sqlite(
            store, "SELECT count(*), max(month) - min(month) FROM instanceMonth WHERE viewerZone = 'UTC'")
        XCTAssertEqual(utc.trimmingCharacters(in: .whitespacesAndNewlines), "24 23", "the oldest two were dropped")

        // No store: listed from nothing, and nothing is made.
        let missing = path("missing.sqlite")
        let run = try CLI.run(week + ["--store", missing])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
    }

    /// The short handles of listed items follow UIDs that come and go: an item whose UID shares a longer start
    /// with a listed one lengthens the listed handle at once, and removing it shortens it again; a week's alarms
    /// are found by their kept times.
    func testKeptHandlesFollowUIDsThatComeAndGo() throws {
        func event(_ uid: String, _ day: Int) -> String {
            """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n\
            DTSTAMP:20260101T000000Z\r\nDTSTART:202612\(String(format: "%02d", day))T090000Z\r\n\
            DURATION:PT1H\r\nSUMMARY:Review \(uid)\r\nRRULE:FREQ=DAILY;COUNT=3\r\nBEGIN:VALARM\r\n\
            ACTION:DISPLAY\r\nDESCRIPTION:Soon\r\nTRIGGER:-PT30M\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """
        }
        try event("meeting-aaaa-1", 7).write(toFile: path("one.ics"), atomically: true, encoding: .utf8)
        try event("meeting-aaaa-2", 8).write(toFile: path("two.ics"), atomically: true, encoding: .utf8)
        try icskit(["import", path("one.ics"), "--calendar", "Work", "-q"])
        let week = ["agenda", "--from", "2026-12-07", "--to", "+7d", "--tz", "UTC"]
        XCTAssertTrue(try icskit(week).stdout.contains("(Work)  id:meetin\n"))
        try icskit(["import", path("two.ics"), "--calendar", "Home", "-q"])
        let both = try icskit(week).stdout
        XCTAssertTrue(both.contains("Review meeting-aaaa-1 ⟳ ⏰  (Work)  id:meeting-aaaa-1\n"), both)
        XCTAssertTrue(both.contains("(Home)  id:meeting-aaaa-2\n"), both)
        try assertSameListing(week, "a UID that lengthens another's handle")
        try icskit(["rm", "meeting-aaaa-2", "--yes"])
        XCTAssertTrue(try icskit(week).stdout.contains("(Work)  id:meetin\n"))
        try assertSameListing(week, "the longer UID gone")
        let remind = ["remind", "--now", "2026-12-08T08:00:00Z", "--within", "1h", "--tz", "UTC"]
        XCTAssertTrue(try icskit(remind).stdout.contains("Review meeting-aaaa-1: Soon at 09:00 (in 30 minutes)"))
        try assertSameListing(remind, "a reminder from kept alarm times")
    }
}
