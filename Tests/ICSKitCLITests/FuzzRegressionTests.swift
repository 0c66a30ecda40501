import Foundation
import XCTest

/// Every input the fuzzers found (crashes, timeouts, leaks) stays fixed: each file under
/// Fixtures/fuzz-regressions/TARGET goes through that target again, checks included, in the `icskit-fuzz` replay
/// tool, one process per file so that a crash fails this test instead of ending the test run. (Leaks are seen only
/// by the sanitizer build `make fuzz` makes; here a leak finding must still run cleanly and quickly.)
final class FuzzRegressionTests: XCTestCase {
    func testEveryFindingRunsCleanlyThroughItsTarget() throws {
        let root = CLI.package.appendingPathComponent("Fixtures/fuzz-regressions")
        let replay = CLI.builtExecutable("icskit-fuzz")
        var count = 0
        for target in ["ics", "jcal", "xcal", "csv", "rrule", "store", "mime", "serve"] {
            let folder = root.appendingPathComponent(target)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for file in files.sorted() {
                let path = folder.appendingPathComponent(file).path
                // How long each takes is measured by `ICSKitBench --only hostile`; the timeout only ends a hang.
                let run = try CLI.run([target, path], executable: replay, timeout: 60)
                count += 1
                XCTAssertFalse(run.timedOut, "\(target)/\(file) still takes more than a minute")
                XCTAssertEqual(run.status, 0, "\(target)/\(file): \(run.stderr.suffix(2000))")
            }
        }
        XCTAssertGreaterThanOrEqual(count, 10, "the regression files are where this test looks")
    }
}
