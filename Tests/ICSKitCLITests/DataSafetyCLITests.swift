import Foundation
import ICSKitTestSupport
import XCTest

/// Nothing is lost: truncated files delete nothing, mass deletions are refused, outputs never replace devices or
/// loosen permissions, failed writes fail the command, and the store survives concurrency, read-only media and
/// rows other programs wrote.
final class DataSafetyCLITests: XCTestCase {
    var directory: URL!
    var store: String { directory.appendingPathComponent("store.sqlite").path }

    override func setUpWithError() throws { directory = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    @discardableResult
    func icskit(_ arguments: [String], status expected: Int32? = 0, stdin: Data? = nil) throws -> CLI.Run {
        let run = try CLI.run(arguments + ["--store", store], stdin: stdin)
        if let expected {
            XCTAssertEqual(run.status, expected, "icskit \(arguments.joined(separator: " ")): \(run.stderr)")
        }
        return run
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A command that takes no store (convert, validate).
    @discardableResult
    func run(_ arguments: [String], status expected: Int32 = 0) throws -> CLI.Run {
        let run = try CLI.run(arguments)
        XCTAssertEqual(run.status, expected, "icskit \(arguments.joined(separator: " ")): \(run.stderr)")
        return run
    }

    /// A calendar of `count` events (a few of them todos), as one file.
    /// `summaryPrefix` goes to the items `prefixed` picks (all by default); the others are "Event".
    func calendar(
        _ count: Int, summaryPrefix: String = "Event", todoEvery: Int = 0,
        prefixed: (Int) -> Bool = { _ in true }
    ) -> String {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
        for index in 0..<count {
            let kind = todoEvery > 0 && index % todoEvery == 0 ? "VTODO" : "VEVENT"
            text +=
                "BEGIN:\(kind)\r\nUID:item-\(index)@test\r\nDTSTAMP:20260101T000000Z\r\n"
                + "LAST-MODIFIED:20260101T000000Z\r\nDTSTART:202603\(10 + index % 18)T09\(10 + index % 50)00Z\r\n"
                + "SUMMARY:\(prefixed(index) ? summaryPrefix : "Event") \(index) with enough text to make the file "
                + "longer\r\nEND:\(kind)\r\n"
        }
        return text + "END:VCALENDAR\r\n"
    }

    func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    func json(_ run: CLI.Run) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
    }

    func exportedUIDs(_ calendar: String) throws -> Set<String> {
        let text = try icskit(["export", "--calendar", calendar]).stdout
        return Set(text.components(separatedBy: "\r\n").filter { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) })
    }

    // MARK: 1. Truncated files and mass deletions

    func testATruncatedFileDeletesNothingAndDoesNotOverwriteTheCutItem() throws {
        let full = calendar(600)
        try icskit(["merge", try write("full.ics", full), "--into", "Work", "-q"])
        // The first third of the file: it ends inside an event, with no END:VCALENDAR.
        let bytes = Array(full.utf8)
        let cut = String(decoding: bytes[..<(bytes.count / 3)], as: UTF8.self)
        let run = try icskit(["merge", try write("cut.ics", cut), "--into", "Work", "--json"], status: 1)
        let result = try json(run)
        XCTAssertEqual(result["deleted"] as? Int, 0)
        XCTAssertEqual(result["updated"] as? Int, 0, "the event the file ends inside of is not taken")
        XCTAssertGreaterThan(result["withheld_deletions"] as? Int ?? 0, 350)
        XCTAssertTrue(run.stderr.contains("ends early (truncated)"), run.stderr)
        XCTAssertEqual(try exportedUIDs("Work").count, 600, "every item is still there")
        // The complete file again changes nothing; --force-delete does what was asked.
        let again = try json(icskit(["merge", path("full.ics"), "--into", "Work", "--json"]))
        XCTAssertEqual([again["added"], again["updated"], again["deleted"]].map { $0 as? Int }, [0, 0, 0])
        let forced = try json(
            icskit(["merge", path("cut.ics"), "--into", "Work", "--json", "--force-delete"], status: 1))
        XCTAssertGreaterThan(forced["deleted"] as? Int ?? 0, 350)
        // An import of a truncated file does not replace a complete item with its cut-short copy either.
        try icskit(["import", path("full.ics"), "--calendar", "Imported", "-q"])
        let imported = try json(icskit(["import", path("cut.ics"), "--calendar", "Imported", "--json", "-q"]))
        XCTAssertEqual(imported["updated"] as? Int, 0)
        XCTAssertEqual(imported["skipped"] as? Int, 1)
    }

