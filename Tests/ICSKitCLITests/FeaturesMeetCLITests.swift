import Foundation
import ICSKitTestSupport
import XCTest

/// Where features meet (issue 45): each class of fault found by using one command after another, on real exports
/// where the class came from one. The random command sequences of `CommandSequenceCLITests` look for the rest.
final class FeaturesMeetCLITests: StoreCLITestCase {
    /// The text no error line may hold: SQL, SQLite's, Foundation's and NIO's own words.
    static let rawErrorText = [
        "SQLite error", "INSERT INTO", "UPDATE ", "SELECT ", "NSCocoaErrorDomain", "NSPOSIXErrorDomain",
        "The operation could not be completed", "NIO", "Error Domain=",
    ]

    static func assertNoRawErrorText(
        _ text: String, _ context: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        for raw in rawErrorText where text.contains(raw) {
            XCTFail("\(context): \"\(raw)\" reached the user: \(text)", file: file, line: line)
        }
    }

    // MARK: 1. A search, then writes to the item it indexed

    func testWritesAfterASearchDoNotTripOverTheSearchIndex() throws {
        try icskit(["import", CLI.fixture("demo/work.ics"), "--calendar", "Work", "-q"])
        try icskit(["add", "event", "Tea", "--start", "2026-12-01 16:00", "--tz", "UTC"])
        XCTAssertTrue(try icskit(["search", "tea", "--no-ids"]).stdout.contains("Tea"))
        for location in ["A", "B", "C"] {
            let run = try icskit(["edit", "tea", "--location", location])
            Self.assertNoRawErrorText(run.stderr, "edit after search")
        }
        // Merge, import and undo-then-edit after a search write the same rows again.
        try icskit(["search", "planning"])
        try icskit(["merge", CLI.fixture("demo/work-changed.ics"), "--into", "Work", "-q"])
        try icskit(["import", CLI.fixture("demo/work.ics"), "--calendar", "Work", "-q"])
        try icskit(["merge", CLI.fixture("demo/work-changed.ics"), "--into", "Work", "-q"])
        try icskit(["undo"])
        try icskit(["edit", "tea", "--location", "D"])
        try icskit(["edit", "tea", "--location", "E"])
        XCTAssertTrue(try icskit(["search", "tea", "--no-ids"]).stdout.contains("Tea"))
        XCTAssertEqual(try icskit(["search", "E"]).status, 0)
        XCTAssertTrue(try icskit(["check-store"]).stdout.contains("integrity: ok"))
    }

    // MARK: 2. Folders, and errors said in one line

