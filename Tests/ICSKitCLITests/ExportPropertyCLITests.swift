import Foundation
import ICSKitTestSupport
import XCTest

/// `export` of a window, as a property: for random stores (real exports from Google, Apple and the demo, generated
/// calendars in four zones, and series added with random rules in random zones) and random windows (`--week`,
/// `--month`, `--from/--to`), what export writes validates with no error and no warning, python icalendar reads it
/// without an error, and recurring-ical-events finds in it the instances `agenda` shows of the store.
final class ExportPropertyCLITests: StoreCLITestCase {
    static let sources = [
        "demo/work.ics", "demo/family.ics", "demo/work-changed.ics", "corpus-copies/google-issue52.ics",
        "corpus-copies/apple-icloud.ics",
    ]
    static let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "UTC"]

    func testExportedWindowsValidateCleanAndReadTheSameInstancesElsewhere() throws {
        try CLI.requirePythonTools()
        var (random, seed, stores) = SeededGenerator.start(
            "export property test", seedVariable: "ICSKIT_EXPORT_SEED", countVariable: "ICSKIT_EXPORT_STORES",
            defaultCount: 4, unit: "stores")
        var compared = 0
        for round in 0..<stores {
            try makeStore(&random, round: round)
            for _ in 0..<3 {
                let (arguments, from, to) = window(&random)
                let context = "seed \(seed), store \(round), export \(arguments.joined(separator: " "))"
                let file = path("window-\(compared).ics")
                try icskit(["export"] + arguments + ["--tz", "UTC", "-o", file])
                let mine = try agendaLines(from: from, to: to)
                let validated = try CLI.run(["validate", file])
                XCTAssertEqual(validated.status, 0, "\(context): \(validated.stderr)")
                // A window that holds nothing is written as an empty calendar, which RFC 5545 §3.6 does not
                // allow (it asks for a component): validate warns of exactly that, export said so on stderr.
                let components =
                    try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "BEGIN:").count - 2
                let expected = components == 0 ? "0 errors, 1 warning in 1 file\n" : "0 errors, 0 warnings in 1 file\n"
                XCTAssertTrue(
                    validated.stderr.hasSuffix(expected), "\(context): \(validated.stdout)\(validated.stderr)")
                XCTAssertEqual(CLI.pythonIcalendarErrors(file).trimmingCharacters(in: .whitespacesAndNewlines), "0")
                let theirs = try Self.recurringICalEventsLines(file, from: from, to: to)
                XCTAssertEqual(
                    theirs, mine,
                    "\(context): only recurring-ical-events \(Set(theirs).subtracting(mine).sorted()), only agenda "
                        + "\(Set(mine).subtracting(theirs).sorted()) (\(file))")
                compared += mine.count
            }
        }
        XCTAssertGreaterThan(compared, 20 * stores, "the windows hold instances to compare")
    }

    /// One file imported into two calendars, then changed in one: the export of both holds each UID once, the
    /// newer version (SEQUENCE 1 beats 0), and says so.
    func testAUIDInTwoCalendarsIsExportedOnceInItsNewerVersion() throws {
        try icskit(["import", CLI.fixture("demo/work.ics"), "--calendar", "Work", "-q"])
        try icskit(["import", CLI.fixture("demo/work-changed.ics"), "--calendar", "Office", "-q"])
        let file = path("week.ics")
        let run = try icskit(["export", "--week", "2026-W48", "--tz", "UTC", "-o", file])
        XCTAssertTrue(
            run.stderr.contains(
                "warning: UID one-on-one-c4d2@google.com is in calendars Office and Work; the version of Office is "
                    + "written"), run.stderr)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertEqual(text.components(separatedBy: "UID:one-on-one-c4d2@google.com").count, 2, text)
        XCTAssertTrue(text.contains("DTSTART;TZID=Europe/Berlin:20261124T150000"), text)
        let validated = try CLI.run(["validate", file])
        XCTAssertTrue(
            validated.stderr.hasSuffix("0 errors, 0 warnings in 1 file\n"), validated.stdout + validated.stderr)
    }

    /// recurring-ical-events' instances in [from, to) as instants in UTC (dates alone would be read in each event's
    /// own zone), written as `CLI.recurringICalEventsLines` writes them.
    static func recurringICalEventsLines(_ file: String, from: String, to: String) throws -> [String] {
        let script = """
            import sys, datetime, icalendar, recurring_ical_events
            sys.path.insert(0, sys.argv[4])
            from differential import normalized as text
            calendar = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            utc = lambda day: datetime.datetime.fromisoformat(day + 'T00:00:00+00:00')
            for item in recurring_ical_events.of(calendar).between(utc(sys.argv[2]), utc(sys.argv[3])):
                print(item.name, text(item.get('DTSTART').dt), item.get('SUMMARY', ''))
            """
        let run = CLI.python(["-c", script, file, from, to, CLI.package.appendingPathComponent("scripts").path])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout.split(separator: "\n").map(String.init).sorted()
    }

    /// The instances `agenda` shows of the store in [from, to), as `CLI.agendaLines` writes them.
    func agendaLines(from: String, to: String) throws -> [String] {
        let run = try icskit(["agenda", "--from", from, "--to", to, "--tz", "UTC", "--json", "-q"])
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        return rows.map { "\($0["component"]!) \($0["start"]!) \($0["summary"] as? String ?? "")" }.sorted()
    }

    func makeStore(_ random: inout SeededGenerator, round: Int) throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
        // work-changed.ics is the next export of work.ics (the same UIDs): merged into the same calendar.
        let workCalendar = "C\(Int.random(in: 1...3, using: &random))"
        for source in Self.sources where Bool.random(using: &random) {
            let calendar = source.hasPrefix("demo/work") ? workCalendar : "C\(Int.random(in: 1...3, using: &random))"
            try icskit(
                [source.hasSuffix("changed.ics") ? "merge" : "import", CLI.fixture(source)]
                    + [source.hasSuffix("changed.ics") ? "--into" : "--calendar", calendar, "-q"])
        }
        // A generated calendar (every zone of gen_ics, series with EXDATEs and moved instances).
        let count = Int.random(in: 30...120, using: &random)
        let generated = CLI.python([
            CLI.package.deletingLastPathComponent().appendingPathComponent("shared/tools/gen_ics.py").path,
            String(count),
        ])
        if generated.status == 0 {
            let file = path("generated-\(round).ics")
            try generated.stdout.write(toFile: file, atomically: true, encoding: .utf8)
            try icskit(["import", file, "--calendar", "Generated", "-q"])
        }
        for index in 0..<Int.random(in: 2...6, using: &random) {
            let zone = Self.zones.randomElement(using: &random)!
            let day = String(
                format: "2026-%02d-%02d", Int.random(in: 1...12, using: &random), Int.random(in: 1...28, using: &random)
            )
            var arguments = [
                "add", "event", "Added \(index)", "--start", "\(day) \(Int.random(in: 0...23, using: &random)):30",
                "--duration", "\(Int.random(in: 1...4, using: &random))h", "--tz", zone, "--calendar", "Added",
            ]
            switch Int.random(in: 0..<5, using: &random) {
            case 0: arguments += ["--repeat", "weekly"]
            case 1: arguments += ["--repeat", "FREQ=MONTHLY;BYDAY=-1FR", "--count", "12"]
            case 2: arguments += ["--repeat", "daily", "--until", "2027-01-15"]
            case 3:
                (arguments[4], arguments[6]) = (day, "\(Int.random(in: 1...3, using: &random))d")
                arguments += ["--all-day", "--repeat", "yearly"]
            default: break
            }
            try icskit(arguments)
        }
    }

    /// A random window: (export's arguments, its first day, the day after it), in UTC.
    func window(_ random: inout SeededGenerator) -> ([String], String, String) {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let format = DateFormatter()
        format.calendar = calendar
        format.timeZone = calendar.timeZone
        format.locale = Locale(identifier: "en_US_POSIX")
        format.dateFormat = "yyyy-MM-dd"
        let year = Int.random(in: 2025...2027, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            let week = Int.random(in: 1...52, using: &random)
            let monday = calendar.date(from: DateComponents(weekday: 2, weekOfYear: week, yearForWeekOfYear: year))!
            let next = calendar.date(byAdding: .day, value: 7, to: monday)!
            return (
                ["--week", String(format: "%04d-W%02d", year, week)], format.string(from: monday),
                format.string(from: next)
            )
        case 1:
            let month = Int.random(in: 1...12, using: &random)
            let first = calendar.date(from: DateComponents(year: year, month: month, day: 1))!
            let next = calendar.date(byAdding: .month, value: 1, to: first)!
            return (
                ["--month", String(format: "%04d-%02d", year, month)], format.string(from: first),
                format.string(from: next)
            )
        default:
            let first = calendar.date(
                from: DateComponents(
                    year: year, month: Int.random(in: 1...12, using: &random),
                    day: Int.random(in: 1...28, using: &random)))!
            let next = calendar.date(byAdding: .day, value: Int.random(in: 1...40, using: &random), to: first)!
            let (from, to) = (format.string(from: first), format.string(from: next))
            return (["--from", from, "--to", to], from, to)
        }
    }
}
