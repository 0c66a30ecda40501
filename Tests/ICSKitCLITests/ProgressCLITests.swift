import Foundation
import ICSKitTestSupport
import XCTest

/// Long commands draw a progress line on a terminal (a pseudo-terminal from util-linux `script` here), redrawn in
/// place and cleared before the result; with -q or --json, or when standard error is not a terminal, nothing.
final class ProgressCLITests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = try CLI.temporaryDirectory()
        // 3,000 events: enough for the import's count to be drawn more than once.
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
        for index in 0..<3000 {
            text +=
                "BEGIN:VEVENT\r\nUID:e\(index)@progress\r\nDTSTAMP:20260101T000000Z\r\n"
                + "DTSTART:2026\(String(format: "%02d%02d", index % 12 + 1, index % 28 + 1))T090000Z\r\n"
                + "DURATION:PT1H\r\nSUMMARY:Event \(index)\r\nEND:VEVENT\r\n"
        }
        text += "END:VCALENDAR\r\n"
        try text.write(to: directory.appendingPathComponent("big.ics"), atomically: true, encoding: .utf8)
        try text.replacingOccurrences(of: "SUMMARY:Event 1\r\n", with: "SUMMARY:Event one\r\n")
            .write(to: directory.appendingPathComponent("changed.ics"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// Runs icskit on a pseudo-terminal; returns everything the terminal showed (standard output and error).
    func onTerminal(_ arguments: [String]) throws -> (status: Int32, screen: String) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            throw Requirement.missing("util-linux script(1) is needed for a pseudo-terminal")
        }
        let quoted = ([CLI.binary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let typescript = directory.appendingPathComponent("typescript-\(UUID().uuidString)").path
        let run = try CLI.run(
            ["-q", "-e", "-c", quoted.joined(separator: " "), typescript], executable: "/usr/bin/script",
            timeout: 120)
        let screen = (try? String(contentsOfFile: typescript, encoding: .utf8)) ?? ""
        return (run.status, screen)
    }

    func testImportAndMergeDrawAProgressLineOnATerminalOnly() throws {
        let store = directory.appendingPathComponent("store.sqlite").path
        let big = directory.appendingPathComponent("big.ics").path
        let imported = try onTerminal(["import", big, "--store", store, "--calendar", "Big"])
        XCTAssertEqual(imported.status, 0, imported.screen)
        XCTAssertTrue(imported.screen.contains("\r\u{1B}[Kreading \(big)"), imported.screen)
        XCTAssertTrue(imported.screen.contains("\r\u{1B}[KBig: items written: 3000 of 3000"), imported.screen)
        // The line is cleared before the result is printed.
        XCTAssertTrue(imported.screen.contains("\r\u{1B}[KBig: 3000 added"), imported.screen)

        let changed = directory.appendingPathComponent("changed.ics").path
        let merged = try onTerminal(["merge", changed, "--into", "Big", "--store", store])
        XCTAssertEqual(merged.status, 0, merged.screen)
        XCTAssertTrue(merged.screen.contains("\r\u{1B}[Kmerging \(changed) into Big"), merged.screen)
        // The import recorded the merge base: the changed event is an update, no conflict.
        XCTAssertTrue(
            merged.screen.contains("1 updated, 0 merged, 0 deleted, 2999 unchanged, 0 conflicts"), merged.screen)

        // -q and --json: no progress line, even on a terminal.
        let quiet = try onTerminal(["import", big, "--store", store, "--calendar", "Big", "-q"])
        XCTAssertEqual(quiet.status, 0)
        XCTAssertFalse(quiet.screen.contains("\u{1B}[K"), quiet.screen)
        let json = try onTerminal(["merge", changed, "--into", "Big", "--store", store, "--json", "--dry-run"])
        XCTAssertFalse(json.screen.contains("\u{1B}[K"), json.screen)

        // Not a terminal: nothing but the result.
        let piped = try CLI.run(["import", big, "--store", store, "--calendar", "Other"])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stderr, "")
        XCTAssertEqual(piped.stdout, "Other: 3000 added, 0 updated, 0 unchanged, 0 skipped\n")
    }

    func testSyncShowsWhatItIsDoingOnATerminal() throws {
        let store = directory.appendingPathComponent("store.sqlite").path
        let vdir = directory.appendingPathComponent("vdir").path
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        let big = directory.appendingPathComponent("big.ics").path
        XCTAssertEqual(try CLI.run(["import", big, "--store", store, "--calendar", "Big"]).status, 0)
        let synced = try onTerminal(["sync", "Big", "--vdir", vdir, "--store", store])
        XCTAssertEqual(synced.status, 0, synced.screen)
        XCTAssertTrue(synced.screen.contains("\r\u{1B}[KBig: asking \(vdir)"), synced.screen)
        XCTAssertTrue(
            synced.screen.contains("\r\u{1B}[KBig: 3000 of 3000 resources compared or written"), synced.screen)
        // Cleared before the report.
        XCTAssertTrue(synced.screen.contains("written\r\u{1B}[KBig: store: "), synced.screen)
        XCTAssertTrue(synced.screen.contains("Big: vdir: 3000 created"), synced.screen)
        let piped = try CLI.run(["sync", "Big", "--store", store])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stderr, "")
    }

    func testBatchConvertCountsFilesOnATerminal() throws {
        let out = directory.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let files = ["big.ics", "changed.ics"].map { directory.appendingPathComponent($0).path }
        let converted = try onTerminal(["convert"] + files + ["--to", "jcal", "--out-dir", out])
        XCTAssertEqual(converted.status, 0, converted.screen)
        XCTAssertTrue(converted.screen.contains("\r\u{1B}[K[1/2] "), converted.screen)
        XCTAssertTrue(converted.screen.contains("\r\u{1B}[K[2/2] "), converted.screen)
    }
}
