import Foundation
import XCTest

/// Shell completions: scripts for bash, zsh and fish, and calendar names completed from the store.
final class CompletionCLITests: XCTestCase {
    func testScriptsForEveryShellAndCalendarNamesFromTheStore() throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try CLI.run(["--generate-completion-script", shell])
            XCTAssertEqual(script.status, 0, script.stderr)
            // The calendar options ask icskit itself for their values.
            XCTAssertTrue(script.stdout.contains("---completion agenda -- --calendar"), shell)
        }
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite").path
        let file = directory.appendingPathComponent("a.ics")
        try
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VTODO\r\nUID:t@x\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:x\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            .write(to: file, atomically: true, encoding: .utf8)
        for name in ["Work", "Home", "Holidays"] {
            XCTAssertEqual(try CLI.run(["import", file.path, "--calendar", name, "--store", store]).status, 0)
        }
        // What bash's completion function runs for `icskit agenda --store S --calendar Ho<TAB>`.
        func complete(_ command: String, _ option: String, _ prefix: String) throws -> [String] {
            let words = ["icskit", command, "--store", store, option, prefix]
            let run = try CLI.run(
                ["---completion", command, "--", option, String(words.count - 1), String(prefix.count)] + words)
            XCTAssertEqual(run.status, 0, run.stderr)
            return run.stdout.split(separator: "\n").map(String.init).sorted()
        }
        XCTAssertEqual(try complete("agenda", "--calendar", "Ho"), ["Holidays", "Home"])
        XCTAssertEqual(try complete("merge", "--into", "W"), ["Work"])
        XCTAssertEqual(try complete("todo", "--calendar", ""), ["Holidays", "Home", "Work"])
    }
}
