import Foundation
import XCTest

/// `icskit agenda` and `icskit todo`, run as a subprocess.
final class AgendaTodoCLITests: XCTestCase {
    func agenda(_ arguments: [String]) throws -> [[String: Any]] {
        let run = try CLI.run(["agenda", CLI.fixture("hand/all-day-and-tasks.ics"), "--json", "-q"] + arguments)
        XCTAssertEqual(run.status, 0, run.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stdout)
    }

    /// An all-day event stays on its date in the zones furthest west and east of UTC.
    func testAllDayEventsStayOnTheirDateInEveryZone() throws {
        for zone in ["Pacific/Honolulu", "Pacific/Kiritimati", "UTC"] {
            let day = try agenda(["--from", "2026-11-23", "--to", "+1d", "--tz", zone])
            let holiday = day.first { $0["uid"] as? String == "holiday@example.com" }
            XCTAssertEqual(holiday?["start"] as? String, "2026-11-23", zone)
            XCTAssertEqual(holiday?["end"] as? String, "2026-11-24", zone)
            XCTAssertEqual(holiday?["all_day"] as? Bool, true, zone)
            for other in ["2026-11-22", "2026-11-24"] {
                let neighbours = try agenda(["--from", other, "--to", "+1d", "--tz", zone])
                XCTAssertFalse(
                    neighbours.contains { $0["uid"] as? String == "holiday@example.com" }, "\(zone) \(other)")
            }
        }
    }

    func testJSONShapeAndTimesInTheChosenZone() throws {
        let berlin = try agenda(["--from", "2026-11-23", "--to", "+3d", "--tz", "Europe/Berlin"])
        let calls = berlin.filter { $0["uid"] as? String == "call@example.com" }
        XCTAssertEqual(
            calls.map { $0["start"] as? String }, ["2026-11-23T21:00:00+01:00", "2026-11-24T21:00:00+01:00"])
        XCTAssertEqual(calls.first?["recurrence_id"] as? String, "2026-11-23T21:00:00+01:00")
        XCTAssertEqual(calls.first?["calendar"] as? String, "Home")
        XCTAssertEqual(calls.first?["summary"] as? String, "Call with Auckland")
        let utc = try agenda(["--from", "2026-11-23", "--to", "+1d", "--tz", "UTC"])
        XCTAssertEqual(
            utc.first { $0["uid"] as? String == "call@example.com" }?["end"] as? String, "2026-11-23T21:00:00Z")
        // In Auckland the first call is already on the 24th.
        let auckland = try agenda(["--from", "2026-11-24", "--to", "+1d", "--tz", "Pacific/Auckland"])
        XCTAssertEqual(
            auckland.filter { $0["uid"] as? String == "call@example.com" }.map { $0["start"] as? String },
            ["2026-11-24T09:00:00+13:00"])
    }

    /// A stream of VCALENDARs each with its own VTIMEZONE for one TZID: the zones a thread keeps for reuse are
    /// told apart by their text, so each calendar's events are placed by their own definition.
    func testEachCalendarOfAStreamPlacesTimesByItsOwnVTIMEZONE() throws {
        func calendar(_ uid: String, offset: String) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VTIMEZONE\r\nTZID:Office Time\r\n"
                + "BEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:\(offset)\r\nTZOFFSETTO:\(offset)\r\n"
                + "END:STANDARD\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\n"
                + "DTSTART;TZID=Office Time:20261124T090000\r\nSUMMARY:\(uid)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        }
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("stream.ics")
        let stream = (0..<3).map { calendar("a\($0)", offset: "+0100") + calendar("b\($0)", offset: "+0500") }.joined()
        try stream.write(to: file, atomically: true, encoding: .utf8)
        let run = try CLI.run([
            "agenda", file.path, "--json", "-q", "--from", "2026-11-24", "--to", "+1d", "--tz", "UTC",
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.count, 6)
        for row in rows {
            let uid = row["uid"] as? String ?? ""
            XCTAssertEqual(
                row["start"] as? String, uid.hasPrefix("a") ? "2026-11-24T08:00:00Z" : "2026-11-24T04:00:00Z", uid)
        }
    }

    /// The text agenda marks instances of a series (⟳), changed instances (⟳ changed) and alarms (⏰), as khal does,
    /// and draws a timed event over several days as its start, the days between and its end.
    func testTextAgendaMarksSeriesOverridesAlarmsAndMultiDaySpans() throws {
        let run = try CLI.run(["agenda", CLI.fixture("hand/agenda-marks.ics"), "--week", "2026-W48", "--tz", "UTC"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            run.stdout,
            """
            Mon 2026-11-23
              08:00–08:15  Standup ⟳  (agenda-marks)

            Tue 2026-11-24
              08:00–08:15  Standup ⟳  (agenda-marks)
              09:00 →      Conference (until Thu 2026-11-26 17:00) ⏰  (agenda-marks)

            Wed 2026-11-25
              ↔ all day    Conference ⏰  (agenda-marks)
              10:00–10:15  Standup (late) ⟳ changed  (agenda-marks)

            Thu 2026-11-26
                  → 17:00  Conference ⏰  (agenda-marks)
              08:00–08:15  Standup ⟳  (agenda-marks)

            Fri 2026-11-27
              08:00–08:15  Standup ⟳  (agenda-marks)

            """)
    }

    func testTextAgendaAndUsageErrors() throws {
        let run = try CLI.run([
            "agenda", CLI.fixture("hand/all-day-and-tasks.ics"), "--week", "2026-W48", "--tz", "UTC",
        ])
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(
            run.stdout.contains("Mon 2026-11-23\n  all day      Holiday  (Home)\n  20:00–21:00  Call with Auckland"),
            run.stdout)
        // An unknown zone or a week that does not read is a runtime error (one line, exit 1), not a usage error.
        XCTAssertEqual(try CLI.run(["agenda", CLI.fixture("hand/tasks.ics"), "--tz", "Mars/Olympus"]).status, 1)
        XCTAssertEqual(try CLI.run(["agenda", CLI.fixture("hand/tasks.ics"), "--week", "W99"]).status, 1)
        let empty = try CLI.run(["agenda", "--tz", "UTC"])
        XCTAssertEqual(empty.status, 0, "no files: the (empty, throwaway) store")
        XCTAssertTrue(empty.stdout.hasPrefix("nothing between"), empty.stdout)
    }

    func testMaxInstancesStopsAFlood() throws {
        let flood =
            "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:x\nBEGIN:VEVENT\nUID:f\nDTSTAMP:20260101T000000Z\n"
            + "DTSTART:20260101T000000Z\nRRULE:FREQ=SECONDLY\nEND:VEVENT\nEND:VCALENDAR\n"
        let run = try CLI.run(
            [
                "agenda", "-", "--from", "2026-01-01", "--to", "+1d", "--tz", "UTC", "--json",
                "--max-instances", "300",
            ], stdin: Data(flood.utf8))
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [Any])?.count, 300)
        XCTAssertTrue(run.stderr.contains("made more than 300 instances"), run.stderr)
    }

