import Foundation
import ICSKitTestSupport
import XCTest

/// `icskit sync CAL --vdir DIR` both ways, and the vdir it writes read by khal and todoman and synced by vdirsyncer.
final class VdirSyncCLITests: XCTestCase {
    var scratch: URL!
    var store: String { scratch.appendingPathComponent("store.sqlite").path }
    var vdir: URL { scratch.appendingPathComponent("calendars/personal") }

    override func setUpWithError() throws { scratch = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { if let scratch { try? FileManager.default.removeItem(at: scratch) } }

    func icskit(_ arguments: [String]) throws -> CLI.Run {
        try CLI.run(arguments + ["--store", store], timeout: 60)
    }

    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter { $0.hasSuffix(".ics") }.sorted()
    }

    func text(_ file: String) throws -> String {
        try String(contentsOf: vdir.appendingPathComponent(file), encoding: .utf8)
    }

    func syncJSON(_ arguments: [String] = []) throws -> [String: Any] {
        try CLI.syncReport(try icskit(["sync", "--json"] + arguments))
    }

    func stored() throws -> [String] { try CLI.storedItems(calendar: "Personal", store: store) }

    func testBothWaysEditsDeletionsAndOverrides() throws {
        XCTAssertEqual(
            try icskit(["import", CLI.fixture("hand/recurring-todos.ics"), "--calendar", "Personal", "-q"]).status, 0)
        let before = try stored()
        let first = try icskit(["sync", "Personal", "--vdir", vdir.path])
        XCTAssertEqual(first.status, 0, first.stderr)
        // One file per UID: the series with its override in one.
        XCTAssertEqual(try files().count, Set(before.map { $0.split(separator: " ")[0] }).count)
        XCTAssertTrue(try syncJSON()["idle"] as? Bool ?? false, "nothing changed: nothing read")

        // An edit in the vdir comes into the store; a todo done here goes out to the vdir.
        let plants = "plants@example.org.ics"
        let edited = try text(plants).replacingOccurrences(
            of: "SUMMARY:Water the plants", with: "SUMMARY:Water the ferns")
        XCTAssertNotEqual(edited, try text(plants))
        try edited.write(to: vdir.appendingPathComponent(plants), atomically: true, encoding: .utf8)
        XCTAssertEqual(try icskit(["done", "report@example.org"]).status, 0)
        let both = try syncJSON()
        // The series and its override both said "Water the plants".
        XCTAssertEqual((both["pulled"] as? [String: Any])?["updated"] as? Int, 2)
        XCTAssertEqual(both["updated"] as? Int, 1)
        XCTAssertTrue(try stored().contains("plants@example.org Water the ferns"))
        XCTAssertTrue(try text("report@example.org.ics").contains("STATUS:COMPLETED"))
        XCTAssertTrue(try syncJSON()["idle"] as? Bool ?? false)

        // A file deleted in the vdir is deleted here; an item deleted here is deleted there.
        try FileManager.default.removeItem(at: vdir.appendingPathComponent(plants))
        XCTAssertEqual(try icskit(["rm", "diary@example.org", "--yes"]).status, 0)
        let deletions = try syncJSON()
        XCTAssertEqual((deletions["pulled"] as? [String: Any])?["deleted"] as? Int, 2, "the series and its override")
        XCTAssertEqual(deletions["deleted"] as? Int, 1)
        XCTAssertFalse(try stored().contains { $0.hasPrefix("plants@") || $0.hasPrefix("diary@") })
        XCTAssertFalse(try files().contains(plants))
        XCTAssertFalse(try files().contains("diary@example.org.ics"))

        // A new file in the vdir, with an override, arrives as a series with its override.
        let series = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//test//EN\r
            BEGIN:VEVENT\r
            UID:yoga@vdir\r
            DTSTAMP:20261101T000000Z\r
            DTSTART:20261202T180000Z\r
            RRULE:FREQ=WEEKLY;COUNT=4\r
            SUMMARY:Yoga\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:yoga@vdir\r
            DTSTAMP:20261101T000000Z\r
            RECURRENCE-ID:20261209T180000Z\r
            DTSTART:20261209T190000Z\r
            SUMMARY:Yoga (late)\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        try series.write(to: vdir.appendingPathComponent("yoga.ics"), atomically: true, encoding: .utf8)
        XCTAssertEqual((try syncJSON()["pulled"] as? [String: Any])?["added"] as? Int, 2)
        XCTAssertTrue(try stored().contains("yoga@vdir Yoga (late)"))
        XCTAssertTrue(try syncJSON()["idle"] as? Bool ?? false)
    }

