import Foundation
import XCTest

/// The config file (issue 66): each key sets a default, the command line wins over the environment, which wins over
/// the file, which wins over the defaults; a bad file is named with its line and what to do.
final class ConfigCLITests: StoreCLITestCase {
    var config: String { path("config.toml") }

    /// icskit with the test's config file and no store from the environment (unless given).
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CLI.Run {
        try CLI.run(arguments, environment: ["ICSKIT_CONFIG": config, "ICSKIT_STORE": ""].merging(environment) { $1 })
    }

    func write(_ text: String) throws { try text.write(toFile: config, atomically: true, encoding: .utf8) }

    /// A file with every setting, on lines 2 to 7.
    var everySetting: String {
        """
        # my settings
        tz = "Europe/Berlin"
        calendar = "Work"
        first-weekday = "sunday"
        color = "always"
        store = "\(store)"
        me = ["ana@example.com", "ana.lopez@work.example"]
        """
    }

    func testEachKeyIsADefaultTheCommandLineOverrides() throws {
        try write(everySetting)
        // store: the file's, unless --store or ICSKIT_STORE.
        let imported = try run(["import", CLI.fixture("demo/work.ics"), "--calendar", "Work", "-q"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: store), "the config's store was used")
        let elsewhere = path("other.sqlite")
        XCTAssertEqual(try run(["calendars", "--store", elsewhere]).stdout.contains("Work"), false)
        XCTAssertFalse(try run(["calendars"], environment: ["ICSKIT_STORE": elsewhere]).stdout.contains("Work"))

        // tz: the 08:15Z stand-up at 09:15 in Berlin, 08:15 with --tz UTC; color: ANSI colours though not a terminal.
        let day = ["agenda", "--from", "2026-11-30", "--to", "+1d"]
        let berlin = try run(day).stdout
        XCTAssertTrue(berlin.contains("09:15"), berlin)
        XCTAssertTrue(berlin.contains("\u{1B}["), "color = always")
        let utc = try run(day + ["--tz", "UTC", "--color", "never"]).stdout
        XCTAssertTrue(utc.contains("08:15") && !utc.contains("\u{1B}["), utc)

        // first-weekday: this week from Sunday; --first-weekday wins.
        let week = ["week", "--json", "--week", "this"]
        let sunday = try XCTUnwrap(firstDay(try run(week).stdout))
        XCTAssertEqual(Self.weekday(sunday), 1, sunday)
        let monday = try XCTUnwrap(firstDay(try run(week + ["--first-weekday", "monday"]).stdout))
        XCTAssertEqual(Self.weekday(monday), 2, monday)

        // calendar: where add puts an item; --calendar wins.
        XCTAssertEqual(try run(["add", "event", "Tea", "--start", "2026-12-01 15:00"]).status, 0)
        XCTAssertEqual(try run(["add", "event", "Gym", "--start", "2026-12-01 18:00", "--calendar", "Home"]).status, 0)
        let work = try run(["agenda", "--from", "2026-12-01", "--to", "+1d", "--calendar", "Work", "--no-ids"]).stdout
        XCTAssertTrue(work.contains("Tea") && !work.contains("Gym"), work)

        // me: an invitation waiting for my answer is marked; --me with another address wins.
        XCTAssertEqual(
            try run(["import", CLI.fixture("hand/round4-lost-folds.ics"), "--calendar", "Inv", "-q"]).status, 0)
        try write(
            """
            store = "\(store)"
            me = "priya.raman@example.org"
            """)
        let invited = ["agenda", "--from", "2026-03-10", "--to", "+1d", "--no-ids", "--tz", "UTC"]
        XCTAssertTrue(try run(invited).stdout.contains("Budget review [answer needed]"))
        XCTAssertFalse(try run(invited + ["--me", "nobody@example.net"]).stdout.contains("[answer needed]"))
        try write(everySetting)

        // config: every setting with where it comes from.
        let shown = try run(["config"], environment: ["TZ": "UTC"]).stdout
        for line in [
            "tz            Europe/Berlin  (\(config):2)", "calendar      Work  (\(config):3)",
            "first-weekday sunday  (\(config):4)", "color         always  (\(config):5)",
            "store         \(store)  (\(config):6)",
            "me            ana@example.com,ana.lopez@work.example  (\(config):7)",
        ] {
            XCTAssertTrue(shown.contains(line), "\(line)\n\(shown)")
        }
        let overridden = try run(["config", "--store", elsewhere], environment: ["ICSKIT_ME": "bo@example.com"]).stdout
        XCTAssertTrue(overridden.contains("store         \(elsewhere)  (--store)"), overridden)
        XCTAssertTrue(overridden.contains("me            bo@example.com  (ICSKIT_ME)"), overridden)
    }

