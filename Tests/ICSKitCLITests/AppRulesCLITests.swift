import Foundation
import XCTest

/// `validate --for` and `convert --for` (issue 49): every rule has a fixture in Fixtures/apps named by its code;
/// validate names it, `--for` removes it, and the instances stay what they were, for ICSKit and for
/// recurring-ical-events alike; on generated calendars and on the shared corpus too.
final class AppRulesCLITests: XCTestCase {
    static let fixtures = CLI.package.appendingPathComponent("Fixtures/apps")
    static let zone = "Europe/Berlin"

    /// The apps a fixture is for: the first word of its name (`app-…`: every app).
    static func apps(of code: String) -> [String] {
        let first = String(code.prefix { $0 != "-" })
        return first == "app" ? ["outlook", "google", "apple"] : [first]
    }

    /// The codes `validate --for app --json` gives for each file.
    static func codes(_ paths: [String], app: String) throws -> [String: [String]] {
        let run = try CLI.run(["validate", "--for", app, "--json"] + paths, environment: ["TZ": zone])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        var result: [String: [String]] = [:]
        for file in json["files"] as? [[String: Any]] ?? [] {
            let diagnostics = file["diagnostics"] as? [[String: Any]] ?? []
            result[file["path"] as? String ?? ""] = diagnostics.map {
                "\($0["severity"] as? String ?? ""):\($0["code"] as? String ?? "")"
            }
        }
        return result
    }

    /// ICSKit's instances of a file over a window, as `start end summary` lines (UIDs change with `--for`).
    static func icskitInstances(_ path: String, from: String, to: String) throws -> [String] {
        try icskitInstances(of: [path], from: from, to: to)[
            URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent]
            ?? []
    }

