import Foundation
import XCTest

/// `make demo` runs scripts/demo.sh with the release icskit on PATH; here it runs with the icskit the tests built, in
/// a temporary DEMO_DIR: it must tell the whole story and end with the path of the PNG it rendered.
final class DemoScriptTests: XCTestCase {
    func testTheDemoShowsTwoCalendarsWeekAndEndsWithItsPicture() throws {
        _ = try HTMLExportCLITests.chromium()
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = directory.appendingPathComponent("demo")
        let binaries = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path
        let run = try CLI.run(
            [CLI.package.appendingPathComponent("scripts/demo.sh").path], in: CLI.package, executable: "/bin/bash",
            timeout: 300,
            environment: [
                "PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                "DEMO_DIR": demo.path,
            ])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        // The last line names the PNG, and it is one.
        let last = try XCTUnwrap(lines.last)
        XCTAssertEqual(last, "The week as a picture: \(demo.path)/week.png")
        let png = try Data(contentsOf: demo.appendingPathComponent("week.png"))
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        XCTAssertGreaterThan(png.count, 20_000)
        // The echoed commands are what a user types.
        let commands = lines.filter { $0.hasPrefix("$ ") }
        XCTAssertGreaterThan(commands.count, 10)
        for command in commands { XCTAssertTrue(command.hasPrefix("$ icskit ") || command.hasPrefix("$ chromium ")) }
        XCTAssertTrue(commands.contains("$ icskit done \"birthday present\""), commands.joined(separator: "\n"))
        // The week's agenda: at least ten instances, from both calendars, a series and its moved instance.
        let agendaStart = try XCTUnwrap(lines.firstIndex(of: "$ icskit agenda --week 2026-W48 --tz Europe/Berlin"))
        let agenda = lines[(agendaStart + 1)...].prefix { !$0.hasPrefix("== ") && !$0.hasPrefix("$ ") }
        let instances = agenda.filter { $0.hasPrefix("  ") }
        XCTAssertGreaterThanOrEqual(instances.count, 10, agenda.joined(separator: "\n"))
        XCTAssertTrue(instances.contains { $0.contains("(Work)") } && instances.contains { $0.contains("(Family)") })
        XCTAssertTrue(instances.contains { $0.contains("Stand-up (moved for the workshop) ⟳ changed") })
        // The merge of the changed export, by name.
        XCTAssertTrue(run.stdout.contains("update: \"1:1 with Priya\" DTSTART 14:00 → 15:00"), run.stdout)
        XCTAssertTrue(run.stdout.contains("delete: \"Retrospective\""))
        // The invitation: waiting, answered by a mail, moved (asked again), cancelled.
        XCTAssertTrue(
            run.stdout.contains(
                "REQUEST lunch@example.org: added \"Déjeuner au café\" in Invitations: your answer is needed"),
            run.stdout)
        XCTAssertTrue(run.stdout.contains("13:00–14:00  Déjeuner au café [answer needed]  (Invitations)"), run.stdout)
        XCTAssertTrue(run.stdout.contains("Subject: =?UTF-8?B?"), run.stdout)
        XCTAssertTrue(run.stdout.contains("Content-Type: text/calendar; charset=UTF-8; method=REPLY"), run.stdout)
        XCTAssertTrue(run.stdout.contains("14:00–15:00  Déjeuner au café [answer needed]  (Invitations)"), run.stdout)
        XCTAssertTrue(run.stdout.contains("CANCEL lunch@example.org: cancelled \"Déjeuner au café\""), run.stdout)
        XCTAssertTrue(run.stdout.contains("14:00–15:00  Déjeuner au café [cancelled]  (Invitations)"), run.stdout)
        XCTAssertTrue(run.stdout.contains("add: \"Demo day rehearsal\""))
        XCTAssertTrue(
            run.stdout.contains("1 added, 1 updated, 0 merged, 1 deleted, 8 unchanged, 0 conflicts"), run.stdout)
        // The page holds both calendars' events.
        let page = try String(contentsOf: demo.appendingPathComponent("week.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("Dinner with the Müllers") && page.contains("Demo day rehearsal"))
        XCTAssertFalse(page.contains(">Retrospective<"))
    }
}
