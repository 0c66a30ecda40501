import CalendarModel
import Foundation
import ICSKitTestSupport
import XCTest

/// Where the package, its fixtures and the shared corpus are.
enum Paths {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = package.appendingPathComponent("Fixtures")
    static let corpus = package.deletingLastPathComponent().appendingPathComponent("shared/fixtures/corpus")

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// The shared corpus; tests that need it are skipped, saying why, when it is not beside the checkout.
    static func requireCorpus() throws -> URL {
        guard FileManager.default.fileExists(atPath: corpus.appendingPathComponent("oracle.json").path) else {
            throw Requirement.missing("../shared/fixtures/corpus is not beside this checkout (CI puts it there)")
        }
        return corpus
    }

    /// Every `.ics` file of the shared corpus and of Fixtures/ (skipped, saying why, without the corpus).
    static func corpusAndFixtureFiles() throws -> [URL] {
        var files: [URL] = []
        for root in [try requireCorpus(), fixtures] {
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                if url.pathExtension == "ics" { files.append(url) }
            }
        }
        return files
    }
}

/// What python icalendar 7.3 made of each corpus file (oracle.json).
struct Oracle {
    struct File {
        var path: String
        var parses: Bool
        var counts: [String: Int]
        var uids: [String]
        /// UIDs of the series that recur, and their instance starts 2000–2030 (`…Z`, floating, or dates).
        var recurringUIDs: [String]
        var occurrences: [(start: String, uid: String)]
        var truncated: Bool
        /// "strict", "skip_bad_series" (python dropped series it could not read), or nil (python failed).
        var recurrenceMode: String?
    }

    let files: [File]

    static func load() throws -> Oracle {
        let corpus = try Paths.requireCorpus()
        let data = try Data(contentsOf: corpus.appendingPathComponent("oracle.json"))
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let entries = root?["files"] as? [String: [String: Any]] ?? [:]
        let files = entries.keys.sorted().map { path -> File in
            let entry = entries[path] ?? [:]
            let icalendar = entry["icalendar"] as? [String: Any]
            let recurring = entry["recurring"] as? [String: Any] ?? [:]
            let occurrences = (recurring["occurrences"] as? [[String: Any]] ?? []).map {
                (start: $0["start"] as? String ?? "", uid: $0["uid"] as? String ?? "")
            }
            return File(
                path: path, parses: icalendar?["parse_ok"] as? Bool ?? false,
                counts: entry["counts"] as? [String: Int] ?? [:], uids: entry["uids"] as? [String] ?? [],
                recurringUIDs: recurring["recurring_uids"] as? [String] ?? [], occurrences: occurrences,
                truncated: recurring["truncated"] as? Bool ?? false,
                recurrenceMode: recurring["mode"] as? String)
        }
        return Oracle(files: files)
    }

    var parsedByPython: [File] { files.filter(\.parses) }
}

func readFixture(_ name: String) throws -> ICS.ReadResult {
    try ICS.read(contentsOf: Paths.fixture(name))
}

func readCorpus(_ path: String) throws -> (bytes: [UInt8], result: ICS.ReadResult) {
    let bytes = [UInt8](try Data(contentsOf: Paths.corpus.appendingPathComponent(path)))
    return (bytes, ICS.read(bytes, file: path))
}

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

/// Unfolded content lines of iCalendar text, as a reader sees them: BOM dropped, CRLF/LF alike, blank lines
/// skipped, lines that are not UTF-8 read as Windows-1252 (as ICSKit decodes them).
func unfoldedLines(_ bytes: [UInt8]) -> [String] {
    var body = bytes[...]
    if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
    var lines: [String] = []
    for raw in body.split(separator: 0x0A, omittingEmptySubsequences: false) {
        var line = raw
        if line.last == 0x0D { line = line.dropLast() }
        let decoded =
            String(validating: line, as: UTF8.self)
            ?? String(line.map { Character(Unicode.Scalar(windows1252[$0] ?? UInt32($0)) ?? "?") })
        if decoded.isEmpty { continue }
        if let first = decoded.first, first == " " || first == "\t", !lines.isEmpty {
            lines[lines.count - 1] += decoded.dropFirst()
        } else {
            lines.append(decoded)
        }
    }
    return lines
}

private let windows1252: [UInt8: UInt32] = [
    0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021, 0x88: 0x02C6,
    0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152, 0x8E: 0x017D, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201C,
    0x94: 0x201D, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC, 0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A,
    0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178,
]

extension ICS.ReadResult {
    func messages(_ severity: Diagnostic.Severity? = nil) -> [String] {
        diagnostics.filter { severity == nil || $0.severity == severity }.map(\.message)
    }

    func diagnostic(containing text: String) -> Diagnostic? { diagnostics.first { $0.message.contains(text) } }
}

/// ICS → `format` → ICS over every corpus file python icalendar parses, compared by `meaning`: how many files were
/// checked, and for each one that differs its first difference.
func corpusRoundTrip<Meaning: Equatable>(
    through format: CalendarFormat, meaning: (Component) -> Meaning,
    flat: (Meaning) -> [String]
) throws -> (checked: Int, failures: [String]) {
    var failures: [String] = []
    var checked = 0
    for file in try Oracle.load().parsedByPython {
        let (_, original) = try readCorpus(file.path)
        let back = format.read(format.write(original.calendars), file: file.path)
        if back.calendars.isEmpty {
            failures.append("\(file.path): \(back.diagnostics.first.map(String.init(describing:)) ?? "nothing read")")
            continue
        }
        let again = ICS.read(ICS.write(back.calendars), file: file.path)
        let expected = original.components.map(meaning), actual = again.components.map(meaning)
        if expected != actual {
            let diff = zip(expected.flatMap(flat), actual.flatMap(flat)).first { $0 != $1 }
            failures.append("\(file.path): \(diff.map { "\($0) ≠ \($1)" } ?? "component count")")
        }
        checked += 1
    }
    return (checked, failures)
}