    func testAMergeThatWouldDeleteMostOfACalendarIsRefused() throws {
        try icskit(["merge", try write("all.ics", calendar(100)), "--into", "Work", "-q"])
        let tenth = try write("tenth.ics", calendar(10))
        let refused = try icskit(["merge", tenth, "--into", "Work"], status: 1)
        XCTAssertTrue(refused.stderr.contains("would delete 90 of the 100 items of \"Work\""), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("Usage:"))
        XCTAssertEqual(try exportedUIDs("Work").count, 100, "refused: nothing deleted")
        // A higher limit lets it through; so does --force-delete.
        let allowed = try json(icskit(["merge", tenth, "--into", "Work", "--max-delete", "95", "--json"]))
        XCTAssertEqual(allowed["deleted"] as? Int, 90)
        try icskit(["merge", path("all.ics"), "--into", "Other", "-q"])
        let forced = try json(icskit(["merge", tenth, "--into", "Other", "--force-delete", "--json"]))
        XCTAssertEqual(forced["deleted"] as? Int, 90)
        // Ten deletions are always allowed, whatever share of a small calendar they are.
        try icskit(["merge", try write("twelve.ics", calendar(12)), "--into", "Small", "-q"])
        let small = try json(icskit(["merge", try write("two.ics", calendar(2)), "--into", "Small", "--json"]))
        XCTAssertEqual(small["deleted"] as? Int, 10)
        try icskit(["merge", tenth, "--into", "Work", "--max-delete", "101"], status: 2)
    }

    // MARK: A damaged store takes no writes

    /// A store SQLite's integrity check finds damaged takes no more writes (a damaged b-tree that is written can
    /// lose more) until a check passes again; a backup put back in its place works at once.
    func testADamagedStoreRefusesWritesUntilACheckPasses() throws {
        try icskit(["import", try write("many.ics", calendar(400)), "--calendar", "Work", "-q"])
        let backup = try Data(contentsOf: URL(fileURLWithPath: store))
        // The first page of the item table's b-tree (an interior page for 400 items) gets bytes that make no sense.
        let root = Int(
            try CLI.sqlite(store, "SELECT rootpage FROM sqlite_master WHERE name = 'item';")
                .trimmingCharacters(in: .whitespacesAndNewlines))!
        let pageSize = Int(try CLI.sqlite(store, "PRAGMA page_size;").trimmingCharacters(in: .whitespacesAndNewlines))!
        var damaged = backup
        let start = (root - 1) * pageSize + (root == 1 ? 100 : 0) + 8
        damaged.replaceSubrange(start..<start + 48, with: Data(repeating: 0x5A, count: 48))
        try damaged.write(to: URL(fileURLWithPath: store))

        let check = try icskit(["check-store"], status: 1)
        XCTAssertFalse(check.stdout.contains("integrity: ok"), check.stdout)
        let refused = try icskit(
            ["add", "event", "Written anyway", "--start", "2026-12-01 10:00", "--calendar", "Work"], status: 1)
        XCTAssertTrue(refused.stderr.contains("failed its integrity check"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains(".recover"), refused.stderr)
        try icskit(["rm", "e1@test"], status: 1)
        try icskit(["import", path("many.ics"), "--calendar", "Other", "-q"], status: 1)
        // Another name of the same file (a hard link, issue 59) finds the mark the file itself carries.
        let other = path("other-name.sqlite")
        XCTAssertEqual(link(store, other), 0)
        let linked = try CLI.run(["add", "event", "Through a link", "--start", "2026-12-01 10:00", "--store", other])
        XCTAssertEqual(linked.status, 1, linked.stderr)
        XCTAssertTrue(linked.stderr.contains("failed its integrity check"), linked.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store)), damaged, "nothing was written")

