import Foundation
import XCTest

/// What a test needs from the machine (a corpus beside the checkout, a tool, a server, root). Outside CI a test that
/// lacks it is skipped, saying what is missing; in CI (`CI=true`), which installs everything the tests need, a
/// missing requirement is an error, so a test can never pass there by not running.
public enum Requirement {
    /// The error to throw when `what` is missing: a skip, or in CI a failure.
    public static func missing(
        _ what: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> any Error {
        if environment["CI"] == "true" { return Missing(description: "CI lacks what this test needs: " + what) }
        return XCTSkip(what)
    }

    /// The error to throw when something the test needs is there but does not work (a server installed that does
    /// not start): a failure everywhere, never a skip.
    public static func broken(_ what: String) -> any Error { Missing(description: what) }

    /// A requirement CI should have met.
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }
}
