import Foundation
import XCTest

/// The library's documentation is code that runs: every Swift block of README.md and of CalendarModel's DocC
/// articles stands word for word in Examples/DocExamples, which `make test` builds and this test runs; the
/// tutorial's code is the example app's; and the example app's output is taken by strict readers (issue 48).
final class LibraryDocsTests: XCTestCase {
    static let catalogue = CLI.package.appendingPathComponent("Sources/CalendarModel/CalendarModel.docc")

    /// The Swift blocks of a Markdown file, each without its `import` lines and leading blank lines.
    static func swiftBlocks(_ url: URL) throws -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n") {
            if current == nil, line.hasPrefix("```swift") {
                current = []
            } else if current != nil, line.hasPrefix("```") {
                let lines = current!.filter { !$0.hasPrefix("import ") }.drop { $0.isEmpty }
                blocks.append(lines.joined(separator: "\n"))
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    /// The `// doc:` … `// end` regions of Examples/DocExamples, unindented.
    static func compiledBlocks() throws -> [String] {
        let source = try String(
            contentsOf: CLI.package.appendingPathComponent("Examples/DocExamples/Articles.swift"), encoding: .utf8)
        return source.matches(of: /\n( *)\/\/ doc: \w+\n(.*?)\n *\/\/ end/.dotMatchesNewlines()).map { match in
            let indent = match.1.count
            return match.2.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.count >= indent ? String($0.dropFirst(indent)) : $0.trimmingCharacters(in: .whitespaces) }
                .joined(separator: "\n")
        }
    }

    func testEverySwiftBlockOfTheDocsIsCompiledAndRuns() throws {
        let articles = try FileManager.default.contentsOfDirectory(at: Self.catalogue, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }
        XCTAssertGreaterThanOrEqual(articles.count, 6, "the landing page and an article per task")
        let compiled = Set(try Self.compiledBlocks())
        var checked = 0
        for file in articles + [CLI.package.appendingPathComponent("README.md")] {
            for block in try Self.swiftBlocks(file) {
                XCTAssertTrue(
                    compiled.contains(block),
                    "\(file.lastPathComponent): a Swift block that Examples/DocExamples does not hold:\n\(block)")
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 6)

        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            atPath: CLI.fixture("demo/work.ics"), toPath: folder.appendingPathComponent("work.ics").path)
        let run = try CLI.run([], in: folder, executable: CLI.builtExecutable("DocExamples"), timeout: 120)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("DocExamples: 7 examples ran"), run.stdout)
    }

    /// The tutorial shows the example app's own files.
    func testTheTutorialShowsTheExampleAppAsItIs() throws {
        let pairs = [
            ("planner-1-model.swift", "Planner.swift"), ("planner-2-mapping.swift", "PlannerMapping.swift"),
            ("planner-3-main.swift", "main.swift"),
        ]
        for (resource, source) in pairs {
            let shown = try String(
                contentsOf: Self.catalogue.appendingPathComponent("Resources/" + resource), encoding: .utf8)
            let built = try String(
                contentsOf: CLI.package.appendingPathComponent("Examples/TaskPlanner/" + source), encoding: .utf8)
            XCTAssertEqual(shown, built, "\(resource) is a copy of Examples/TaskPlanner/\(source)")
        }
    }

    /// The example app reads real exports and writes tasks that `icskit validate --strict` and python icalendar
    /// take, with categories and colours, subtasks, reminders and time logs.
    func testTheExampleAppWritesWhatStrictReadersTake() throws {
        try CLI.requirePythonTools()
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A planner week, todos with subtasks, and a todo with time logged on it by `icskit log`.
        let store = folder.appendingPathComponent("store.sqlite").path
        XCTAssertEqual(try CLI.run(["import", CLI.fixture("hand/tasks.ics"), "--store", store]).status, 0)
        XCTAssertEqual(try CLI.run(["log", "Book the van", "--duration", "25m", "--store", store]).status, 0)
        let logged = folder.appendingPathComponent("logged.ics").path
        let export = try CLI.run(["export", "--store", store, "--output", logged])
        XCTAssertEqual(export.status, 0, export.stderr)
        let inputs = [CLI.fixture("hand/week/planner.ics"), logged, CLI.fixture("demo/work.ics")]
        for (index, input) in inputs.enumerated() {
            let output = folder.appendingPathComponent("out-\(index).ics").path
            let run = try CLI.run(
                [input, output], executable: CLI.builtExecutable("TaskPlannerExample"), timeout: 60,
                environment: ["TZ": "Europe/Berlin"])
            XCTAssertEqual(run.status, 0, "\(input): \(run.stderr)")
            let strict = try CLI.run(["validate", "--strict", output])
            XCTAssertEqual(strict.status, 0, "\(input): \(strict.stdout)\(strict.stderr)")
            let python = CLI.python([
                "-c",
                "import sys, icalendar; c = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read()); "
                    + "print(len(c.walk('VTODO')), len(c.walk('VJOURNAL')), len(c.walk('VALARM')))",
                output,
            ])
            XCTAssertEqual(python.status, 0, "\(input): \(python.stderr)")
        }
        let week = try String(contentsOfFile: folder.appendingPathComponent("out-0.ics").path, encoding: .utf8)
        XCTAssertTrue(week.contains("X-ICSKIT-CATEGORY-COLOR;X-CATEGORY=Work:#2F6FDB"), week)
        XCTAssertTrue(week.contains("TRIGGER;RELATED=END:-PT30M"), week)
        XCTAssertTrue(week.contains("STATUS:COMPLETED"), "the done task stays done")
        let tasks = try String(contentsOfFile: folder.appendingPathComponent("out-1.ics").path, encoding: .utf8)
        XCTAssertTrue(tasks.contains("RELATED-TO;RELTYPE=PARENT:parent@example.com"), "the subtask: \(tasks)")
        XCTAssertTrue(tasks.contains("X-ICSKIT-DURATION:PT25M"), "the time log: \(tasks)")
        // An export without todos (Apple's) has a week of events and nothing to write.
        let apple = try CLI.run(
            [CLI.fixture("corpus-copies/apple-icloud.ics"), folder.appendingPathComponent("none.ics").path],
            executable: CLI.builtExecutable("TaskPlannerExample"), environment: ["TZ": "Europe/Berlin"])
        XCTAssertEqual(apple.status, 0, apple.stderr)
        XCTAssertTrue(apple.stdout.contains("no tasks in"), apple.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("none.ics").path))
        let planner = try CLI.run(
            [CLI.fixture("hand/week/planner.ics"), folder.appendingPathComponent("again.ics").path],
            executable: CLI.builtExecutable("TaskPlannerExample"), environment: ["TZ": "Europe/Berlin"])
        XCTAssertTrue(planner.stdout.hasPrefix("week of 20261116 (Europe/Berlin): "), planner.stdout)
        XCTAssertTrue(planner.stdout.contains("20261116T091500  Stand-up"), planner.stdout)
    }
}
