import Foundation
import XCTest

/// Issue 59's smaller probes: a line break from the data cannot forge a diagnostic line; one vdir syncs with one
/// calendar; a killed sync's temporary file does not stay in the vdir; a password without a user name is said to
/// be unused.
final class TrustRound2SmallCLITests: StoreCLITestCase {
    func write(_ text: String, _ name: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    func testALineBreakInTheDataCannotForgeADiagnosticLine() throws {
        // RFC 6868's ^n is a line break in a parameter value.
        let file = try write(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:a@t\r\nDTSTAMP:20260101T000000Z\r\n"
                + "DTSTART;TZID=\"Nowhere^nfake.ics:99: error: all is lost\":20261201T100000\r\nSUMMARY:x\r\n"
                + "END:VEVENT\r\nEND:VCALENDAR\r\n", "forged.ics")
        let run = try CLI.run(["validate", file])
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        XCTAssertEqual(lines.count, 1, run.stdout)
        XCTAssertTrue(lines[0].contains("TZID \"Nowhere\\nfake.ics:99: error: all is lost\""), run.stdout)
        XCTAssertFalse(run.stdout.contains("\nfake.ics:99"), run.stdout)
    }

    func testOneVdirSyncsWithOneCalendar() throws {
        try icskit(["add", "event", "A", "--start", "2026-12-01 10:00", "--calendar", "One"])
        try icskit(["add", "event", "B", "--start", "2026-12-01 11:00", "--calendar", "Two"])
        let vdir = path("vdir")
        try icskit(["sync", "One", "--vdir", vdir])
        try FileManager.default.createSymbolicLink(atPath: path("alias"), withDestinationPath: vdir)
        for other in [vdir, path("alias"), vdir + "/"] {
            let refused = try icskit(["sync", "Two", "--vdir", other], status: 1)
            XCTAssertTrue(refused.stderr.contains("already syncs with calendar \"One\""), refused.stderr)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: vdir).filter { $0.hasSuffix(".ics") }
        XCTAssertEqual(files.count, 1, "Two's item did not reach One's vdir")
    }

    func testAKilledSyncsTemporaryFileDoesNotStay() throws {
        try icskit(["add", "event", "A", "--start", "2026-12-01 10:00", "--calendar", "One"])
        let vdir = path("vdir")
        try icskit(["sync", "One", "--vdir", vdir])
        let stale = vdir + "/.icskit-0B0E6A3C-killed.tmp", fresh = vdir + "/.icskit-1C2D-writing.tmp"
        try "BEGIN:VCALENDAR\r\n".write(toFile: stale, atomically: false, encoding: .utf8)
        try "BEGIN:VCALENDAR\r\n".write(toFile: fresh, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3_600)], ofItemAtPath: stale)
        try icskit(["sync", "One"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale), "an hour old: a killed sync's")
        XCTAssertTrue(FileManager.default.fileExists(atPath: fresh), "a moment old: perhaps a sync's still running")
    }

    func testAPasswordWithoutAUserNameIsSaidToBeUnused() throws {
        let run = try icskit(
            ["subscribe", "http://:secret@127.0.0.1:1/feed.ics", "--into", "Feed", "--timeout", "2"], status: 1)
        XCTAssertTrue(
            run.stderr.contains("the URL holds a password but no user name, so it is not used; give --user NAME"),
            run.stderr)
        XCTAssertFalse(run.stderr.contains("is used for this run only"), run.stderr)
        XCTAssertFalse(run.stderr.contains("secret"), run.stderr)
    }
}
