import Foundation
import XCTest

/// What the `--repair` tests share: running the repair on a fixture, asking the real peers, comparing instances.
extension XCTestCase {
    /// What the real peers say of `files` (scripts/peers.py, as `make peers` asks them, from the tests' virtual
    /// environment; all six when `peers` is nil), by file, then peer: `accepted` and `detail`.
    func peerVerdicts(_ files: [String], peers: [String]?, in directory: URL) throws -> [String: [String:
        [String: Any]]]
    {
        let verdicts = directory.appendingPathComponent("verdicts.json")
        let run = CLI.python(
            [
                CLI.package.appendingPathComponent("scripts/peers.py").path, "--venv",
                URL(fileURLWithPath: CLI.pythonExecutable).deletingLastPathComponent().deletingLastPathComponent().path,
            ] + (peers.map { ["--peers", $0.joined(separator: ",")] } ?? []) + ["--json", verdicts.path] + files)
        XCTAssertEqual(run.status, 0, run.stderr)
        return try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: verdicts)) as? [String: [String: [String: Any]]])
    }

    /// ICSKit reads `expected` (January 2026's instances) from the repaired file, and so does recurring-ical-events.
    func assertRepairedInstances(
        _ repaired: String, _ expected: [String], components: String, line: UInt = #line
    ) throws {
        XCTAssertEqual(
            try CLI.agendaLines(repaired, from: "2026-01-01", to: "2026-02-01", components: components), expected,
            line: line)
        try CLI.requirePythonTools()
        XCTAssertEqual(
            try CLI.recurringICalEventsLines(repaired, from: "2026-01-01", to: "2026-02-01", components: components),
            expected, line: line)
    }

    /// `convert --repair` of a fixture into `directory`: the file written, and the "repaired:" warnings as
    /// `LINE: warning: …` (exit 0 asserted).
    func repair(_ fixture: String, into directory: URL) throws -> (path: String, warnings: [String]) {
        let repaired = directory.appendingPathComponent("repaired.ics").path
        let run = try CLI.run(["convert", CLI.fixture(fixture), "--repair", "-o", repaired])
        XCTAssertEqual(run.status, 0, run.stderr)
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("repaired:") }.map {
            String($0.split(separator: ":", maxSplits: 1)[1])
        }
        return (repaired, warnings)
    }
}