    func testExportToAVdirAndImportADirectory() throws {
        XCTAssertEqual(
            try icskit(["import", CLI.fixture("hand/recurring-todos.ics"), "--calendar", "Personal", "-q"]).status, 0)
        let export = try icskit(["export", "--calendar", "Personal", "--vdir", vdir.path])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertTrue(export.stderr.contains("5 files written, 0 already the same"), export.stderr)
        XCTAssertEqual(
            try String(contentsOf: vdir.appendingPathComponent("displayname"), encoding: .utf8), "Personal\n")
        let again = try icskit(["export", "--calendar", "Personal", "--vdir", vdir.path])
        XCTAssertTrue(again.stderr.contains("0 files written, 5 already the same"), again.stderr)

        // The directory read back as one calendar, named by its displayname file.
        let other = scratch.appendingPathComponent("other.sqlite").path
        let imported = try CLI.run(["import", vdir.path, "--store", other, "--json"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let listed = try CLI.run(["check-store", "--store", other])
        XCTAssertTrue(listed.stdout.contains("Personal"), listed.stdout)
        let exported = try CLI.run(["export", "--store", other])
        XCTAssertEqual(exported.stdout.components(separatedBy: "BEGIN:VTODO").count - 1, 4)
        XCTAssertEqual(try stored().count, exported.stdout.components(separatedBy: "\r\nUID:").count - 1)
    }

    func testBothSidesChangedTheSameItemMergedByFieldOrByTheNewest() throws {
        XCTAssertEqual(
            try icskit(["import", CLI.fixture("hand/recurring-todos.ics"), "--calendar", "Personal", "-q"]).status, 0)
        XCTAssertEqual(try icskit(["sync", "Personal", "--vdir", vdir.path]).status, 0)
        let file = "report@example.org.ics"
        // There: a new summary with a higher SEQUENCE; here: marked done. Different properties: both kept.
        var there = try text(file).replacingOccurrences(of: "SUMMARY:", with: "SUMMARY:Renamed ")
        there = there.replacingOccurrences(of: "BEGIN:VTODO\r\n", with: "BEGIN:VTODO\r\nSEQUENCE:9\r\n")
        try there.write(to: vdir.appendingPathComponent(file), atomically: true, encoding: .utf8)
        XCTAssertEqual(try icskit(["done", "report@example.org", "--series"]).status, 0)
        let plan = try icskit(["sync", "--dry-run"])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertTrue(
            plan.stdout.contains(
                "Personal: store: merged: \"Renamed Weekly report\" SUMMARY \"Weekly report\" → \"Renamed Weekly "
                    + "report\" (external), STATUS → \"COMPLETED\" (local)"), plan.stdout)
        XCTAssertTrue(plan.stdout.contains("Personal: vdir: would update report@example.org.ics"), plan.stdout)
        XCTAssertTrue(try text(file).contains("SEQUENCE:9"), "the dry run wrote nothing")
        let report = try syncJSON()
        XCTAssertEqual((report["pulled"] as? [String: Any])?["merged"] as? Int, 1)
        XCTAssertEqual((report["pulled"] as? [String: Any])?["conflicts"] as? Int, 0)
        XCTAssertEqual(report["updated"] as? Int, 1)
        XCTAssertTrue(try stored().contains { $0.hasPrefix("report@example.org Renamed") })
        let written = try text(file)
        XCTAssertTrue(written.contains("SUMMARY:Renamed Weekly report"), written)
        XCTAssertTrue(written.contains("STATUS:COMPLETED"), written)
        XCTAssertTrue(written.contains("SEQUENCE:10"), "above both sides' (9 there): \(written)")
        XCTAssertTrue(try syncJSON()["idle"] as? Bool ?? false, "both sides agree after one sync")

        // The same property changed on both sides: a conflict, which the later change (LAST-MODIFIED) wins; what
        // only this side changed (the completion time) stays.
        let once = "once@example.org.ics"
        var cancelled = try text(once).replacingOccurrences(
            of: "BEGIN:VTODO\r\n", with: "BEGIN:VTODO\r\nLAST-MODIFIED:20991231T000000Z\r\n")
        cancelled = cancelled.replacingOccurrences(of: "END:VTODO", with: "STATUS:CANCELLED\r\nEND:VTODO")
        try cancelled.write(to: vdir.appendingPathComponent(once), atomically: true, encoding: .utf8)
        XCTAssertEqual(try icskit(["done", "once@example.org"]).status, 0)
        let plan2 = try icskit(["sync", "--dry-run"])
        XCTAssertTrue(
            plan2.stdout.contains(
                "Personal: store: conflict, merged: \"Renew passport\" STATUS → \"COMPLETED\" (local) / \"CANCELLED\" "
                    + "(external): external wins"), plan2.stdout)
        let collision = try syncJSON()
        XCTAssertEqual((collision["pulled"] as? [String: Any])?["conflicts"] as? Int, 1)
        XCTAssertTrue(try text(once).contains("STATUS:CANCELLED"))
        XCTAssertTrue(try text(once).contains("PERCENT-COMPLETE:100"), "the local side's own change")
        XCTAssertTrue(try syncJSON()["idle"] as? Bool ?? false)
    }

    func testAnEmptiedVdirDeletesNothingWithoutForceDelete() throws {
        XCTAssertEqual(
            try icskit(["import", CLI.fixture("hand/recurring-todos.ics"), "--calendar", "Personal", "-q"]).status, 0)
        XCTAssertEqual(try icskit(["sync", "Personal", "--vdir", vdir.path]).status, 0)
        let count = try stored().count
        for file in try files() { try FileManager.default.removeItem(at: vdir.appendingPathComponent(file)) }
        let refused = try icskit(["sync"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("sync refused"), refused.stderr)
        XCTAssertEqual(try stored().count, count)
        XCTAssertEqual(try files(), [], "nothing written back either")
    }

    func testKhalAndTodomanReadTheVdirAndVdirsyncerSyncsIt() throws {
        let bin = URL(fileURLWithPath: CLI.pythonExecutable).deletingLastPathComponent()
        let khal = bin.appendingPathComponent("khal").path, todo = bin.appendingPathComponent("todo").path
        let vdirsyncer = bin.appendingPathComponent("vdirsyncer").path
        guard [khal, todo, vdirsyncer].allSatisfy(FileManager.default.isExecutableFile(atPath:)) else {
            throw Requirement.missing("khal, todoman and vdirsyncer are not in \(bin.path) (make venv installs them)")
        }
        XCTAssertEqual(
            try icskit(["import", CLI.fixture("hand/recurring-todos.ics"), "--calendar", "Personal", "-q"]).status, 0)
        XCTAssertEqual(try icskit(["sync", "Personal", "--vdir", vdir.path]).status, 0)

        let config = scratch.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let khalConfig = config.appendingPathComponent("khal.conf")
        try """
        [calendars]
        [[personal]]
        path = \(vdir.path)
        [locale]
        timeformat = %H:%M
        dateformat = %Y-%m-%d
        longdateformat = %Y-%m-%d
        datetimeformat = %Y-%m-%d %H:%M
        longdatetimeformat = %Y-%m-%d %H:%M
        [default]
        default_calendar = personal
        [sqlite]
        path = \(scratch.appendingPathComponent("khal.db").path)
        """.write(to: khalConfig, atomically: true, encoding: .utf8)
        let listed = try CLI.run(
            ["-c", khalConfig.path, "list", "--format", "{title}", "2026-01-01", "30d"], executable: khal, timeout: 60)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("Standup"), listed.stdout)

        let todoConfig = config.appendingPathComponent("todoman.py")
        try """
        path = "\(vdir.path)"
        date_format = "%Y-%m-%d"
        time_format = "%H:%M"
        cache_path = "\(scratch.appendingPathComponent("todoman.sqlite").path)"
        """.write(to: todoConfig, atomically: true, encoding: .utf8)
        let todos = try CLI.run(
            ["--config", todoConfig.path, "--porcelain", "list", "--status", "ANY"], executable: todo, timeout: 60)
        XCTAssertEqual(todos.status, 0, todos.stderr)
        XCTAssertTrue(todos.stdout.contains("Water the plants"), todos.stdout)

        // vdirsyncer copies the vdir to a second one; an item added there comes back through it and icskit.
        let mirror = scratch.appendingPathComponent("mirror")
        try FileManager.default.createDirectory(at: mirror, withIntermediateDirectories: true)
        let syncerConfig = config.appendingPathComponent("vdirsyncer")
        try """
        [general]
        status_path = "\(scratch.appendingPathComponent("status").path)"
        [pair personal]
        a = "icskit"
        b = "mirror"
        collections = null
        [storage icskit]
        type = "filesystem"
        path = "\(vdir.path)"
        fileext = ".ics"
        [storage mirror]
        type = "filesystem"
        path = "\(mirror.path)"
        fileext = ".ics"
        """.write(to: syncerConfig, atomically: true, encoding: .utf8)
        let syncer = { (arguments: [String]) in
            try CLI.run(
                ["--config", syncerConfig.path] + arguments, stdin: Data("y\n".utf8), executable: vdirsyncer,
                timeout: 120)
        }
        XCTAssertEqual(try syncer(["discover"]).status, 0)
        let copied = try syncer(["sync"])
        XCTAssertEqual(copied.status, 0, copied.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: mirror.path).filter { $0.hasSuffix(".ics") }.count,
            try files().count)
        let added = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//test//EN\r
            BEGIN:VTODO\r
            UID:mirror-task@test\r
            DTSTAMP:20261101T000000Z\r
            SUMMARY:Added in the mirror\r
            END:VTODO\r
            END:VCALENDAR\r

            """
        try added.write(to: mirror.appendingPathComponent("mirror-task.ics"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try syncer(["sync"]).status, 0)
        let back = try syncJSON()
        XCTAssertEqual((back["pulled"] as? [String: Any])?["added"] as? Int, 1)
        XCTAssertTrue(try stored().contains("mirror-task@test Added in the mirror"))
    }
}