    /// `--component` lists recurring todos (at DTSTART, else DUE) and journals as recurring-ical-events does: the
    /// same instances, compared live with it on a file written for this; events stay the default.
    func testRecurringTodosAndJournalsWithComponent() throws {
        let file = CLI.fixture("hand/recurring-todos.ics")
        let ours = try CLI.agendaLines(file, from: "2026-01-01", to: "2026-02-15", components: "event,todo,journal")
        XCTAssertTrue(ours.contains("VTODO 2026-01-11 Water the plants"), "the completed override is an instance")
        XCTAssertTrue(ours.contains("VTODO 2026-01-14T12:00:00Z Renew passport"), "a todo with only DUE")
        XCTAssertFalse(ours.contains { $0.hasPrefix("VTODO 2026-01-19") }, "EXDATE")
        try CLI.requirePythonTools()
        XCTAssertEqual(
            ours,
            try CLI.recurringICalEventsLines(
                file, from: "2026-01-01", to: "2026-02-15", components: "event,todo,journal"))
        XCTAssertEqual(ours.count, 17)

        let text = try CLI.run([
            "agenda", file, "--from", "2026-01-11", "--to", "+4d", "--tz", "Europe/Berlin", "--component", "todo",
        ])
        XCTAssertTrue(text.stdout.contains("all day      [x] Water the plants"), text.stdout)
        XCTAssertTrue(text.stdout.contains("09:00–17:00  [ ] Weekly report"), text.stdout)
        XCTAssertTrue(text.stdout.contains("13:00        [ ] Renew passport"), text.stdout)
        XCTAssertFalse(text.stdout.contains("Standup"), "events were not asked for")
        let events = try CLI.run(["agenda", file, "--from", "2026-01-01", "--to", "2026-02-15", "--tz", "UTC"])
        XCTAssertEqual(events.stdout.components(separatedBy: "Standup").count - 1, 3, events.stdout)
        XCTAssertFalse(events.stdout.contains("Water"), "events only by default")
        XCTAssertEqual(try CLI.run(["agenda", file, "--component", "meeting"]).status, 2)
    }

    func testTodoNestsSubtasksAndFlagsOverdue() throws {
        let run = try CLI.run(["todo", CLI.fixture("hand/all-day-and-tasks.ics"), "--filter", "all", "--tz", "UTC"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, run.stdout)
        XCTAssertTrue(lines[0].hasPrefix("[ ] P2 Old report  1/1  due 2026-01-05 08:30  OVERDUE"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("    [x] Slides for the report"), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("[ ] Far future  due 2099-12-31"), lines[2])
        let open = try CLI.run([
            "todo", CLI.fixture("hand/all-day-and-tasks.ics"), "--json", "--tz", "UTC",
            "--category", "work",
        ])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(open.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(json.map { $0["uid"] as? String }, ["report@example.com"])
        XCTAssertEqual(json.first?["overdue"] as? Bool, true)
        XCTAssertEqual((json.first?["children"] as? [Any])?.count, 0, "the completed subtask is not open")
        let morning = try CLI.run([
            "todo", CLI.fixture("hand/all-day-and-tasks.ics"), "--filter", "all", "--slot",
            "morning", "--tz", "UTC",
        ])
        XCTAssertTrue(morning.stdout.contains("Old report") && !morning.stdout.contains("Slides"), morning.stdout)
        let stats = try CLI.run(["todo", CLI.fixture("hand/all-day-and-tasks.ics"), "--stats", "--json", "--tz", "UTC"])
        let table = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        let days = try XCTUnwrap(table["days"] as? [[String: Any]], stats.stdout)
        let day = days.first { $0["period"] as? String == "2026-01-05" }
        XCTAssertEqual(day?["due"] as? Int, 2)
        XCTAssertEqual(day?["completed"] as? Int, 1)
        XCTAssertEqual((table["weeks"] as? [[String: Any]])?.first?["period"] as? String, "2026-W02")
        XCTAssertEqual((table["logged_minutes"] as? [String: Any])?.count, 0, "nothing was logged in this file")
    }
}
