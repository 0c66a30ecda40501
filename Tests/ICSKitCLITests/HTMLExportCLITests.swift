import Foundation
import ICSKitTestSupport
import XCTest

/// `icskit export --format html`: the page's content, and the page rendered by headless Chromium (Debian's
/// `chromium` package, which .ci/run installs) to a PNG with no script errors.
final class HTMLExportCLITests: XCTestCase {
    /// A store holding the hand-made planner week (2026-W47, Europe/Berlin), and that week as HTML.
    func exportPlannerWeek(_ directory: URL, window: [String] = ["--week", "2026-W47"]) throws
        -> (path: String, html: String)
    {
        let store = directory.appendingPathComponent("store.sqlite").path
        if !FileManager.default.fileExists(atPath: store) {
            let imported = try CLI.run(["import", CLI.fixture("hand/week/planner.ics"), "--store", store])
            XCTAssertEqual(imported.status, 0, imported.stderr)
        }
        let page = directory.appendingPathComponent(window[0] == "--month" ? "month.html" : "week.html").path
        let run = try CLI.run(
            ["export", "--format", "html"] + window + ["--tz", "Europe/Berlin", "--store", store, "-o", page])
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
        // The 34-hour on-call shift is in the grid on Tuesday and Wednesday, not in the bar strip.
        XCTAssertTrue(html.contains("<span class=\"time\">13:00–…</span> <span class=\"what\">Release on-call"))
        XCTAssertTrue(html.contains("<span class=\"time\">…–23:00</span> <span class=\"what\">Release on-call"))
        XCTAssertFalse(html.contains("class=\"bar\" style=\"grid-column:3"), "no bar from Tuesday")
        XCTAssertTrue(html.contains("title=\"Release on-call · Tue 17 Nov 13:00 – Wed 18 Nov 23:00"))
        // A short event shows its title first (the time after it), in the block and in its tooltip.
        XCTAssertTrue(
            html.contains(
                "title=\"Call with Ana about the flat · 16:30–17:00 · Home\"><span class=\"what\">Call with Ana "
                    + "about the flat</span> <span class=\"time\">16:30–17:00</span>"))
        // The legend says what the colours stand for.
        XCTAssertTrue(html.contains("<li class=\"legend-kind\">Colour by category:</li>"))
        // The moved stand-up shows at its new time; the regular ones on the other weekdays.
        XCTAssertTrue(html.contains("Stand-up (moved)</span> <span class=\"time\">10:00–10:15</span>"))
        XCTAssertEqual(html.components(separatedBy: "<span class=\"what\">Stand-up</span>").count - 1, 4)
        // Gantt: what covers several days on the week's scale, then the one overlapping group on its hours' scale.
        let gantt = html.components(separatedBy: "<div class=\"gantt-label\">").dropFirst().map {
            String($0.prefix { $0 != "<" })
        }.filter { !$0.isEmpty }
        XCTAssertEqual(
            gantt,
            [
                "Release on-call", "SwiftConf Lisbon", "Overnight hackathon", "Design review",
                "Interview: backend role", "Dentist",
            ])
        XCTAssertTrue(html.contains("<h3>Overlapping · Mon 16 Nov 10:00–12:00 · 3 events</h3>"))
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

    /// Five FREQ=SECONDLY series in 750 bytes once made a page of 257 MB: the page has an instance budget, and a
    /// page it cut short says so at its top and on standard error.
    func testAFloodOfSecondlySeriesMakesASmallPageThatSaysItIsIncomplete() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
        for index in 0..<5 {
            text +=
                "BEGIN:VEVENT\r\nUID:s\(index)@t\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20261123T00000\(index)Z\r\n"
                + "DURATION:PT1S\r\nRRULE:FREQ=SECONDLY\r\nSUMMARY:Tick \(index)\r\nEND:VEVENT\r\n"
        }
        let file = directory.appendingPathComponent("seconds.ics")
        try (text + "END:VCALENDAR\r\n").write(to: file, atomically: true, encoding: .utf8)
        let store = directory.appendingPathComponent("store.sqlite").path
        XCTAssertEqual(try CLI.run(["import", file.path, "--calendar", "Ticks", "-q", "--store", store]).status, 0)
        for (window, name) in [(["--week", "2026-W48"], "week.html"), (["--month", "2026-11"], "month.html")] {
            let page = directory.appendingPathComponent(name).path
            let run = try CLI.run(
                ["export", "--format", "html"] + window + ["--tz", "UTC", "--store", store, "-o", page])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.stderr.contains("the window holds more than 5000 instances"), run.stderr)
            let html = try String(contentsOfFile: page, encoding: .utf8)
            XCTAssertTrue(html.contains("<p class=\"warning\" role=\"alert\">this page is incomplete"), name)
            XCTAssertLessThan(html.utf8.count, 8 << 20, "\(name) is \(html.utf8.count) bytes")
        }
        // A page within its budget says nothing of the kind; --max-total moves the budget.
        let fewer = directory.appendingPathComponent("day.html").path
        let small = try CLI.run(
            [
                "export", "--format", "html", "--week", "2026-W48", "--tz", "UTC", "--max-total", "40000", "--store",
                store, "--calendar", "Ticks", "-o", fewer,
            ])
        XCTAssertTrue(small.stderr.contains("more than 40000"), small.stderr)
        let planner = directory.appendingPathComponent("planner")
        try FileManager.default.createDirectory(at: planner, withIntermediateDirectories: true)
        let plannerPage = try exportPlannerWeek(planner).html
        XCTAssertTrue(plannerPage.contains("Made by icskit"))
        XCTAssertFalse(plannerPage.contains("class=\"warning\""))
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

