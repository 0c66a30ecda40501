import Foundation
import ICSKitTestSupport
import XCTest

/// Runs the built `icskit` binary as users do: arguments, standard input, exit status, both output streams.
enum CLI {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Whether the run was stopped for taking longer than its time limit.
        var timedOut = false
    }

    static let package = TestEnvironment.package
    static let corpus = package.deletingLastPathComponent().appendingPathComponent("shared/fixtures/corpus")

    static func fixture(_ name: String) -> String { TestEnvironment.fixture(name) }

    /// The `icskit` executable SwiftPM built beside this test bundle (override with ICSKIT_BIN).
    static let binary: String = ProcessInfo.processInfo.environment["ICSKIT_BIN"] ?? builtExecutable("icskit")

    /// An executable of this package that SwiftPM built beside this test bundle.
    static func builtExecutable(_ name: String) -> String {
        let candidates = [Bundle.main.bundleURL] + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for directory in candidates {
            let path = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return package.appendingPathComponent(".build/debug/" + name).path
    }

    /// Runs icskit (or `executable`) with arguments. `stdoutPath` sends standard output to that file instead of
    /// capturing it (a device node of the test's own, say); a run that outlives `timeout` seconds is killed and
    /// comes back with `timedOut` set.
    static func run(
        _ arguments: [String], stdin: Data? = nil, in directory: URL? = nil, executable: String? = nil,
        stdoutPath: String? = nil, timeout: TimeInterval? = nil, environment: [String: String] = [:]
    ) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? binary)
        process.arguments = arguments
        // Never the user's own store: a command given no --store gets a throwaway one.
        process.environment = ProcessInfo.processInfo.environment.merging(
            [
                "ICSKIT_STORE": FileManager.default.temporaryDirectory
                    .appendingPathComponent("icskit-tests-default-\(UUID().uuidString).sqlite").path,
                // Never the user's own config file either: a test that wants one names it.
                "ICSKIT_CONFIG": FileManager.default.temporaryDirectory
                    .appendingPathComponent("icskit-tests-no-config-\(UUID().uuidString).toml").path,
            ].merging(environment) { _, new in new }
        ) { _, new in new }
        if let directory { process.currentDirectoryURL = directory }
        // Output goes to files, not pipes, so a large output can never block the child.
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout"), errURL = scratch.appendingPathComponent("stderr")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        process.standardOutput = try FileHandle(forWritingTo: stdoutPath.map(URL.init(fileURLWithPath:)) ?? outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // A watchdog kills a run that outlives its time; one that ends sooner is not waited for any longer.
        let watchdog = Watchdog()
        if let timeout {
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                if watchdog.fire() { kill(pid, SIGKILL) }
            }
        }
        process.waitUntilExit()
        let timedOut = !watchdog.disarm()
        return Run(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self), timedOut: timedOut)
    }

    /// Runs an SQL script on a store as another program would (python's sqlite3 `executescript`: statements with
    /// their own semicolons, such as a trigger's body, stay whole).
    static func sqliteScript(_ path: String, _ script: String) throws {
        let run = python([
            "-c", "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.executescript(sys.argv[2]); db.close()",
            path, script,
        ])
        guard run.status == 0 else {
            throw NSError(domain: "sqlite3", code: Int(run.status), userInfo: [NSLocalizedDescriptionKey: run.stderr])
        }
    }

    /// Runs SQL on a store file with python's sqlite3 module (a second, independent client of the file) and
    /// returns what it selected, a row a line with columns joined by spaces.
    @discardableResult
    static func sqlite(_ path: String, _ sql: String) throws -> String {
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            out = []
            for statement in sys.argv[2].split(";"):
                if statement.strip():
                    out += [" ".join(str(v) for v in row) for row in db.execute(statement)]
            db.commit()
            db.close()
            print("".join(line + "\\n" for line in out), end="")
            """
        let run = python(["-c", script, path, sql])
        guard run.status == 0 else {
            throw NSError(domain: "sqlite3", code: Int(run.status), userInfo: [NSLocalizedDescriptionKey: run.stderr])
        }
        return run.stdout
    }

    /// A character device node of the test's own, like the system's null (minor 3) or full (minor 7) device, made
    /// in `directory`: tests never write to the system's own paths. Needs root (mknod); skips otherwise.
    static func deviceNode(_ name: String, minor: Int32, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        guard mknod(path, S_IFCHR | 0o666, deviceNumber(major: 1, minor: minor)) == 0 else {
            throw Requirement.missing("cannot make a device node (\(String(cString: strerror(errno)))): needs root")
        }
        return path
    }

    /// Linux's encoding of a device number (glibc's makedev, a C macro Swift does not see), for small numbers.
    static func deviceNumber(major: Int32, minor: Int32) -> dev_t { dev_t((major & 0xfff) << 8 | (minor & 0xff)) }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("icskit-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The Python the tests compare with: `ICSKIT_PYTHON` (`make test` sets it to the virtual environment under
    /// .build), else `.build/venv` when `make venv` made it, else `python3` on the PATH.
    static let pythonExecutable = TestEnvironment.pythonExecutable

    /// Runs that Python with arguments; status 127 when it cannot be started.
    static func python(_ arguments: [String], stdin: Data? = nil) -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [pythonExecutable] + arguments
        let output = Pipe(), errors = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        guard (try? process.run()) != nil else { return Run(status: 127, stdout: "", stderr: "no python3") }
        // Read both streams while the child runs, so neither pipe can fill up and block it.
        let errorData = LockedData()
        let reader = Thread { errorData.set(errors.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.isSet { Thread.sleep(forTimeInterval: 0.01) }
        return Run(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: errorData.value, as: UTF8.self))
    }

    /// Skips the test, saying why, when python icalendar and the tools beside it are missing (`make venv`).
    static func requirePythonTools() throws {
        let check = python(["-c", "import icalendar, recurring_ical_events, dateutil"])
        guard check.status == 0 else {
            throw Requirement.missing(
                "python icalendar is not available to \(pythonExecutable) (make venv installs it)")
        }
    }

    /// The instances `icskit agenda --json --tz UTC` lists in a window, one sorted line each:
    /// `COMPONENT START SUMMARY` (START in UTC, or a bare date, or a floating time).
    static func agendaLines(
        _ file: String, from: String, to: String, components: String = "event", extra: [String] = []
    ) throws -> [String] {
        let run = try CLI.run(
            ["agenda", file, "--from", from, "--to", to, "--tz", "UTC", "--json", "-q", "--component", components]
                + extra)
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        return rows.map { "\($0["component"]!) \($0["start"]!) \($0["summary"] as? String ?? "")" }.sorted()
    }

    /// The same lines from recurring-ical-events, run live in the test Python (`requirePythonTools` first).
    static func recurringICalEventsLines(
        _ file: String, from: String, to: String, components: String = "event"
    ) throws -> [String] {
        // Times are written as scripts/differential.py writes them (UTC with Z, floating bare, dates alone).
        let script = """
            import sys, datetime, icalendar, recurring_ical_events
            sys.path.insert(0, sys.argv[5])
            from differential import normalized as text
            calendar = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            kinds = ['V' + kind.upper() for kind in sys.argv[4].split(',')]
            query = recurring_ical_events.of(calendar, components=kinds)
            day = datetime.date.fromisoformat
            for item in query.between(day(sys.argv[2]), day(sys.argv[3])):
                start = item.get('DTSTART') or item.get('DUE')
                print(item.name, text(start.dt), item.get('SUMMARY', ''))
            """
        let run = python(["-c", script, file, from, to, components, package.appendingPathComponent("scripts").path])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout.split(separator: "\n").map(String.init).sorted()
    }

    /// The items of a store calendar as `UID SUMMARY` lines (masters and overrides), sorted.
    static func storedItems(calendar: String, store: String) throws -> [String] {
        let run = try CLI.run(["export", "--calendar", calendar, "--store", store])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout.components(separatedBy: "BEGIN:V").dropFirst().compactMap { block -> String? in
            guard ["EVENT", "TODO", "JOURNAL"].contains(where: { block.hasPrefix($0) }) else { return nil }
            let lines = block.components(separatedBy: "\r\n")
            let uid = lines.first { $0.hasPrefix("UID:") }?.dropFirst(4) ?? ""
            let summary = lines.first { $0.hasPrefix("SUMMARY:") }?.dropFirst(8) ?? ""
            return "\(uid) \(summary)"
        }.sorted()
    }

    /// The first calendar's report of `icskit sync --json` (exit 0 asserted).
    static func syncReport(_ run: Run) throws -> [String: Any] {
        XCTAssertEqual(run.status, 0, run.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return try XCTUnwrap((object["calendars"] as? [[String: Any]])?.first, run.stdout)
    }

    /// How many errors python icalendar records reading a file (0: it reads it strictly), in the test Python.
    static func pythonIcalendarErrors(_ file: String) -> String {
        let run = python([
            "-c",
            "import sys, icalendar; c = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read()); "
                + "print(sum(len(x.errors) for x in c.walk()))",
            file,
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout
    }

    static func requireCorpus() throws -> URL {
        guard FileManager.default.fileExists(atPath: corpus.appendingPathComponent("PROVENANCE.tsv").path) else {
            throw Requirement.missing("../shared/fixtures/corpus is not beside this checkout (CI puts it there)")
        }
        return corpus
    }
}

/// Bytes one thread writes and another reads once it is set.
final class LockedData: @unchecked Sendable {
    // `@unchecked Sendable`: every access goes through `lock`.
    private let lock = NSLock()
    private var data = Data()
    private var done = false

    func set(_ value: Data) { lock.withLock { (data, done) = (value, true) } }
    var isSet: Bool { lock.withLock { done } }
    var value: Data { lock.withLock { data } }
}

/// A test with its own store in a temporary directory, and `icskit` run against it (`--store` added).
class StoreCLITestCase: XCTestCase {
    var directory: URL!
    var store: String { directory.appendingPathComponent("store.sqlite").path }

    override func setUpWithError() throws { directory = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs icskit on the test's store and checks its exit status.
    @discardableResult
    func icskit(_ arguments: [String], status expected: Int32 = 0) throws -> CLI.Run {
        let run = try CLI.run(arguments + ["--store", store])
        XCTAssertEqual(run.status, expected, "icskit \(arguments.joined(separator: " ")): \(run.stderr)")
        return run
    }
}

/// A test with scripts/feed_server.py serving two events, and a scratch folder with the store.
class FeedServerTestCase: XCTestCase {
    var server: FeedServer!
    var scratch: URL!
    var store: String { scratch.appendingPathComponent("store.sqlite").path }

    override func setUpWithError() throws {
        server = try FeedServer()
        scratch = try CLI.temporaryDirectory()
        try server.serve(
            FeedCLITests.calendar([("a@feed", "Opening", "20261201T090000Z"), ("b@feed", "Talk", "20261202T090000Z")]))
    }

    override func tearDownWithError() throws {
        server?.stop()
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }
}

extension StoreCLITestCase {
    /// A command a user might run next on this store: imports and merges of real exports, removals, edits, adds,
    /// completed todos, calendar colours, renames and removals.
    func randomCommand(_ random: inout SeededGenerator) throws -> [String] {
        let files = [
            "demo/work.ics", "demo/family.ics", "demo/work-changed.ics", "corpus-copies/google-issue52.ics",
            "corpus-copies/outlook-2010.ics", "corpus-copies/apple-icloud.ics",
        ]
        let calendars = ["Work", "Home", "Feed"]
        let calendar = calendars.randomElement(using: &random)!
        let uids =
            FileManager.default.fileExists(atPath: store)
            ? try CLI.sqlite(store, "SELECT uid FROM item ORDER BY uid").split(separator: "\n").map(String.init) : []
        let uid = uids.randomElement(using: &random) ?? "none"
        let n = Int.random(in: 1...9, using: &random)
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1: return ["import", CLI.fixture(files.randomElement(using: &random)!), "--calendar", calendar, "-q"]
        case 2: return ["merge", CLI.fixture(files.randomElement(using: &random)!), "--into", calendar, "-q"]
        case 3: return ["merge", CLI.fixture("demo/work-changed.ics"), "--into", calendar, "--force-delete", "-q"]
        case 4: return ["rm", uid, "--yes"]
        case 5: return ["edit", uid, "--location", "Room \(n)", "--summary", "Moved \(n)"]
        case 6:
            return [
                "add", "event", "Added \(n)", "--start", "2026-12-0\(n) 10:00", "--calendar", calendar,
                "--category", "C\(n)", "--repeat", "weekly", "--count", "\(n)",
            ]
        case 7: return ["done", uid]
        case 8: return ["calendars", calendar, "--set-color", "#12345\(n)"]
        default:
            return Bool.random(using: &random)
                ? ["calendars", calendar, "--rename", calendars.randomElement(using: &random)! + "\(n)"]
                : ["calendars", calendar, "--remove", "--yes"]
        }
    }
}

/// Whether a run ended before its watchdog fired (`@unchecked Sendable`: under `lock`).
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var state: (fired: Bool, disarmed: Bool) = (false, false)

    /// The watchdog's turn: true when the run has not ended yet (it is to be killed).
    func fire() -> Bool {
        lock.withLock {
            guard !state.disarmed else { return false }
            state.fired = true
            return true
        }
    }

    /// The run ended: true when the watchdog had not fired.
    func disarm() -> Bool {
        lock.withLock {
            state.disarmed = true
            return !state.fired
        }
    }
}