    /// ICSKit's instances of files with distinct names, by name (without extension): one `agenda` run.
    static func icskitInstances(of paths: [String], from: String, to: String) throws -> [String: [String]] {
        let run = try CLI.run(
            ["agenda"] + paths + [
                "--from", from, "--to", to, "--tz", zone, "--json", "--component", "event,todo,journal",
            ])
        let rows = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] ?? []
        // Times are shown in one zone; a floating time has no offset until `--for google` gives it that zone.
        func wall(_ value: Any?) -> String {
            let text = "\(value ?? "")"
            return text.count > 19 ? String(text.prefix(19)) : text
        }
        return Dictionary(grouping: rows) { "\($0["calendar"] ?? "")" }.mapValues { rows in
            rows.map { "\(wall($0["start"])) \(wall($0["end"])) \(oneLine($0["summary"]))" }.sorted()
        }
    }

    /// A title as one line (`--repair` writes a title with line breaks as one line).
    static func oneLine(_ value: Any?) -> String {
        "\(value ?? "")".split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// recurring-ical-events' instances of each file in [from, to) (scripts/app_instances.py): the start of each,
    /// in the test's zone, as ICSKit's agenda writes it (the end and the title of an event `--repair` fixed are read
    /// differently by recurring-ical-events); `!unreadable` for a file it cannot read.
    static func referenceStarts(_ paths: [String], from: String, to: String) -> [String: [String]] {
        let script = CLI.package.appendingPathComponent("scripts/app_instances.py").path
        let run = CLI.python([script, zone, from, to] + paths)
        var result: [String: [String]] = [:]
        var current = ""
        for line in run.stdout.split(separator: "\n") {
            if line.hasPrefix("== ") {
                current = String(line.dropFirst(3))
                result[current] = []
            } else if line.hasPrefix("!") {
                result[current] = ["!unreadable"]
            } else {
                result[current, default: []].append(String(line.prefix { $0 != " " }.prefix(19)))
            }
        }
        return result.mapValues { $0.sorted() }
    }

    /// The starts of ICSKit's instances, to compare with recurring-ical-events'.
    static func starts(_ instances: [String]) -> [String] { instances.map { String($0.prefix { $0 != " " }) }.sorted() }

    /// The instances stay as they were: for ICSKit, every one of them; for recurring-ical-events, where it read
    /// the input as ICSKit does (on a file it misread or could not read, `--for` is what makes it right).
    static func assertSameInstances(
        _ input: String, _ output: String, from: String, to: String, extra: String? = nil, _ what: String,
        icskit: (before: [String], after: [String])? = nil, reference: [String: [String]]? = nil
    ) throws {
        var before = try icskit?.before ?? icskitInstances(input, from: from, to: to)
        if let extra { before = (before + [extra]).sorted() }
        let after = try icskit?.after ?? icskitInstances(output, from: from, to: to)
        XCTAssertEqual(before, after, "\(what): ICSKit")
        let reference = reference ?? referenceStarts([input, output], from: from, to: to)
        if reference[input] != ["!unreadable"] {
            XCTAssertNotEqual(reference[output], ["!unreadable"], "\(what): recurring-ical-events reads the output")
        }
        guard let read = reference[input], read == starts(extra == nil ? before : before.filter { $0 != extra })
        else { return }
        XCTAssertEqual(reference[output], starts(after), "\(what): recurring-ical-events")
    }

    func testEveryRuleIsNamedRemovedAndKeepsItsInstances() throws {
        try CLI.requirePythonTools()
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixtures = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter {
            $0.hasSuffix(".ics")
        }
        .sorted()
        XCTAssertGreaterThanOrEqual(fixtures.count, 18, "a fixture for every rule")
        for name in fixtures {
            let code = String(name.dropLast(4)), input = Self.fixtures.appendingPathComponent(name).path
            for app in Self.apps(of: code) {
                let found = try Self.codes([input], app: app)[input] ?? []
                XCTAssertTrue(found.contains { $0.hasSuffix(":" + code) }, "\(app): validate names \(code): \(found)")
                let output = folder.appendingPathComponent("\(code).\(app).ics").path
                let convert = try CLI.run(
                    ["convert", "--for", app, input, "-o", output, "-q"], environment: ["TZ": Self.zone])
                XCTAssertEqual(convert.status, 0, "\(code) for \(app): \(convert.stderr)")
                XCTAssertEqual(try Self.codes([output], app: app)[output] ?? ["no report"], [], "\(code) for \(app)")
                // Readers show one of two items that share a UID; made unique, both show, as the file meant.
                let extra = code == "google-duplicate-uid" ? "2026-01-06T10:00:00 2026-01-06T11:00:00 Second" : nil
                try Self.assertSameInstances(
                    input, output, from: "2025-12-01", to: "2026-05-01", extra: extra, "\(code) for \(app)")
            }
        }
    }

    /// `export --for` writes the store's calendars as the app takes them, its changes reported.
    func testExportForAnAppWritesWhatItTakes() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("store.sqlite").path
        for name in ["outlook-rdate-without-rrule", "google-floating-time", "outlook-several-rrules"] {
            let file = Self.fixtures.appendingPathComponent(name + ".ics").path
            XCTAssertEqual(try CLI.run(["import", file, "--calendar", "Mixed", "--store", store]).status, 0)
        }
        for app in ["outlook", "google"] {
            let output = folder.appendingPathComponent("\(app).ics").path
            let run = try CLI.run(
                ["export", "--store", store, "--for", app, "--tz", Self.zone, "-o", output],
                environment: ["TZ": Self.zone])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.stderr.contains("for \(app == "outlook" ? "Outlook" : "Google"):"), run.stderr)
            XCTAssertEqual(try Self.codes([output], app: app)[output] ?? ["no report"], [], app)
        }
    }

    /// Calendars of the differential generator and every file of the shared corpus, for Outlook and for Google:
    /// the output breaks none of the app's rules and has no error, and both ICSKit and recurring-ical-events find
    /// the same instances in it as in the input.
    func testGeneratedAndCorpusCalendarsComeOutCleanWithTheSameInstances() throws {
        try CLI.requirePythonTools()
        let corpus = try XCTUnwrap(FileManager.default.enumerator(atPath: CLI.corpus.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".ics") }.map { CLI.corpus.appendingPathComponent($0).path }
        try XCTSkipIf(corpus.isEmpty, "../shared/fixtures/corpus is not beside this checkout")
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let generated = folder.appendingPathComponent("generated")
        try FileManager.default.createDirectory(at: generated, withIntermediateDirectories: true)
        let make = CLI.python([
            "-c",
            "import sys; sys.path.insert(0, sys.argv[1]); import differential\n"
                + "for index in range(25):\n"
                + "    data, _ = differential.make_calendar(4_900_049 + index)\n"
                + "    open(f'{sys.argv[2]}/g{index}.ics', 'wb').write(data)",
            CLI.package.appendingPathComponent("scripts").path, generated.path,
        ])
        XCTAssertEqual(make.status, 0, make.stderr)
        let inputs =
            try FileManager.default.contentsOfDirectory(atPath: generated.path).map {
                generated.appendingPathComponent($0).path
            } + corpus
        for app in ["outlook", "google"] {
            var pairs: [(input: String, output: String)] = []
            var kept: Set<String> = []  // series left as they were, said in a warning
            for (index, source) in inputs.enumerated() {
                // Copies with names of their own: one agenda run lists them all, told apart by name.
                let input = folder.appendingPathComponent("\(app)-in-\(index).ics").path
                try? FileManager.default.copyItem(atPath: source, toPath: input)
                let output = folder.appendingPathComponent("\(app)-out-\(index).ics").path
                let run = try CLI.run(["convert", "--for", app, input, "-o", output], environment: ["TZ": Self.zone])
                if run.status == 0 { pairs.append((input, output)) }
                if run.stderr.contains("are left as they are") { kept.insert(output) }
            }
            let before = try Self.codes(pairs.map(\.input), app: app)
            XCTAssertGreaterThan(pairs.count, inputs.count * 9 / 10, "\(app): most files convert")
            let found = try Self.codes(pairs.map(\.output), app: app)
            for (input, output) in pairs {
                let broken = (found[output] ?? []).filter {
                    ($0.contains(":\(app)-") || $0.contains(":app-"))
                        && !(kept.contains(output) && $0.hasSuffix(":outlook-rule-pattern"))
                }
                XCTAssertEqual(broken, [], "\(app): \(input)")
            }
            // Readers show one of two items that share a UID; `--for` makes them unique, and both show.
            let window = ("2024-01-01", "2027-01-01")
            let mine = try Self.icskitInstances(
                of: pairs.flatMap { [$0.input, $0.output] }, from: window.0, to: window.1)
            let theirs = Self.referenceStarts(pairs.flatMap { [$0.input, $0.output] }, from: window.0, to: window.1)
            func name(_ path: String) -> String { URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent }
            XCTAssertGreaterThan(mine.values.map(\.count).reduce(0, +), 2_000, "\(app): instances to compare")
            for (input, output) in pairs where !(before[input] ?? []).contains(where: { $0.hasSuffix("duplicate-uid") })
            {
                try Self.assertSameInstances(
                    input, output, from: window.0, to: window.1, "\(app), \(input)",
                    icskit: (mine[name(input)] ?? [], mine[name(output)] ?? []), reference: theirs)
            }
        }
    }
}
