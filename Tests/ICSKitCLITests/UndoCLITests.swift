import Foundation
import ICSKitTestSupport
import XCTest

/// `icskit undo` on stores made from real exports, and its property: undoing each command in turn gives back the
/// store as it was before that command, row for row.
final class UndoCLITests: StoreCLITestCase {
    /// Every table the user's data lives in, row by row with rowids (read by python's sqlite3, a client of its
    /// own), and the newest undo step's id. The search index and the undo log itself are left out, and calendars'
    /// generation counters; the derived rows of items (categories, relations) are compared too.
    func snapshot() throws -> (rows: String, step: Int) {
        guard FileManager.default.fileExists(atPath: store) else { return ("", 0) }
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            step = db.execute("SELECT coalesce(max(id), 0) FROM undoStep").fetchone()[0]
            print(step)
            skip = ("sqlite_", "grdb_", "undo", "itemSearch", "instance")
            for name, sql in db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name"):
                if name.startswith(skip) or sql.upper().startswith("CREATE VIRTUAL"):
                    continue
                # relation rows are derived from item content and made again by undo: their rowids may differ.
                # a calendar's generation is a counter every change moves on, undo included (a shared feed is
                # built again): not the user's data.
                names = ", ".join(
                    c[1] for c in db.execute(f'PRAGMA table_info("{name}")') if c[1] != "generation")
                columns = names if "WITHOUT ROWID" in sql.upper() or name == "relation" else "rowid, " + names
                for row in sorted(repr(r) for r in db.execute(f'SELECT {columns} FROM "{name}"')):
                    print(name, row)
            """
        let run = CLI.python(["-c", script, store])
        guard run.status == 0 else {
            throw NSError(domain: "sqlite3", code: 1, userInfo: [NSLocalizedDescriptionKey: run.stderr])
        }
        let lines = run.stdout.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        return (lines.count > 1 ? String(lines[1]) : "", Int(lines[0]) ?? -1)
    }

    func agenda() throws -> String {
        try icskit(["agenda", "--from", "2000-01-01", "--to", "2031-01-01", "--tz", "UTC", "--no-ids"]).stdout
    }

    func testUndoTakesBackRemovalsEditsAndRenamesOnRealExports() throws {
        try icskit(["undo"]).stdout.assertContains("nothing to undo")
        try icskit(["import", CLI.fixture("corpus-copies/google-issue52.ics"), "--calendar", "Google", "-q"])
        try icskit(["import", CLI.fixture("corpus-copies/outlook-2010.ics"), "--calendar", "Outlook", "-q"])
        try icskit(["import", CLI.fixture("corpus-copies/apple-icloud.ics"), "--calendar", "Apple", "-q"])
        let (imported, _) = try snapshot()
        let agendaBefore = try agenda()
        XCTAssertTrue(agendaBefore.contains("Daily"), agendaBefore)

        // The Apple daily series, through its UID prefix; a location on the Outlook item; a renamed calendar.
        try icskit(["rm", "6D0A3855", "--yes"])
        XCTAssertNotEqual(try agenda(), agendaBefore)
        try icskit(["edit", "Team Meeting", "--location", "Room R"])
        try icskit(["calendars", "Google", "--rename", "Work"])
        let list = try icskit(["undo", "--list"]).stdout
        XCTAssertEqual(list.split(separator: "\n").count, 6, list)
        XCTAssertTrue(
            list.split(separator: "\n")[0].hasSuffix("icskit calendars Google --rename Work --store \(store)"), list)

        // A dry run says what it would do and changes nothing.
        let (renamed, _) = try snapshot()
        let dry = try icskit(["undo", "--dry-run"]).stdout
        dry.assertContains("would undo: icskit calendars Google --rename Work")
        XCTAssertEqual(try snapshot().rows, renamed)

        try icskit(["undo"]).stdout.assertContains("undone: icskit calendars Google --rename Work")
        try icskit(["undo"]).stdout.assertContains("items: 1 changed back")
        let restored = try icskit(["undo"]).stdout
        restored.assertContains("undone: icskit rm 6D0A3855 --yes")
        restored.assertContains("items: 1 restored")
        XCTAssertEqual(try snapshot().rows, imported)
        XCTAssertEqual(try agenda(), agendaBefore)
        // The series is found again: the search index takes back what undo restored.
        try icskit(["search", "Daily", "--calendar", "Apple"]).stdout.assertContains("id:6D0A38")

        // Then the imports themselves, newest first, down to the empty store.
        try icskit(["undo"]).stdout.assertContains("undone: icskit import")
        try icskit(["undo"])
        try icskit(["undo"])
        XCTAssertEqual(try icskit(["calendars"]).stdout.contains("Google"), false)
        XCTAssertEqual(try snapshot().rows, "")
        try icskit(["undo"]).stdout.assertContains("nothing to undo")
    }

    /// Undoing a sync reverts what it did here and leaves what the partner holds: the next sync carries the undo
    /// to the partner (a vdir, as khal keeps one). Undoing a local deletion the sync had carried brings it back
    /// there too.
    func testUndoingASyncIsCarriedToThePartnerByTheNextSync() throws {
        let vdir = directory.appendingPathComponent("vdir")
        try icskit(["import", CLI.fixture("demo/work.ics"), "--calendar", "Work", "-q"])
        try icskit(["sync", "Work", "--vdir", vdir.path])
        func files() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter { $0.hasSuffix(".ics") }.sorted()
        }
        let all = try files()
        let retro = try XCTUnwrap(all.first { $0.hasPrefix("retro") })

        // Another client removed the retrospective; the sync removes it here; undo brings it back and says where
        // the next sync goes; that sync writes it to the vdir again.
        try FileManager.default.removeItem(at: vdir.appendingPathComponent(retro))
        try icskit(["sync", "Work"])
        XCTAssertFalse(try agenda().contains("Retrospective"))
        let undone = try icskit(["undo"]).stdout
        undone.assertContains("undone: icskit sync Work")
        undone.assertContains("items: 1 restored")
        undone.assertContains("Work is synced with vdir:")
        XCTAssertTrue(try agenda().contains("Retrospective"))
        try icskit(["sync", "Work"])
        XCTAssertEqual(try files(), all)

        // Another client retitled the planning meeting; undoing the sync that brought it puts the old title back
        // here, and the next sync writes that title to the vdir.
        let planning = try XCTUnwrap(all.first { $0.hasPrefix("planning") })
        let file = vdir.appendingPathComponent(planning)
        let original = try String(contentsOf: file, encoding: .utf8)
        try original.replacingOccurrences(of: "SUMMARY:Sprint planning", with: "SUMMARY:Sprint planning (moved)")
            .write(to: file, atomically: true, encoding: .utf8)
        try icskit(["sync", "Work"])
        XCTAssertTrue(try agenda().contains("Sprint planning (moved)"))
        try icskit(["undo"]).stdout.assertContains("items: 1 changed back")
        try icskit(["sync", "Work"])
        let synced = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(synced.contains("SUMMARY:Sprint planning\r\n"), synced)

        // A local rm carried out by a sync, then both undone: the file comes back.
        try icskit(["rm", "Retrospective", "--yes"])
        try icskit(["sync", "Work"])
        XCTAssertEqual(try files().count, all.count - 1)
        try icskit(["undo"])  // the sync: nothing changed here
        try icskit(["undo"]).stdout.assertContains("undone: icskit rm Retrospective")
        try icskit(["sync", "Work"])
        XCTAssertEqual(try files(), all)
    }

    func testAPasswordInACommandLineIsNotKeptInTheUndoLog() throws {
        try icskit(["import", CLI.fixture("demo/work.ics"), "--calendar", "https://ana:secret@example.com/x", "-q"])
        let label = try CLI.sqlite(store, "SELECT label FROM undoStep")
        XCTAssertFalse(label.contains("secret"), label)
        XCTAssertFalse(label.contains("ana"), label)
        label.assertContains("--calendar https://example.com/x")
    }

    /// Random command sequences over real fixtures: a command that records a step changed the store, one that does
    /// not changed nothing; undoing the steps in turn gives back each earlier store row for row.
    func testUndoingEachCommandRestoresTheStoreBeforeIt() throws {
        var (random, seed, sequences) = SeededGenerator.start(
            "undo property test", seedVariable: "ICSKIT_UNDO_SEED", countVariable: "ICSKIT_UNDO_SEQUENCES",
            defaultCount: 8, unit: "sequences")
        var undone = 0
        for sequence in 0..<sequences {
            try? FileManager.default.removeItem(atPath: store)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
            var stack: [(rows: String, command: [String])] = []
            for _ in 0..<Int.random(in: 4...9, using: &random) {
                let before = try snapshot()
                let command = try randomCommand(&random)
                let run = try CLI.run(command + ["--store", store], stdin: Data())
                let after = try snapshot()
                let context = "seed \(seed), sequence \(sequence), \(command.joined(separator: " ")): \(run.stderr)"
                if after.step != before.step {
                    stack.append((before.rows, command))
                } else {
                    XCTAssertEqual(after.rows, before.rows, "changed the store without an undo step: \(context)")
                }
            }
            while let (rows, command) = stack.popLast() {
                let run = try CLI.run(["undo", "--store", store])
                XCTAssertEqual(run.status, 0, run.stderr)
                XCTAssertEqual(
                    try snapshot().rows, rows,
                    "seed \(seed), sequence \(sequence): undo of \(command.joined(separator: " "))")
                undone += 1
            }
        }
        print("undo property test: \(undone) commands undone")
        XCTAssertGreaterThan(undone, sequences, "most sequences should change the store more than once")
    }
}

extension String {
    fileprivate func assertContains(_ part: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(contains(part), "\(part) not in:\n\(self)", file: file, line: line)
    }
}
