import ICSKitTestSupport
import XCTest

/// A test that lacks what it needs is skipped on a developer's machine and fails in CI, which installs everything.
final class RequirementTests: XCTestCase {
    func testAMissingRequirementSkipsOutsideCIAndFailsInIt() {
        XCTAssertTrue(Requirement.missing("a tool", environment: [:]) is XCTSkip)
        XCTAssertTrue(Requirement.missing("a tool", environment: ["CI": "false"]) is XCTSkip)
        let inCI = Requirement.missing("a tool", environment: ["CI": "true"])
        XCTAssertFalse(inCI is XCTSkip)
        XCTAssertTrue("\(inCI)".contains("a tool"), "\(inCI)")
    }
}
