import Foundation
import XCTest

/// `icskit export --format html`: the page's content, and the page rendered by headless Chromium (Debian's
/// `chromium` package, which .ci/run installs) to a PNG with no script errors.
final class HTMLExportCLITests: XCTestCase {
    /// A store holding the hand-made planner week (2026-W47, Europe/Berlin), and that week as HTML.
    func exportPlannerWeek(_ directory: URL) throws -> (path: String, html: String) {
        let store = directory.appendingPathComponent("store.sqlite").path
        let imported = try CLI.run(["import", CLI.fixture("hand/week/planner.ics"), "--store", store])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let page = directory.appendingPathComponent("week.html").path
        let run = try CLI.run([
            "export", "--format", "html", "--week", "2026-W47", "--tz", "Europe/Berlin",
            "--store", store, "-o", page,
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        return (page, try String(contentsOfFile: page, encoding: .utf8))
    }

    func testTheWeekPageHoldsTheWeek() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, html) = try exportPlannerWeek(directory)
        // Self-contained: nothing is fetched.
        for external in ["http://", "https://", "<link", " src=", "@import", "url("] {
            XCTAssertFalse(html.contains(external), "the page refers to something outside: \(external)")
        }
        XCTAssertTrue(html.contains("2026-W47 · 16 Nov – 22 Nov 2026 · times in Europe/Berlin"))
        // Monday's three overlapping events share the column in three lanes.
        for lane in 0..<3 {
            let left = String(format: "%.3f%%", 100.0 / 3 * Double(lane))
            XCTAssertTrue(html.contains("left:\(left);width:33.333%"), "lane \(lane) missing")
        }
        // The conference spans Wednesday to Friday in the bar strip; the overnight hackathon is cut at midnight.
        XCTAssertTrue(html.contains("grid-column:4 / 7;grid-row:1;background:#D9822B"), "conference bar")
        XCTAssertTrue(html.contains("<span class=\"time\">20:00–…</span>"))
        XCTAssertTrue(html.contains("<span class=\"time\">…–14:00</span>"))
        // The moved stand-up shows at its new time; the regular ones on the other weekdays.
        XCTAssertTrue(html.contains("10:00–10:15</span> <span class=\"what\">Stand-up (moved)"))
        XCTAssertEqual(html.components(separatedBy: "<span class=\"what\">Stand-up</span>").count - 1, 4)
        // Gantt: the multi-day and the overlapping ones.
        let gantt = html.components(separatedBy: "<div class=\"gantt-label\">").dropFirst(2).map {
            $0.prefix { $0 != "<" }
        }
        XCTAssertEqual(gantt, ["Design review", "Interview: backend role", "Dentist", "SwiftConf Lisbon"])
        // Todos with due date and done state; text is escaped; category colours and a print style.
        XCTAssertTrue(html.contains("<li class=\"done\"><span class=\"check\" aria-label=\"done\">☑</span>"))
        XCTAssertTrue(html.contains("Finish conference slides</span><span class=\"due\">due Wed 18 Nov 09:00"))
        XCTAssertTrue(html.contains("Submit travel expenses</span><span class=\"due\">due Sat 21 Nov"))
        XCTAssertTrue(html.contains("Talk: &lt;iCalendar&gt; &amp; friends"))
        XCTAssertTrue(html.contains("background:#C2185B"), "Health's colour from the store")
        XCTAssertTrue(html.contains("@media print"))
        // Today is marked exactly when it falls in the week.
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        let today = calendar.dateComponents([.year, .month, .day], from: Date())
        let inWeek = today.year == 2026 && today.month == 11 && (16...22).contains(today.day ?? 0)
        XCTAssertEqual(html.contains("day-head today"), inWeek)
    }

    func testChromiumRendersThePageWithoutScriptErrors() throws {
        let chromium = try Self.chromium()
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (page, _) = try exportPlannerWeek(directory)
        let png = directory.appendingPathComponent("week.png").path
        let shot = Self.run(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--window-size=1400,1100", "--screenshot=\(png)", "file://\(page)",
            ])
        XCTAssertEqual(shot.status, 0, shot.output)
        let image = try Data(contentsOf: URL(fileURLWithPath: png))
        XCTAssertEqual(Array(image.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR: width and height, big-endian, at bytes 16–23.
        let width = image[16..<20].reduce(0) { $0 << 8 | Int($1) },
            height = image[20..<24].reduce(0) { $0 << 8 | Int($1) }
        XCTAssertEqual([width, height], [1400, 1100])
        XCTAssertGreaterThan(image.count, 20_000, "an almost empty picture")
        // The DOM after scripts ran: the page's script reached its end, and the console shows no error.
        let dom = Self.run(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
                "--v=0", "--dump-dom", "file://\(page)",
            ])
        XCTAssertEqual(dom.status, 0)
        XCTAssertTrue(dom.output.contains("data-rendered=\"ok\""), dom.output)
        XCTAssertFalse(dom.output.contains("Uncaught"), dom.output)
        XCTAssertEqual(
            dom.output.components(separatedBy: "class=\"day ").count
                + dom.output.components(separatedBy: "class=\"day\"").count - 2, 7)
    }

    func testThePagePrintsOnTwoLandscapePages() throws {
        let chromium = try Self.chromium()
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (page, _) = try exportPlannerWeek(directory)
        let pdf = directory.appendingPathComponent("week.pdf").path
        let print = Self.run(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                "--print-to-pdf=\(pdf)", "file://\(page)",
            ])
        XCTAssertEqual(print.status, 0, print.output)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: pdf)), as: UTF8.self)
        // The week grid on the first A4 landscape page (842 × 595 pt), Gantt and todos on the second.
        XCTAssertTrue(text.contains("/Count 2"), "page count")
        XCTAssertTrue(text.contains("/MediaBox [0 0 841.9"), "A4 landscape")
    }

    /// Debian's chromium, or the reason the test cannot run.
    static func chromium() throws -> String {
        for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        throw XCTSkip("headless Chromium is not installed (apt-get install chromium; .ci/run does)")
    }

    static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        // A browser that hangs must not hang the suite.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["120", executable] + arguments
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: scratch.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: scratch) }
        guard let handle = try? FileHandle(forWritingTo: scratch) else { return (-1, "cannot log") }
        process.standardOutput = handle
        process.standardError = handle
        guard (try? process.run()) != nil else { return (-1, "cannot start \(executable)") }
        process.waitUntilExit()
        try? handle.close()
        return (process.terminationStatus, (try? String(contentsOf: scratch, encoding: .utf8)) ?? "")
    }
}