        // The backup in its place: the next check passes and takes the mark away; writes work again.
        try backup.write(to: URL(fileURLWithPath: store))
        XCTAssertTrue(try icskit(["check-store"]).stdout.contains("integrity: ok"))
        try icskit(["add", "event", "Written now", "--start", "2026-12-01 10:00", "--calendar", "Work"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: store + ".damaged"))
    }

    // MARK: 3. Local edits while a merge runs

    /// Starts icskit without waiting for it; `finish` collects it.
    func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = arguments + ["--store", store, "-q"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    func testEditsMadeWhileAMergeRunsAreNeverLost() throws {
        // Two versions of a 3,000-item file that differ in every other item, so each merge rewrites half of them,
        // the todos included; the local edits land at random moments of each merge. (The removed items are ones
        // the file does not change: a change there would rightly bring them back.)
        let first = try write("v1.ics", calendar(3000, summaryPrefix: "First", todoEvery: 3) { $0 % 2 == 0 })
        let second = try write("v2.ics", calendar(3000, summaryPrefix: "Second", todoEvery: 3) { $0 % 2 == 0 })
        try icskit(["merge", first, "--into", "Work", "--source", "feed", "-q"])
        var timings: [TimeInterval] = []
        let seed = SeededGenerator.seed(from: "ICSKIT_EDIT_SEED")
        print("edits during merges: seed \(seed) (ICSKIT_EDIT_SEED=\(seed) replays the moments)")
        var random = SeededGenerator(seed: seed)
        for trial in 0..<8 {
            let file = trial % 2 == 0 ? second : first
            let started = Date()
            let merge = try start(["merge", file, "--into", "Work", "--source", "feed"])
            let typical = timings.isEmpty ? 0.5 : timings.reduce(0, +) / Double(timings.count)
            Thread.sleep(forTimeInterval: Double.random(in: 0...typical, using: &random))
            let todo = "item-\(3 * (trial * 37 % 1000))@test", removed = "item-\(6 * trial + 1)@test"
            try icskit(["done", todo])
            try icskit([
                "add", "event", "Added during merge \(trial)", "--start", "2026-03-20T10:00",
                "--calendar", "Work",
            ])
            try icskit(["rm", removed])
            merge.waitUntilExit()
            timings.append(Date().timeIntervalSince(started))
            XCTAssertEqual(merge.terminationStatus, 0, "trial \(trial)")
            let exported = try icskit(["export", "--calendar", "Work"]).stdout.replacingOccurrences(
                of: "\r\n ", with: "")
            let items = exported.components(separatedBy: "BEGIN:V").dropFirst()
            let done = items.first { $0.contains("UID:\(todo)\r\n") }
            XCTAssertTrue(done?.contains("STATUS:COMPLETED") == true, "trial \(trial): the done on \(todo) was lost")
            XCTAssertTrue(exported.contains("SUMMARY:Added during merge \(trial)"), "trial \(trial): the add was lost")
            XCTAssertFalse(exported.contains("UID:\(removed)\r\n"), "trial \(trial): the rm was undone")
        }
    }

    func testAMergeKilledAtARandomMomentLeavesTheStoreWholeAndOneMergeFinishesIt() throws {
        let first = try write("v1.ics", calendar(3000, summaryPrefix: "First"))
        let second = try write("v2.ics", calendar(3000, summaryPrefix: "Second"))
        try icskit(["merge", first, "--into", "Work", "--source", "feed", "-q"])
        let seed = SeededGenerator.seed(from: "ICSKIT_KILL_SEED")
        print("merges killed: seed \(seed) (ICSKIT_KILL_SEED=\(seed) replays the moments)")
        var random = SeededGenerator(seed: seed)
        for trial in 0..<6 {
            let merge = try start(["merge", trial % 2 == 0 ? second : first, "--into", "Work", "--source", "feed"])
            Thread.sleep(forTimeInterval: Double.random(in: 0.05...1.5, using: &random))
            kill(merge.processIdentifier, SIGKILL)
            merge.waitUntilExit()
            XCTAssertEqual(try icskit(["check-store"]).status, 0)
            // All of one version or all of the other: never a mix.
            let summaries = try icskit(["export", "--calendar", "Work"]).stdout.components(separatedBy: "\r\n")
                .filter { $0.hasPrefix("SUMMARY:") }
            XCTAssertEqual(summaries.count, 3000, "trial \(trial)")
            let firsts = summaries.filter { $0.hasPrefix("SUMMARY:First") }.count
            XCTAssertTrue(firsts == 0 || firsts == 3000, "trial \(trial): \(firsts) of 3000 from the first version")
        }
        try icskit(["merge", second, "--into", "Work", "--source", "feed", "-q"])
        let again = try json(icskit(["merge", second, "--into", "Work", "--source", "feed", "--json"]))
        XCTAssertEqual([again["added"], again["updated"], again["deleted"]].map { $0 as? Int }, [0, 0, 0])
    }

    // MARK: 2. Where -o writes

    func testOutputOntoADeviceAFIFOOrALinkWritesThroughIt() throws {
        let input = try write("in.ics", calendar(3))
        var info = stat()
        // A null device stays the device (a rename over it would replace it with a file); this one is the test's own.
        if getuid() == 0 {
            let null = try CLI.deviceNode("null", minor: 3, in: directory)
            try run(["convert", input, "-o", null])
            XCTAssertEqual(lstat(null, &info), 0)
            XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR, "the null device is still a character device")
            XCTAssertEqual(info.st_rdev, CLI.deviceNumber(major: 1, minor: 3))
        }
        // A FIFO gets the output.
        let fifo = path("pipe")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let received = LockedData()
        let reader = Thread {
            // Opening for reading waits for the writer, as a shell's `cat pipe` does.
            let handle = FileHandle(forReadingAtPath: fifo)
            received.set(handle?.readDataToEndOfFile() ?? Data())
            try? handle?.close()
        }
        reader.start()
        try run(["convert", input, "--to", "jcal", "-o", fifo])
        let deadline = Date().addingTimeInterval(10)
        while !received.isSet, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertTrue(String(decoding: received.value, as: UTF8.self).hasPrefix("[\"vcalendar\""))
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is still a FIFO")
        // A symbolic link stays a link; the file it points to is replaced and keeps its 0600.
        let target = path("private.ics"), link = path("link.ics")
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        XCTAssertEqual(chmod(target, 0o600), 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try run(["convert", input, "-o", link])
        XCTAssertEqual(lstat(link, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFLNK)
        XCTAssertTrue(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("BEGIN:VCALENDAR"))
        XCTAssertEqual(stat(target, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "a 0600 calendar stays 0600")
    }

    func testOverwritingKeepsPermissionBitsAndExportNeverOverwritesTheStore() throws {
        let input = try write("in.ics", calendar(2))
        for mode: mode_t in [0o600, 0o640, 0o444] {
            let output = path("out-\(mode).ics")
            try Data("old".utf8).write(to: URL(fileURLWithPath: output))
            XCTAssertEqual(chmod(output, mode), 0)
            try run(["convert", input, "-o", output])
            var info = stat()
            XCTAssertEqual(stat(output, &info), 0)
            XCTAssertEqual(info.st_mode & 0o777, mode)
            XCTAssertTrue(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("BEGIN:VCALENDAR"))
        }
        try icskit(["import", input, "--calendar", "Work", "-q"])
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let refused = try icskit(["export", "-o", store], status: 1)
        XCTAssertTrue(refused.stderr.contains("refusing to write the export over the store itself"), refused.stderr)
        try FileManager.default.createSymbolicLink(atPath: path("alias.sqlite"), withDestinationPath: store)
        try icskit(["export", "-o", path("alias.sqlite")], status: 1)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store)), before)
        XCTAssertEqual(try icskit(["check-store"]).stdout.contains("integrity: ok"), true)
    }

    // MARK: 4. Failed writes to standard output

    func testAFailedWriteToStandardOutputFailsTheCommand() throws {
        // A full device of the test's own: every write to it fails with ENOSPC, as on a full disk.
        let full = try CLI.deviceNode("full", minor: 7, in: directory)
        let input = try write("in.ics", calendar(20))
        let bad = try write(
            "bad.ics",
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:a\r\n"
                + "DTSTAMP:20260101T000000Z\r\nDTSTART:20260101T100000Z\r\nGEO:abc\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        let commands: [[String]] = [
            ["convert", input], ["convert", input, "--to", "jcal"],
            [
                "agenda", input, "--from", "2026-03-01",
                "--to", "+30d", "--json", "--tz", "UTC",
            ],
            ["agenda", input, "--from", "2026-03-01", "--to", "+30d", "--tz", "UTC"], ["validate", bad, "--json"],
            ["validate", input, "--json"], ["convert", input, "-o", full],
        ]
        for command in commands {
            let run = try CLI.run(command, stdoutPath: full)
            XCTAssertEqual(run.status, 1, "\(command.joined(separator: " ")) > /dev/full: \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("No space left on device"), run.stderr)
        }
    }

    // MARK: 5, 6. The store under concurrency, on read-only media, and with rows others wrote

    func testFiveImportsCreatingTheSameStoreAtOnceAllLand() throws {
        let input = try write("in.ics", calendar(5))
        for round in 0..<8 {
            let fresh = path("fresh-\(round)/store.sqlite")
            let processes = (0..<5).map { index -> Process in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: CLI.binary)
                process.arguments = ["import", input, "--calendar", "C\(index)", "-q", "--store", fresh]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                return process
            }
            for process in processes { try process.run() }
            for process in processes { process.waitUntilExit() }
            XCTAssertEqual(processes.map(\.terminationStatus), [0, 0, 0, 0, 0], "round \(round)")
            let check = try CLI.run(["check-store", "--store", fresh])
            XCTAssertTrue(check.stdout.contains("integrity: ok"), check.stdout)
            for index in 0..<5 { XCTAssertTrue(check.stdout.contains("C\(index): 5 items"), check.stdout) }
        }
    }

    func testAReadOnlyStoreStillServesReads() throws {
        try icskit(["import", try write("in.ics", calendar(6, todoEvery: 3)), "--calendar", "Work", "-q"])
        let readOnly = try ReadOnlyRunner(storeFolder: directory)
        defer { readOnly.restore() }
        let check = try readOnly.run(["check-store", "--store", store])
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdout.contains("Work: 6 items"), check.stdout)
        let agenda = try readOnly.run([
            "agenda", "--from", "2026-03-01", "--to", "+30d", "--tz", "UTC", "--json",
            "--store", store,
        ])
        XCTAssertEqual(agenda.status, 0, agenda.stderr)
        XCTAssertEqual(agenda.stdout.components(separatedBy: "\"uid\"").count - 1, 4, "the four events")
        let export = try readOnly.run(["export", "--store", store])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertEqual(export.stdout.components(separatedBy: "BEGIN:VTODO").count - 1, 2)
        XCTAssertEqual(try readOnly.run(["todo", "--filter", "all", "--tz", "UTC", "--store", store]).status, 0)
        // A command that writes says why it cannot, exit 1, not a usage error.
        let write = try readOnly.run(["add", "todo", "New", "--store", store])
        XCTAssertEqual(write.status, 1)
        XCTAssertTrue(write.stderr.contains("cannot be written"), write.stderr)
        XCTAssertFalse(write.stderr.contains("Usage:"))
    }

    func testAMalformedStoreIsAClearErrorAndABadRowCrashesNothing() throws {
        try Data("this is not a database, just text\n".utf8).write(to: URL(fileURLWithPath: store))
        for command in [["agenda", "--today"], ["import", try write("in.ics", calendar(2))], ["check-store"]] {
            let run = try icskit(command, status: 1)
            XCTAssertTrue(run.stderr.contains("is not an ICSKit store"), run.stderr)
            XCTAssertFalse(run.stderr.contains("Usage:"), run.stderr)
        }
        try FileManager.default.removeItem(atPath: store)
        try icskit(["add", "todo", "Pay rent", "--category", "Home", "--calendar", "Home"])
        // Another program writes rows ICSKit would never write: a category without a name, a calendar without a
        // colour or items.
        let sql =
            "INSERT INTO category (name, color) VALUES (NULL, '#123456'); INSERT INTO calendar (name) VALUES ('Empty');"
        let python = CLI.python([
            "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); "
                + "c.commit()", store, sql,
        ])
        XCTAssertEqual(python.status, 0, python.stderr)
        let categories = try icskit(["categories"])
        XCTAssertTrue(categories.stdout.contains("Home  -  1 item"), categories.stdout)
        let check = try icskit(["check-store"], status: 1)
        XCTAssertTrue(check.stdout.contains("category row(s) without a name"), check.stdout)
        XCTAssertTrue(check.stdout.contains("Empty: 0 items"), check.stdout)
    }
}

