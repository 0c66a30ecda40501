import Foundation
import XCTest

/// README's examples, run: every `icskit …` line of a block marked `<!-- doctest … -->` runs in a shell, in order,
/// in a folder of its own holding the files the examples name (copies of fixtures: demo exports, real Google and
/// Outlook files, hand-written cases), with the built icskit first on the PATH and a store of its own. Each line
/// must exit 0; one that keeps running (`--watch`) must still be running after two seconds.
final class ReadmeDocTests: XCTestCase {
    /// The files README's examples name, and the fixtures that stand for them.
    static let files: [String: String] = [
        "calendar.ics": "demo/work.ics", "google.ics": "corpus-copies/google-issue52.ics",
        "broken-latin1.ics": "hand/windows-1252.ics", "exports/work.ics": "demo/work.ics",
        "exports/family.ics": "demo/family.ics", "exports/apple.ics": "corpus-copies/apple-icloud.ics",
        "work.ics": "demo/work.ics", "family.ics": "demo/family.ics", "tasks.ics": "hand/tasks.ics",
        "old-ical.ics": "hand/stale-vtimezones.ics", "outlook.ics": "corpus-copies/outlook-2010.ics",
        "old-export.ics": "hand/needs-repair.ics", "google-export.ics": "demo/work.ics",
        "alice.ics": "hand/freebusy/alice.ics", "bob.ics": "hand/freebusy/bob.ics",
        "carol.ics": "hand/freebusy/carol.ics", "week.ics": "hand/week/planner.ics",
        "invitation.eml": "mail/invite.eml",
        "outlook-calendar.csv": "hand/csv/outlook-calendar.csv", "sheet.csv": "hand/csv/sheet.csv",
    ]

    /// The `icskit` lines of the marked blocks, in order.
    static func examples() throws -> [String] {
        let readme = try String(
            contentsOf: CLI.package.appendingPathComponent("README.md"), encoding: .utf8)
        var lines: [String] = []
        var state = 0  // 0 outside, 1 after a mark, 2 inside a marked block
        for line in readme.components(separatedBy: "\n") {
            switch state {
            case 0 where line.hasPrefix("<!-- doctest"): state = 1
            case 1 where line.hasPrefix("```"): state = 2
            case 2 where line.hasPrefix("```"): state = 0
            case 2 where line.hasPrefix("icskit "): lines.append(line)
            default: break
            }
        }
        return lines
    }

    func testEveryMarkedExampleInTheReadmeRuns() throws {
        let examples = try Self.examples()
        XCTAssertGreaterThan(examples.count, 50, "the marked blocks hold README's examples")
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = FileManager.default
        for (name, fixture) in Self.files {
            let target = folder.appendingPathComponent(name)
            try files.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try files.copyItem(atPath: CLI.fixture(fixture), toPath: target.path)
        }
        // icskit first on the PATH, and a pager that only passes text through (`| less -R`).
        let bin = folder.appendingPathComponent("bin")
        try files.createDirectory(at: bin, withIntermediateDirectories: true)
        try files.createSymbolicLink(atPath: bin.appendingPathComponent("icskit").path, withDestinationPath: CLI.binary)
        let pager = bin.appendingPathComponent("less").path
        try "#!/bin/sh\ncat\n".write(toFile: pager, atomically: true, encoding: .utf8)
        try files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: pager)
        let environment = [
            "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "HOME": folder.path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
            "ICSKIT_STORE": folder.appendingPathComponent("store.sqlite").path, "TZ": "Europe/Berlin",
        ]
        for example in examples {
            let keepsRunning = example.contains("--watch")
            // One that keeps running replaces the shell, so that stopping it stops icskit.
            let run = try CLI.run(
                ["-c", keepsRunning ? "exec " + example : example], in: folder, executable: "/bin/sh",
                timeout: keepsRunning ? 2 : 60, environment: environment)
            if keepsRunning {
                XCTAssertTrue(run.timedOut, "\(example) stopped: \(run.stderr)")
            } else {
                XCTAssertEqual(run.status, 0, "\(example)\n\(run.stdout.prefix(2000))\n\(run.stderr)")
                XCTAssertFalse(run.timedOut, example)
            }
        }
    }
}