    /// In Chromium's layout: the on-call shift is drawn in the Tuesday and Wednesday columns, and the title of every
    /// short event starts inside its block (a probe script, added to a copy of the page, measures them).
    func testChromiumShowsMultiDayEventsInTheGridAndShortTitles() throws {
        let chromium = try Self.chromium()
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (page, html) = try exportPlannerWeek(directory)
        let probe = """
            <script>(function(){var out=[];document.querySelectorAll('.day').forEach(function(day,i){
            day.querySelectorAll('.event').forEach(function(ev){var what=ev.querySelector('.what');
            var e=ev.getBoundingClientRect(),w=what.getBoundingClientRect();
            var shown=e.height>=8&&w.width>=8&&w.top>=e.top-1&&w.top<e.bottom-6&&w.left<e.right-8;
            out.push(i+'/'+what.textContent+'/'+(shown?'shown':'hidden'));});});
            document.body.setAttribute('data-probe',out.join('|'));})();</script>
            """
        let probed = directory.appendingPathComponent("probe.html")
        try Data(html.replacingOccurrences(of: "</body>", with: probe + "</body>").utf8).write(to: probed)
        let dom = Self.run(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,1100", "--dump-dom",
                "file://\(probed.path)",
            ])
        XCTAssertEqual(dom.status, 0, dom.output)
        let marker = "data-probe=\""
        let attribute = try XCTUnwrap(dom.output.components(separatedBy: marker).dropFirst().first, dom.output)
        let shown = Set(attribute.prefix { $0 != "\"" }.components(separatedBy: "|"))
        for expected in [
            "1/Release on-call/shown", "2/Release on-call/shown", "3/Call with Ana about the flat/shown",
            "0/Stand-up/shown", "2/Stand-up (moved)/shown",
        ] {
            XCTAssertTrue(shown.contains(expected), "\(expected) not in \(shown.sorted())")
        }
        XCTAssertFalse(
            shown.contains { $0.hasSuffix("Release on-call/shown") && !$0.hasPrefix("1/") && !$0.hasPrefix("2/") })
        XCTAssertTrue(FileManager.default.fileExists(atPath: page))
    }

    func testTheMonthPageRendersInChromium() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (page, html) = try exportPlannerWeek(directory, window: ["--month", "2026-11"])
        // Whole weeks around November: Mon 26 Oct to Sun 6 Dec, 42 days; the days outside are dimmed.
        XCTAssertEqual(html.components(separatedBy: "<div class=\"month-day").count - 1, 42)
        XCTAssertEqual(html.components(separatedBy: "<div class=\"month-day outside").count - 1, 6 + 6)
        XCTAssertTrue(html.contains("<p class=\"sub\">November 2026 · times in Europe/Berlin</p>"))
        // The series runs on through the month; the on-call shift is marked on its two days; todos on their day.
        XCTAssertEqual(html.components(separatedBy: "<span class=\"what\">Stand-up</span>").count - 1, 4 + 5 + 5)
        XCTAssertTrue(html.contains("<span class=\"time\">13:00 →</span> <span class=\"what\">Release on-call"))
        XCTAssertTrue(html.contains("<span class=\"time\">→ 23:00</span> <span class=\"what\">Release on-call"))
        XCTAssertTrue(html.contains("SwiftConf Lisbon →</li>"))
        XCTAssertTrue(html.contains("☐</span> <span class=\"what\">Submit travel expenses"))
        let chromium = try Self.chromium()
        let png = directory.appendingPathComponent("month.png").path
        let shot = Self.run(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1400,1000",
                "--screenshot=\(png)", "file://\(page)",
            ])
        XCTAssertEqual(shot.status, 0, shot.output)
        XCTAssertGreaterThan(try Data(contentsOf: URL(fileURLWithPath: png)).count, 20_000)
        let dom = Self.run(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0", "--dump-dom",
                "file://\(page)",
            ])
        XCTAssertEqual(dom.status, 0)
        XCTAssertTrue(dom.output.contains("data-rendered=\"ok\""), dom.output)
        XCTAssertFalse(dom.output.contains("Uncaught"), dom.output)
        XCTAssertFalse(dom.output.contains(":ERROR:CONSOLE"), dom.output)
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
        throw Requirement.missing("headless Chromium is not installed (apt-get install chromium; .ci/run does)")
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
