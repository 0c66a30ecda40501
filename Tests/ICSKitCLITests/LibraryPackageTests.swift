import Foundation
import ICSKitTestSupport
import XCTest

/// An app that depends on the CalendarModel product alone resolves none of the tools' packages (SwiftNIO, GRDB,
/// swift-crypto, AsyncHTTPClient, ArgumentParser): they are behind the package trait Tools (issue 62).
final class LibraryPackageTests: XCTestCase {
    func testAnAppDependingOnCalendarModelPinsNoServerPackage() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = folder.appendingPathComponent("PlannerApp")
        try FileManager.default.createDirectory(
            at: app.appendingPathComponent("Sources/PlannerApp"), withIntermediateDirectories: true)
        try """
        // swift-tools-version:6.1
        import PackageDescription

        let package = Package(
            name: "PlannerApp",
            dependencies: [.package(path: "\(CLI.package.path)")],
            targets: [
                .executableTarget(
                    name: "PlannerApp", dependencies: [.product(name: "CalendarModel", package: "\(CLI.package.lastPathComponent)")])
            ])
        """.write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "import CalendarModel\nprint(ICS.productID)\n".write(
            to: app.appendingPathComponent("Sources/PlannerApp/main.swift"), atomically: true, encoding: .utf8)
        // Resolving is what pins: show-dependencies resolves the graph first.
        let run = try CLI.run(
            ["swift", "package", "show-dependencies", "--format", "json"], in: app, executable: "/usr/bin/env",
            timeout: 600)
        XCTAssertEqual(run.status, 0, run.stderr)
        for server in [
            "swift-nio", "grdb", "swift-crypto", "async-http-client", "swift-argument-parser", "tomlkit",
        ] {
            XCTAssertFalse(run.stdout.lowercased().contains(server), "\(server) in the app's graph:\n\(run.stdout)")
        }
        let pins = (try? String(contentsOf: app.appendingPathComponent("Package.resolved"), encoding: .utf8)) ?? ""
        XCTAssertFalse(pins.lowercased().contains("swift-nio") || pins.lowercased().contains("grdb"), pins)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: app.appendingPathComponent(".build/checkouts/swift-nio").path),
            "nothing of the server's was checked out")
    }
}
