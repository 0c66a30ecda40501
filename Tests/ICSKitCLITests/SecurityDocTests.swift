import Foundation
import XCTest

/// SECURITY.md names, for each rule and limit, the test that holds it: every test it names exists (a class, or a
/// class's test method), so that the page cannot go on citing a test someone renamed or removed.
final class SecurityDocTests: XCTestCase {
    func testEveryTestSecurityNamesExists() throws {
        let page = try String(
            contentsOf: CLI.package.appendingPathComponent("SECURITY.md"), encoding: .utf8)
        var sources: [String: String] = [:]
        for folder in [
            "CalendarModelTests", "CalendarMergeTests", "CalendarStoreTests", "CalendarSyncTests", "ICSKitCLITests",
        ] {
            let directory = CLI.package.appendingPathComponent("Tests/" + folder)
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path)
            where file.hasSuffix(".swift") {
                sources[file] = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            }
        }
        let names = page.matches(of: /`([A-Z][A-Za-z0-9]*Tests)(?:\.(test[A-Za-z0-9]+))?`/).map {
            (String($0.output.1), $0.output.2.map(String.init))
        }
        XCTAssertGreaterThan(names.count, 20)
        for (type, method) in names {
            let declaring = sources.values.filter { $0.contains("class \(type):") }
            XCTAssertEqual(declaring.count, 1, "SECURITY.md names \(type), which no test file declares")
            if let method, let source = declaring.first {
                XCTAssertTrue(
                    source.contains("func \(method)("), "SECURITY.md names \(type).\(method), which is not there")
            }
        }
    }
}
