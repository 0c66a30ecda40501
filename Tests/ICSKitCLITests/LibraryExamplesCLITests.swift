import Foundation
import ICSKitTestSupport
import XCTest

/// The two example programs an app developer copies, against the Python libraries people check calendars with:
/// `AlarmTimesExample` against python icalendar's alarm times across clock changes, `SeriesEditingExample` ("this
/// and following" an hour later) against recurring-ical-events' reading of the file it writes.
final class LibraryExamplesCLITests: XCTestCase {
    func testAlarmTimesAgreeWithPythonIcalendarAcrossClockChanges() throws {
        try CLI.requirePythonTools()
        let file = CLI.fixture("library/alarms-across-dst.ics")
        let run = try CLI.run(
            [file, "2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z"],
            executable: CLI.builtExecutable("AlarmTimesExample"), timeout: 60, environment: ["TZ": "UTC"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let script = """
            import datetime, sys, icalendar, recurring_ical_events
            calendar = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
            times = []
            for event in recurring_ical_events.of(calendar).between(datetime.date(2026, 1, 1), datetime.date(2027, 1, 1)):
                for time in event.alarms.times:
                    times.append(time.trigger.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))
            print("\\n".join(sorted(times)))
            """
        let python = CLI.python(["-c", script, file])
        XCTAssertEqual(python.status, 0, python.stderr)
        XCTAssertEqual(run.stdout, python.stdout)
        // The day before 09:00 on the day the clocks go forward is 09:00 on the clock: 08:00Z in Berlin, 14:00Z in
        // New York, where 86,400 seconds would give 07:00Z and 13:00Z.
        XCTAssertTrue(run.stdout.contains("2026-03-28T08:00:00Z") && run.stdout.contains("2026-03-07T14:00:00Z"))
        XCTAssertEqual(run.stdout.split(separator: "\n").count, 13)
    }

    func testThisAndFollowingAnHourLaterAgreesWithRecurringICalEvents() throws {
        try CLI.requirePythonTools()
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = CLI.fixture("library/weekly-standup.ics")
        let output = folder.appendingPathComponent("edited.ics").path
        let cut = "2026-11-16T08:30:00Z"
        let run = try CLI.run(
            [input, output, "standup@series", cut], executable: CLI.builtExecutable("SeriesEditingExample"),
            timeout: 60)
        XCTAssertEqual(run.status, 0, run.stderr)
        // What recurring-ical-events reads from the file written, against the original with each instance from the
        // cut on an hour later.
        let script = """
            import datetime, sys, icalendar, recurring_ical_events
            def instances(path):
                calendar = icalendar.Calendar.from_ical(open(path, "rb").read())
                found = recurring_ical_events.of(calendar).between(datetime.date(2026, 1, 1), datetime.date(2027, 6, 1))
                return sorted((e["DTSTART"].dt, e["DTEND"].dt, str(e["SUMMARY"])) for e in found)
            cut = datetime.datetime.fromisoformat(sys.argv[3].replace("Z", "+00:00"))
            hour = datetime.timedelta(hours=1)
            expected = [(s + hour, e + hour, t) if s >= cut else (s, e, t) for s, e, t in instances(sys.argv[1])]
            got = instances(sys.argv[2])
            for s, e, t in got:
                print(s.astimezone(datetime.timezone.utc).isoformat(), e.astimezone(datetime.timezone.utc).isoformat(), t)
            print("same" if [(s.timestamp(), e.timestamp(), t) for s, e, t in got] == [(s.timestamp(), e.timestamp(), t) for s, e, t in expected] else "differ")
            """
        let python = CLI.python(["-c", script, input, output, cut])
        XCTAssertEqual(python.status, 0, python.stderr)
        let lines = python.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.last, "same", python.stdout)
        XCTAssertEqual(lines.count, 8, "seven instances (eight, one EXDATE) and the verdict: \(python.stdout)")
        let written = try String(contentsOfFile: output, encoding: .utf8)
        XCTAssertEqual(written.components(separatedBy: "BEGIN:VEVENT").count - 1, 3, "two series and the override")
    }
}
