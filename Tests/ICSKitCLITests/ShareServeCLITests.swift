import CalendarSync
import Foundation
import ICSKitTestSupport
import XCTest

/// `icskit share`, `serve` and `publish` run as a user would: a planner's calendar shared at each level, read over
/// loopback by ICSKit's own `subscribe`, python icalendar with recurring-ical-events, and vdirsyncer into khal.
final class ShareServeCLITests: StoreCLITestCase {
    /// What no level below full may show, and what no level at all may show (private items' text, alarms, ICSKit's
    /// own properties).
    static let detailText = [
        "root canal", "dentist@clinic.example", "ana@example.org", "https://clinic.example/booking", "HEALTH",
        "X-CLINIC-REF", "dentist-uid-1", "standup-uid-2",
    ]
    static let neverText = [
        "Therapy", "Dr Wright", "Job interview", "Lawyer", "Tell nobody", "Bring the X-ray", "X-ICSKIT-",
        "Holiday reminder", "Cancelled lunch", "Standup skipped",
    ]

    /// A planner's calendar around `today` (UTC): a public event with every detail, private, confidential and
    /// unknown-CLASS ones, a transparent and a cancelled one, tentative and out-of-office, a weekly series inside the
    /// window with a moved and a transparent override, and a daily series without end (expanded in the feed).
    static func planner(today: Date) -> String {
        func at(_ days: Int, _ hour: Int) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMdd'T'HH'0000Z'"
            let day = Calendar(identifier: .gregorian).startOfDay(for: today)
            return formatter.string(from: day.addingTimeInterval(TimeInterval(days * 86_400 + hour * 3600)))
        }
        func event(_ uid: String, _ days: Int, _ hour: Int, _ summary: String, _ extra: [String] = []) -> [String] {
            [
                "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261101T000000Z", "DTSTART:\(at(days, hour))",
                "DTEND:\(at(days, hour + 1))", "SUMMARY:\(summary)",
            ] + extra + ["END:VEVENT"]
        }
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//planner//EN"]
        lines += event(
            "dentist-uid-1", 2, 9, "Dentist",
            [
                "LOCATION:Clinic Zürich", "DESCRIPTION:root canal", "CLASS:PUBLIC",
                "ORGANIZER:mailto:dentist@clinic.example", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:ana@example.org",
                "URL:https://clinic.example/booking", "CATEGORIES:HEALTH", "X-CLINIC-REF:77",
                "X-ICSKIT-REPEAT-FROM:COMPLETION", "BEGIN:VALARM", "ACTION:DISPLAY",
                "DESCRIPTION:Bring the X-ray", "TRIGGER:-PT1H", "END:VALARM",
            ])
        lines += event("therapy", 3, 15, "Therapy", ["CLASS:PRIVATE", "LOCATION:Dr Wright", "DESCRIPTION:Tell nobody"])
        lines += event("interview", 4, 11, "Job interview", ["CLASS:CONFIDENTIAL"])
        lines += event("lawyer", 5, 14, "Lawyer", ["CLASS:X-SECRET-ISH"])
        lines += event("holiday", 6, 0, "Holiday reminder", ["TRANSP:TRANSPARENT"])
        lines += event("lunch", 7, 12, "Cancelled lunch", ["STATUS:CANCELLED"])
        lines += event("drinks", 8, 18, "Maybe drinks", ["STATUS:TENTATIVE"])
        lines += event("vacation", 20, 8, "Vacation", ["X-MICROSOFT-CDO-BUSYSTATUS:OOF"])
        lines += event("standup-uid-2", 1, 10, "Standup", ["RRULE:FREQ=WEEKLY;COUNT=6", "LOCATION:Room 4"])
        lines += event("standup-uid-2", 8, 13, "Standup (moved)", ["RECURRENCE-ID:\(at(8, 10))", "LOCATION:Room 5"])
        lines += event(
            "standup-uid-2", 15, 10, "Standup skipped", ["RECURRENCE-ID:\(at(15, 10))", "TRANSP:TRANSPARENT"])
        lines += event("gym", -60, 7, "Gym", ["RRULE:FREQ=DAILY"])
        lines.append("END:VCALENDAR")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The planner in a store as calendar Work; its file's path.
    func plannerStore() throws -> String {
        let file = path("planner.ics")
        try Self.planner(today: Date()).write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try icskit(["import", file, "--calendar", "Work", "-q"]).status, 0)
        return file
    }

    /// `share …` as run, and the address it printed.
    func share(_ arguments: [String]) throws -> String {
        let run = try icskit(["share"] + arguments)
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "the address alone on standard output: \(run.stdout)")
        return String(lines.first ?? "")
    }

    /// The store's rows, table by table (the undo log's own aside): what serving must not change.
    func storeDump() throws -> String {
        let tables = try CLI.sqlite(
            store, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        return try tables.split(separator: "\n").map { try CLI.sqlite(store, "SELECT * FROM \"\($0)\" ORDER BY 1") }
            .joined(separator: "\n--\n")
    }

    func testEachLevelShowsTheBusyInstancesAndNothingItHides() throws {
        try CLI.requirePythonTools()
        let original = try plannerStore()
        let addresses = try ShareLevelTable.allCases.map { level in
            (level, try share(["Work", "--level", level.rawValue]))
        }
        let before = try storeDump()
        let server = try ServedStore(store: store, folder: directory)
        let day: TimeInterval = 86_400
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let (start, end) = (formatter.string(from: Date() - 20 * day), formatter.string(from: Date() + 300 * day))
        for (level, printed) in addresses {
            let probe = CLI.python([
                CLI.package.appendingPathComponent("scripts/feed_probe.py").path, "levels", server.url(printed),
                original, start, end,
            ])
            XCTAssertEqual(probe.status, 0, probe.stderr)
            let read = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
            let got = try XCTUnwrap(read["instances"] as? [[String]]),
                expected = try XCTUnwrap(read["expected"] as? [[String]])
            let text = try XCTUnwrap(read["text"] as? String)
            XCTAssertEqual(got.map(\.[0]), expected.map(\.[0]), "\(level): exactly the busy instances")
            XCTAssertGreaterThan(got.count, 250, "the daily series is there")
            XCTAssertTrue(text.contains("RRULE:FREQ=DAILY;UNTIL="), "kept as a rule, cut to the window: \(level)")
            for hidden in Self.neverText { XCTAssertFalse(text.contains(hidden), "\(level) shows \(hidden)") }
            for detail in Self.detailText where level != .full {
                XCTAssertFalse(text.contains(detail), "\(level) shows \(detail)")
            }
            let summaries = Set(got.map(\.[1]))
            switch level {
            case .busy:
                XCTAssertEqual(summaries, ["Busy", "Tentative", "Out of office"], "\(level)")
                XCTAssertEqual(Set(got.map(\.[2])), [""], "no location at busy")
            case .titles:
                XCTAssertTrue(summaries.isSuperset(of: ["Dentist", "Standup", "Standup (moved)", "Gym", "Busy"]))
                XCTAssertTrue(got.contains { $0[1] == "Dentist" && $0[2] == "Clinic Zürich" }, "title and place")
            case .full:
                XCTAssertTrue(text.contains("root canal") && text.contains("dentist-uid-1"), "all details at full")
                XCTAssertTrue(summaries.contains("Busy"), "a private item is busy even at full")
            }
            XCTAssertTrue(text.contains("X-WR-CALNAME:Work-\(level.rawValue)") && text.contains("X-PUBLISHED-TTL:PT1H"))
            XCTAssertTrue(text.contains("METHOD:PUBLISH") && text.contains("REFRESH-INTERVAL;VALUE=DURATION:PT1H"))
        }
        server.stop()
        XCTAssertEqual(try storeDump(), before, "serving changed the store")
    }

    func testSubscribeToAServedFeedAndVdirsyncerIntoKhal() throws {
        _ = try plannerStore()
        let printed = try share(["Work", "--level", "titles", "--name", "ana-titles"])
        let server = try ServedStore(store: store, folder: directory)
        let url = server.url(printed)

        // ICSKit's own subscribe, into a second store.
        let other = path("other.sqlite")
        let subscribed = try CLI.run(["subscribe", url, "--into", "Ana", "--store", other])
        XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
        let agenda = try CLI.run(["agenda", "--store", other, "--to", "+30d", "--tz", "UTC"])
        XCTAssertTrue(agenda.stdout.contains("Dentist") && agenda.stdout.contains("Standup (moved)"), agenda.stdout)
        XCTAssertFalse(agenda.stdout.contains("Therapy") || agenda.stdout.contains("Holiday reminder"), agenda.stdout)

        // vdirsyncer's http storage into a vdir, which khal lists.
        let bin = URL(fileURLWithPath: CLI.pythonExecutable).deletingLastPathComponent()
        let khal = bin.appendingPathComponent("khal").path, vdirsyncer = bin.appendingPathComponent("vdirsyncer").path
        guard [khal, vdirsyncer].allSatisfy(FileManager.default.isExecutableFile(atPath:)) else {
            throw Requirement.missing("khal and vdirsyncer are not in \(bin.path) (make venv installs them)")
        }
        let vdir = directory.appendingPathComponent("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        let config = path("vdirsyncer.conf")
        try """
        [general]
        status_path = "\(path("status"))"
        [pair shared]
        a = "feed"
        b = "local"
        collections = null
        conflict_resolution = "a wins"
        [storage feed]
        type = "http"
        url = "\(url)"
        [storage local]
        type = "filesystem"
        path = "\(vdir.path)"
        fileext = ".ics"
        """.write(toFile: config, atomically: true, encoding: .utf8)
        for step in [["discover"], ["sync"]] {
            let run = try CLI.run(
                ["--config", config] + step, stdin: Data("y\n".utf8), executable: vdirsyncer, timeout: 120)
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        try """
        [calendars]
        [[shared]]
        path = \(vdir.path)
        [locale]
        timeformat = %H:%M
        dateformat = %Y-%m-%d
        longdateformat = %Y-%m-%d
        datetimeformat = %Y-%m-%d %H:%M
        longdatetimeformat = %Y-%m-%d %H:%M
        [default]
        default_calendar = shared
        [sqlite]
        path = \(path("khal.db"))
        """.write(toFile: path("khal.conf"), atomically: true, encoding: .utf8)
        let listed = try CLI.run(
            ["-c", path("khal.conf"), "list", "--format", "{title}|{location}", "today", "30d"], executable: khal,
            timeout: 60)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("Dentist|Clinic Zürich"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("Busy|"), "the private items, as busy: \(listed.stdout)")
        XCTAssertFalse(listed.stdout.contains("Therapy"), listed.stdout)
    }

    func testRevokeAndResetTakeEffectWhileServing() throws {
        _ = try plannerStore()
        let first = try share(["Work", "--name", "partner"])
        let server = try ServedStore(store: store, folder: directory)
        XCTAssertEqual(try server.get(server.url(first)).status, 200)

        let list = try icskit(["share", "--list"])
        XCTAssertTrue(list.stdout.contains("partner  busy · -30d..+12mo · Work"), list.stdout)
        let token = String(first.split(separator: "/").last!.dropLast(4))
        XCTAssertFalse(list.stdout.contains(token) || list.stdout.contains("feeds/"), "no address in the list")
        XCTAssertFalse(try CLI.sqlite(store, "SELECT * FROM share").contains(token), "the store keeps no token")

        let reset = try share(["--reset", "partner"])
        XCTAssertNotEqual(reset, first)
        XCTAssertEqual(try server.get(server.url(first)).status, 404, "the old address is dead")
        XCTAssertEqual(try server.get(server.url(reset)).status, 200)

        let revoked = try icskit(["share", "--revoke", reset])
        XCTAssertTrue(revoked.stdout.contains("Revoked the share \"partner\""), revoked.stdout)
        XCTAssertEqual(try server.get(server.url(reset)).status, 404)
        XCTAssertEqual(try icskit(["share", "--revoke", "partner"], status: 1).status, 1)

        // Undo brings the share back, and with it its address.
        XCTAssertEqual(try icskit(["undo"]).status, 0)
        XCTAssertEqual(try server.get(server.url(reset)).status, 200, "undo restored the revoked share")
    }

    func testPublishWritesTheFeedsAsFilesAndRemovesRevokedOnes() throws {
        _ = try plannerStore()
        let folder = directory.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "keep me".write(to: folder.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        let printed = try share([
            "Work", "--name", "site", "--base-url", "https://cal.example.org", "--publish", folder.path,
        ])
        XCTAssertTrue(printed.hasPrefix("https://cal.example.org/feeds/"), printed)
        let file = folder.appendingPathComponent(String(printed.split(separator: "/").last!))
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8).contains("SUMMARY:Busy"))

        XCTAssertEqual(
            try icskit(["add", "event", "Late addition", "--start", "tomorrow 20:00", "--calendar", "Work"]).status, 0)
        let before = try String(contentsOf: file, encoding: .utf8)
        let published = try icskit(["publish", "--to", folder.path])
        XCTAssertTrue(published.stdout.contains("Wrote site (busy)."), published.stdout)
        XCTAssertNotEqual(try String(contentsOf: file, encoding: .utf8), before, "the new event is in")

        XCTAssertEqual(try icskit(["share", "--revoke", "site"]).status, 0)
        XCTAssertEqual(try icskit(["publish", "--to", folder.path]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "a revoked share's file is removed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("index.html").path))
    }

    func testShareRefusesWhatItCannotDo() throws {
        _ = try plannerStore()
        XCTAssertTrue(try icskit(["share", "Nope"], status: 1).stderr.contains("no calendar \"Nope\""))
        XCTAssertEqual(try icskit(["share", "Work", "--window", "30d"], status: 2).status, 2)
        XCTAssertEqual(try icskit(["share", "Work", "--window", "-1y..+20y"], status: 2).status, 2, "at most 5y")
        XCTAssertEqual(try icskit(["share", "Work", "--window", "-7d..+3mo", "--name", "short"]).status, 0)
        XCTAssertEqual(try icskit(["share", "Work", "--base-url", "ftp://x"], status: 2).status, 2)
        XCTAssertEqual(try icskit(["share"], status: 2).status, 2)
        _ = try share(["Work"])
        XCTAssertTrue(try icskit(["share", "Work"], status: 1).stderr.contains("a share named \"Work-busy\" exists"))
    }
}

/// The levels, as the tests walk them.
enum ShareLevelTable: String, CaseIterable { case busy, titles, full }