/// Runs icskit against a store folder that cannot be written: as an unprivileged user when the tests run as root
/// (root writes anywhere), with the folder and file made read-only.
struct ReadOnlyRunner {
    let folder: URL
    let runAsNobody: Bool
    private let binary: String

    init(storeFolder: URL) throws {
        folder = storeFolder
        runAsNobody = getuid() == 0
        if runAsNobody {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                throw Requirement.missing("running as root without setpriv: a read-only store cannot be simulated")
            }
            // The unprivileged user needs to reach the binary (a copy beside the folder) and the folder.
            let copy = storeFolder.deletingLastPathComponent().appendingPathComponent(
                "icskit-\(storeFolder.lastPathComponent)")
            try? FileManager.default.removeItem(at: copy)
            try FileManager.default.copyItem(atPath: CLI.binary, toPath: copy.path)
            binary = copy.path
            chmod(binary, 0o755)
            var parent = storeFolder
            while parent.path != "/" {
                var info = stat()
                if stat(parent.path, &info) == 0, info.st_mode & 0o001 == 0 { chmod(parent.path, info.st_mode | 0o011) }
                parent = parent.deletingLastPathComponent()
            }
        } else {
            binary = CLI.binary
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: storeFolder.path)) ?? [] {
            chmod(storeFolder.appendingPathComponent(name).path, 0o444)
        }
        chmod(storeFolder.path, 0o555)
    }

    func run(_ arguments: [String]) throws -> CLI.Run {
        if runAsNobody {
            return try CLI.run(
                ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + arguments, in: folder,
                executable: "/usr/bin/setpriv")
        }
        return try CLI.run(arguments, in: folder)
    }

    func restore() {
        if runAsNobody { try? FileManager.default.removeItem(atPath: binary) }
        chmod(folder.path, 0o755)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            chmod(folder.appendingPathComponent(name).path, 0o644)
        }
    }
}