    func testValidateAndConvertTakeFoldersAndSayNoRawErrors() throws {
        let folder = path("exports"), nested = path("exports/more")
        try FileManager.default.createDirectory(atPath: nested, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.fixture("demo/work.ics"), toPath: folder + "/work.ics")
        try FileManager.default.copyItem(atPath: CLI.fixture("demo/family.ics"), toPath: nested + "/family.ics")
        try "not a calendar".write(toFile: folder + "/notes.txt", atomically: true, encoding: .utf8)

        let validated = try CLI.run(["validate", folder + "/"])
        XCTAssertEqual(validated.status, 0, validated.stderr)
        XCTAssertTrue(validated.stderr.contains("in 2 files"), validated.stderr)
        Self.assertNoRawErrorText(validated.stdout + validated.stderr, "validate DIR/")

        let out = path("json")
        let converted = try CLI.run(["convert", folder, "--to", "jcal", "--out-dir", out])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/work.json"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/more/family.json"), "a file keeps its place")

        let noOutDir = try CLI.run(["convert", folder])
        XCTAssertEqual(noOutDir.status, 1)
        XCTAssertEqual(noOutDir.stderr.split(separator: "\n").count, 1, noOutDir.stderr)
        XCTAssertTrue(noOutDir.stderr.contains("--out-dir"), noOutDir.stderr)

        let empty = path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let nothing = try CLI.run(["validate", empty])
        XCTAssertEqual(nothing.status, 1)
        XCTAssertTrue(nothing.stderr.contains("no .ics file in this folder"), nothing.stderr)

        // A file that is not there, a store that is a folder: one line each, no library text.
        for arguments in [
            ["agenda", path("missing.ics")], ["import", path("missing.ics")], ["convert", path("missing.ics")],
            ["show", "x", "--store", folder], ["add", "event", "X", "--start", "today", "--store", folder],
        ] {
            let run = try CLI.run(arguments)
            XCTAssertEqual(run.status, 1, "\(arguments): \(run.stderr)")
            Self.assertNoRawErrorText(run.stderr, arguments.joined(separator: " "))
        }
    }

    /// A store SQLite cannot write is one line saying so, never SQLite's own words.
    func testAFailingStoreIsOneLineWithoutSQLiteText() throws {
        try icskit(["add", "event", "Tea", "--start", "2026-12-01 16:00"])
        // A trigger another program left (the store cannot foresee it): SQLite refuses every change of an item.
        try CLI.sqliteScript(store, "CREATE TRIGGER refuse BEFORE UPDATE ON item BEGIN SELECT RAISE(ABORT, 'no'); END;")
        let run = try icskit(["edit", "tea", "--location", "A"], status: 1)
        Self.assertNoRawErrorText(run.stderr, "a refused write")
        XCTAssertTrue(run.stderr.contains("nothing was changed"), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
    }

    /// A server nobody runs, and a dead proxy: one line each naming what could not be reached and the operating
    /// system's reason, never the network library's own text (loopback only: port 1 is not served).
    func testNetworkFailuresAreSaidWithoutTheLibrarysWords() throws {
        let refused = try icskit(["subscribe", "http://127.0.0.1:1/x.ics", "--into", "X", "--timeout", "5"], status: 1)
        XCTAssertTrue(refused.stderr.contains("cannot connect to 127.0.0.1 port 1: connection refused"), refused.stderr)
        let proxied = try CLI.run(
            ["subscribe", "https://127.0.0.1:2/x.ics", "--into", "Y", "--timeout", "5", "--store", store],
            environment: ["HTTPS_PROXY": "http://127.0.0.1:1"])
        XCTAssertEqual(proxied.status, 1)
        XCTAssertTrue(proxied.stderr.contains("cannot connect to the proxy 127.0.0.1 port 1"), proxied.stderr)
        for run in [refused, proxied] {
            Self.assertNoRawErrorText(run.stderr, "a failed connection")
            for raw in ["errno", "SingleConnectionFailure", "error set"] { XCTAssertFalse(run.stderr.contains(raw)) }
        }
    }

    // MARK: 4. Handles of UIDs that hold only changed instances

    func testEveryHandleAgendaPrintsResolvesForInstanceOnlyItems() throws {
        // khal's test file: two changed instances of a weekly series whose master is not in the file.
        try icskit(["import", CLI.fixture("corpus-copies/khal-recuid-no-master.ics"), "--calendar", "Work", "-q"])
        let agenda = try icskit(["agenda", "--from", "2014-06-30", "--to", "+14d", "--tz", "UTC"]).stdout
        let handles = Set(
            agenda.components(separatedBy: "id:").dropFirst().map { String($0.prefix { !$0.isWhitespace }) })
        XCTAssertEqual(handles.count, 1, agenda)
        for handle in handles {
            XCTAssertTrue(try icskit(["show", "id:" + handle]).stdout.contains("Arbeit"))
            XCTAssertTrue(try icskit(["show", handle]).stdout.contains("Arbeit"))
        }
        let uid = "abe304dc-f7b1-4f2b-997d-5c8bcfaa7e0b"
        try icskit(["edit", uid, "--location", "Büro"])
        XCTAssertTrue(try icskit(["show", uid]).stdout.contains("Büro"))
        try icskit(["rm", uid, "--yes"])
        XCTAssertEqual(try CLI.sqlite(store, "SELECT count(*) FROM item"), "0\n")
    }

    // MARK: 6. One date grammar

    func testToCountsFromFromAndTheDateWordsRead() throws {
        try icskit(["add", "event", "Early", "--start", "2026-12-01 09:30", "--tz", "UTC"])
        try icskit(["add", "event", "Late", "--start", "2026-12-01 12:30", "--tz", "UTC"])
        let twoHours = try icskit([
            "agenda", "--from", "2026-12-01 08:00", "--to", "+2h", "--tz", "UTC", "--no-ids",
        ]).stdout
        XCTAssertTrue(twoHours.contains("Early") && !twoHours.contains("Late"), twoHours)
        let day = try icskit(["agenda", "--from", "2026-12-01", "--to", "+1d", "--tz", "UTC", "--no-ids"]).stdout
        XCTAssertTrue(day.contains("Early") && day.contains("Late"), day)
        for words in ["this friday", "9am", "noon", "now", "Dec 1", "1 Dec", "dec 1 2027 9:30pm", "friday midnight"] {
            let run = try icskit(["add", "event", "At \(words)", "--start", words, "--tz", "UTC"])
            XCTAssertTrue(run.stderr.hasPrefix("added event \"At \(words)\": "), run.stderr)
        }
        let shown = try icskit(["show", "At dec 1 2027"]).stdout
        XCTAssertTrue(shown.contains("2027-12-01 21:30"), shown)
    }

    // MARK: 7. Warnings said once, where the file was read

    func testAZoneThatDisagreesWithTZDataIsReportedAtImportOnly() throws {
        let imported = try icskit(["import", CLI.fixture("hand/stale-vtimezones.ics"), "--calendar", "Old"])
        XCTAssertTrue(
            imported.stderr.contains(
                "stale-vtimezones.ics:19: warning: the VTIMEZONE for TZID \"America/New_York\" "
                    + "disagrees with tzdata"), imported.stderr)
        for listing in [
            ["agenda", "--from", "2026-03-01", "--to", "+30d"],
            ["agenda", "--from", "2026-01-01", "--to", "2027-06-01"],
            ["export", "--calendar", "Old", "--format", "html", "--week", "2026-W11"],
            ["freebusy", "--week", "2026-W11"],
        ] {
            let run = try icskit(listing + ["--tz", "UTC"])
            XCTAssertFalse(run.stderr.contains("disagrees"), "\(listing): \(run.stderr)")
            XCTAssertFalse(run.stderr.contains("store.sqlite:"), "\(listing): \(run.stderr)")
        }
        let check = try icskit(["check-store"]).stdout
        XCTAssertTrue(check.contains("Old: warning: the VTIMEZONE for TZID \"Europe/Moscow\" disagrees"), check)
    }

    // MARK: 8. Say what was made, name what is unknown

    func testAddSaysWhatItMadeAndAnUnknownOptionIsNamed() throws {
        let added = try icskit([
            "add", "event", "Dentist", "--start", "2026-12-04 09:30", "--tz", "Europe/Berlin", "--calendar", "Health",
        ])
        XCTAssertTrue(added.stdout.hasSuffix("@icskit\n"), "the UID alone on standard output, for scripts")
        XCTAssertEqual(
            added.stderr,
            "added event \"Dentist\": Fri 2026-12-04 09:30 Europe/Berlin, to Health (a new calendar)\n")
        let second = try icskit(["add", "todo", "Pay rent", "--due", "2026-12-01", "--calendar", "Health"])
        XCTAssertEqual(second.stderr, "added todo \"Pay rent\": due Tue 2026-12-01 (all day), to Health\n")

        let title = try icskit(["edit", "dentist", "--title", "X"], status: 2)
        XCTAssertTrue(title.stderr.contains("Unknown option '--title'"), title.stderr)
        let nothing = try icskit(["edit", "dentist"], status: 2)
        XCTAssertTrue(nothing.stderr.contains("say what to change"), nothing.stderr)
    }

    func testExportExpandKeepsTodos() throws {
        try icskit(["import", CLI.fixture("hand/recurring-todos.ics"), "--calendar", "Tasks", "-q"])
        let plain = try icskit(["export", "--from", "2026-11-01", "--to", "2027-01-01"]).stdout
        let expanded = try icskit(["export", "--from", "2026-11-01", "--to", "2027-01-01", "--expand"]).stdout
        XCTAssertTrue(plain.contains("BEGIN:VTODO"), plain)
        XCTAssertGreaterThan(expanded.components(separatedBy: "BEGIN:VTODO").count, 1, expanded)
        XCTAssertFalse(expanded.contains("RRULE"), expanded)
    }

    // MARK: Found by the command sequences

    /// Undoing the add that made a calendar, after the calendar was bound to a vdir, took the calendar and its
    /// binding away, so the next `sync Work --vdir` bound it afresh and took the item back from the vdir. A bound
    /// calendar stays; the next sync carries the undo there.
    func testUndoingTheAddThatMadeABoundCalendarIsCarriedToTheVdir() throws {
        let vdir = path("work")
        try icskit(["add", "event", "Budget", "--start", "2026-12-11 12:00", "--tz", "UTC", "--calendar", "Work"])
        try icskit(["sync", "Work", "--vdir", vdir])
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: vdir).filter { $0.hasSuffix(".ics") }.count, 1)
        try icskit(["undo"])  // the sync: nothing of the user's
        let undone = try icskit(["undo"]).stdout
        XCTAssertTrue(undone.contains("the next sync carries this there"), undone)
        // The dry run says what the sync then does: the item goes there too (it was read as never deleted here).
        let planned = try icskit(["sync", "--dry-run"]).stdout
        XCTAssertTrue(planned.contains("Work: vdir: would delete"), planned)
        XCTAssertFalse(planned.contains("restored"), planned)
        try icskit(["sync", "Work", "--vdir", vdir])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: vdir).filter { $0.hasSuffix(".ics") }, [])
        XCTAssertEqual(try CLI.sqlite(store, "SELECT count(*) FROM item"), "0\n")
        XCTAssertTrue(try icskit(["calendars"]).stdout.contains("Work  0 items"))
    }

    // MARK: 9. Private stays private

    func testAVdirICSKitWritesIsPrivate() throws {
        try icskit(["add", "event", "Tea", "--start", "2026-12-01 16:00"])
        let vdir = path("cal")
        try icskit(["sync", "Personal", "--vdir", vdir])
        let folderMode = try FileManager.default.attributesOfItem(atPath: vdir)[.posixPermissions] as? Int
        XCTAssertEqual(folderMode, 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: vdir).filter { $0.hasSuffix(".ics") }
        XCTAssertEqual(files.count, 1)
        for file in files {
            let mode = try FileManager.default.attributesOfItem(atPath: vdir + "/" + file)[.posixPermissions] as? Int
            XCTAssertEqual(mode, 0o600, file)
        }
    }
}
