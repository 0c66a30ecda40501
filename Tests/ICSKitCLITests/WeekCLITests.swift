import Foundation
import XCTest

@testable import ICSKitCLI

/// `icskit week` and `icskit today` (issue 60): a week on a terminal, compared with snapshots at 60, 100 and 160
/// columns of a week with a DST change (Sunday 25 October 2026 in Berlin), five overlapping events, a 200-character
/// title, CJK and emoji titles, an all-day item over two days, and todos in their time blocks (a repeating one with
/// an occurrence done). `ICSKIT_WRITE_SNAPSHOTS=1` writes the snapshots anew (then read them before committing).
final class WeekCLITests: StoreCLITestCase {
    let fixture = CLI.fixture("week/dst-week.ics")
    let week = ["--week", "2026-W43", "--tz", "Europe/Berlin", "--color", "never"]

    func testTheWeekAtThreeWidthsMatchesItsSnapshots() throws {
        for width in [60, 100, 160] {
            let run = try CLI.run(["week", fixture, "--width", String(width)] + week)
            XCTAssertEqual(run.status, 0, run.stderr)
            let snapshot = CLI.fixture("week/snapshot-\(width).txt")
            if ProcessInfo.processInfo.environment["ICSKIT_WRITE_SNAPSHOTS"] == "1" {
                try run.stdout.write(toFile: snapshot, atomically: true, encoding: .utf8)
            }
            XCTAssertEqual(run.stdout, try String(contentsOfFile: snapshot, encoding: .utf8), "\(width) columns")
            // No line is wider than asked, wide characters counting two.
            for line in run.stdout.split(separator: "\n") {
                XCTAssertLessThanOrEqual(TerminalWidth.of(String(line)), width, String(line))
            }
            // Every day column starts at the same place on every grid line.
            let grid = run.stdout.split(separator: "\n").dropFirst().filter { $0.contains("│") || $0.contains("┼") }
            let bars = Set(
                grid.map { line in
                    var columns: [Int] = []
                    var at = 0
                    for character in line {
                        if character == "│" || character == "┼" { columns.append(at) }
                        at += TerminalWidth.of(character)
                    }
                    return columns.prefix(1)
                })
            XCTAssertEqual(bars.count, 1, "\(width): \(bars)")
        }
    }

    func testWhatTheGridHolds() throws {
        let text = try CLI.run(["week", fixture, "--width", "160"] + week).stdout
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "2026-W43  2026-10-19 – 2026-10-25  (Europe/Berlin)")
        XCTAssertTrue(lines[1].hasPrefix("      │Mon 19"), lines[1])
        // The band above the hours: the conference over Thursday and Friday, drawn across both.
        let bar = try XCTUnwrap(lines[3].range(of: "│Conference in Porto"))
        let across = lines[3][bar.upperBound...].prefix { $0 != "│" }
        XCTAssertEqual(TerminalWidth.of("Conference in Porto" + across), 21 * 2 + 1, lines[3])
        // The hours the week's events take: from the night shift at 01:00 to the party ending at 20:00.
        XCTAssertTrue(lines[4].hasPrefix("01:00 "), lines[4])
        XCTAssertTrue(lines.contains { $0.hasPrefix("19:00 ") } && !lines.contains { $0.hasPrefix("20:00 ") })
        // Overlapping events side by side; the CJK title cut whole, two columns a character.
        XCTAssertTrue(text.contains("│Work…Work…"), text)
        XCTAssertTrue(text.contains("│東京チームと打ち合わ…│"), text)
        XCTAssertTrue(text.contains("│🎂 Party 🎉 at Ana's │"), text)
        // Todos in their time blocks; the repeating one every other day, Wednesday's ticked.
        XCTAssertTrue(lines.contains { $0.hasPrefix("morn  │") && $0.contains("[ ] Send the report") })
        XCTAssertTrue(lines.contains { $0.hasPrefix("eve   │") && $0.contains("[ ] Call mum") })
        let any = try XCTUnwrap(lines.first { $0.hasPrefix("any   │") })
        XCTAssertEqual(any.components(separatedBy: "[ ] Water plants").count - 1, 3, any)
        XCTAssertEqual(any.components(separatedBy: "[x] Water plants").count - 1, 1, any)
        // --hours chooses the rows; colours only when asked for.
        let hours = try CLI.run(["week", fixture, "--width", "100", "--hours", "9-12"] + week).stdout
        XCTAssertEqual(hours.split(separator: "\n").filter { $0.hasSuffix(":00") || $0.contains(":00 ") }.count, 3)
        XCTAssertFalse(text.contains("\u{1B}["))
        let colored = try CLI.run(
            ["week", fixture, "--width", "100", "--week", "2026-W43", "--tz", "Europe/Berlin", "--color", "always"])
        XCTAssertTrue(colored.stdout.contains("\u{1B}[48;2;"), colored.stdout)
        let noColor = try CLI.run(
            ["week", fixture, "--width", "100", "--week", "2026-W43", "--tz", "Europe/Berlin"],
            environment: ["NO_COLOR": "1"])
        XCTAssertFalse(noColor.stdout.contains("\u{1B}["))
        XCTAssertEqual(try CLI.run(["week", "--width", "40"]).status, 2, "a usage error")
    }

    func testTheWeekAsJSON() throws {
        let run = try CLI.run(["week", fixture, "--json"] + week)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["week"] as? String, "2026-W43")
        let days = try XCTUnwrap(json["days"] as? [[String: Any]])
        XCTAssertEqual(days.map { $0["date"] as? String }.first, "2026-10-19")
        let wednesday = try XCTUnwrap(days[2]["events"] as? [[String: Any]])
        XCTAssertEqual(wednesday.count, 6, "the stand-up and five overlapping")
        let sunday = try XCTUnwrap(days[6]["events"] as? [[String: Any]])
        let shift = try XCTUnwrap(sunday.first { $0["summary"] as? String == "Night shift over the change" })
        XCTAssertEqual(shift["start"] as? String, "2026-10-25T01:00:00+02:00")
        XCTAssertEqual(shift["end"] as? String, "2026-10-25T04:00:00+01:00", "after the change")
        let todos = try XCTUnwrap(days[2]["todos"] as? [[String: Any]])
        XCTAssertEqual(todos.first?["done"] as? Bool, true)
    }

    func testTodayOnOneScreen() throws {
        try icskit(["import", fixture, "--calendar", "Planner", "-q"])
        // 10:45 in Berlin (summer time).
        let at = ["--tz", "Europe/Berlin", "--now", "2026-10-21T08:45:00Z"]
        let run = try icskit(["today"] + at)
        XCTAssertEqual(
            run.stdout,
            """
            Wed 2026-10-21  (Europe/Berlin)
            now:  10:00–13:00  Workshop A  (Planner); 10:30–12:00  Workshop B  (Planner)
            next: 11:00–11:30  Dentist  (Planner)

            events today:
              09:00–09:30  Stand-up  (Planner)
              10:00–13:00  Workshop A  (Planner)
              10:30–12:00  Workshop B  (Planner)
              11:00–11:30  Dentist  (Planner)
              11:00–12:30  Call with the Lisbon office  (Planner)
              12:00–14:00  Lunch  (Planner)
            todos due today: none
            overdue:
              [ ] Send the report  due 2026-10-20 09:00  (Planner)

            """)
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(try icskit(["today", "--json"] + at).stdout.utf8))
                as? [String: Any])
        XCTAssertEqual((json["events"] as? [Any])?.count, 6)
        XCTAssertEqual(((json["overdue"] as? [[String: Any]])?.first)?["summary"] as? String, "Send the report")
    }
}