    func testWithoutAFileTheDefaultsHold() throws {
        let shown = try run(["config"], environment: ["TZ": "UTC", "ICSKIT_STORE": store]).stdout
        XCTAssertTrue(shown.contains("calendar      Personal  (default)"), shown)
        XCTAssertTrue(shown.contains("first-weekday monday  (default)"), shown)
        XCTAssertTrue(shown.contains("color         auto  (default)"), shown)
        XCTAssertTrue(shown.contains("store         \(store)  (ICSKIT_STORE)"), shown)
        XCTAssertTrue(shown.contains("(no config file at \(config))"), shown)
    }

    func testABadFileIsNamedWithItsLineAndWhatToDo() throws {
        for (text, line, what) in [
            ("tz = \"Europe/Berln\"\n", 1, "tz \"Europe/Berln\" is no time zone"),
            ("calendar = \"Work\"\ncolour = \"never\"\n", 2, "has no setting \"colour\""),
            ("color = \"sometimes\"\n", 1, "color \"sometimes\" is none of auto, always, never"),
            ("tz = \n", 1, "is not TOML"), ("first-weekday = 7\n", 1, "first-weekday must be a quoted string"),
        ] {
            try write(text)
            let agenda = try run(["agenda", "--from", "2026-11-30", "--store", store])
            XCTAssertEqual(agenda.status, 1, text)
            XCTAssertTrue(agenda.stderr.contains("\(config):\(line): \(what)"), "\(text): \(agenda.stderr)")
            XCTAssertTrue(agenda.stderr.contains("fix or remove the line"), agenda.stderr)
            XCTAssertFalse(agenda.stderr.contains("TOMLParseError"), "no library text: \(agenda.stderr)")
        }
    }

    func firstDay(_ json: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let days = object["days"] as? [[String: Any]]
        else { return nil }
        return days.first?["date"] as? String
    }

    /// 1 Sunday … 7 Saturday.
    static func weekday(_ isoDate: String) -> Int {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.component(.weekday, from: formatter.date(from: isoDate)!)
    }
}

/// `import`, `merge` and `refresh` print counts, not a line per item, unless `--verbose` (issue 66: a holiday feed
/// printed 159 lines).
final class QuietReportsCLITests: StoreCLITestCase {
    func testImportAndMergeSayCountsAndVerboseListsEachItem() throws {
        let plain = try icskit(["import", CLI.fixture("demo/work.ics"), "--calendar", "Work"]).stdout
        XCTAssertEqual(plain, "Work: 10 added, 0 updated, 0 unchanged, 0 skipped\n")
        let listed = try icskit(["import", CLI.fixture("demo/family.ics"), "--calendar", "Home", "--verbose"]).stdout
        let lines = listed.split(separator: "\n")
        XCTAssertGreaterThan(lines.count, 2, listed)
        XCTAssertTrue(lines.dropLast().allSatisfy { $0.hasPrefix("Home: added: \"") }, listed)

        // A merge of many new items names ten, then says how many more; --verbose names all.
        let generated = CLI.python([
            CLI.package.deletingLastPathComponent().appendingPathComponent("shared/tools/gen_ics.py").path, "40",
        ])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        try generated.stdout.write(toFile: path("many.ics"), atomically: true, encoding: .utf8)
        let merged = try icskit(["merge", path("many.ics"), "--into", "Many"]).stdout
        let adds = merged.split(separator: "\n").filter { $0.hasPrefix("add: ") }
        XCTAssertEqual(adds.count, 10, merged)
        XCTAssertTrue(merged.contains("… and "), merged)
        XCTAssertTrue(merged.contains("more (--verbose lists every item)"), merged)
        let all = try icskit(["merge", path("many.ics"), "--into", "Many2", "--verbose"]).stdout
        XCTAssertFalse(all.contains("… and "), all)
        XCTAssertGreaterThan(all.split(separator: "\n").filter { $0.hasPrefix("add: ") }.count, 10, all)
    }
}
