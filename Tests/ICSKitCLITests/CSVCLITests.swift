import Foundation
import XCTest

/// CSV through the built binary: convert both ways, import into the store, usage errors and bad cells.
final class CSVCLITests: XCTestCase {
    func testConvertToCSVAndBackKeepsTimesInTheGivenZone() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("week.csv").path
        let toCSV = try CLI.run([
            "convert", CLI.fixture("hand/all-day-and-tasks.ics"), "--tz", "Europe/Berlin", "-o", csv,
        ])
        XCTAssertEqual(toCSV.status, 0, toCSV.stderr)
        let text = try String(contentsOfFile: csv, encoding: .utf8)
        XCTAssertTrue(
            text.hasPrefix(
                "Subject,Start Date,Start Time,End Date,End Time,All Day Event,Description,"
                    + "Location,Private,UID,Categories,Status,Due,Completed,Priority,RRULE,Type\r\n"), text)
        let ics = directory.appendingPathComponent("week.ics").path
        let back = try CLI.run(["convert", csv, "--tz", "Europe/Berlin", "-o", ics])
        XCTAssertEqual(back.status, 0, back.stderr)
        // python icalendar reads the result and sees the same instants as in the original.
        let script = """
            import sys, icalendar
            def instants(path):
                cal = icalendar.Calendar.from_ical(open(path, 'rb').read())
                out = {}
                for c in cal.walk():
                    if c.name in ('VEVENT', 'VTODO'):
                        v = c.get('DTSTART') or c.get('DUE')
                        out[str(c['UID'])] = (c.name, str(c.get('SUMMARY')), v.dt.isoformat() if not hasattr(v.dt, 'astimezone') or not hasattr(v.dt, 'hour') else v.dt.astimezone(__import__('datetime').timezone.utc).isoformat())
                return out
            a, b = instants(sys.argv[1]), instants(sys.argv[2])
            print('same' if a == b else 'differ', a, b)
            """
        let check = StoreCLITests.python(["-c", script, CLI.fixture("hand/all-day-and-tasks.ics"), ics])
        XCTAssertTrue(check.stdout.hasPrefix("same"), check.stdout + check.stderr)
    }

    func testImportingACSVTwiceAddsNothingTheSecondTime() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite").path
        let csv = CLI.fixture("hand/csv/outlook-calendar.csv")
        let first = try CLI.run([
            "import", csv, "--store", store, "--calendar", "work", "--tz", "Europe/Berlin", "--json",
        ])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("\"added\": 3"), first.stdout)
        let second = try CLI.run([
            "import", csv, "--store", store, "--calendar", "work", "--tz", "Europe/Berlin", "--json",
        ])
        XCTAssertTrue(second.stdout.contains("\"added\": 0"), second.stdout)
        XCTAssertTrue(second.stdout.contains("\"unchanged\": 3"), second.stdout)
        let agenda = try CLI.run([
            "agenda", "--store", store, "--from", "2026-01-15", "--to", "2026-01-16",
            "--tz", "Europe/Berlin",
        ])
        XCTAssertTrue(agenda.stdout.contains("09:00") && agenda.stdout.contains("Quarterly review"), agenda.stdout)
        let tasks = try CLI.run([
            "import", CLI.fixture("hand/csv/outlook-tasks.csv"), "--store", store, "--calendar",
            "tasks",
        ])
        XCTAssertEqual(tasks.status, 0, tasks.stderr)
        let todo = try CLI.run(["todo", "--store", store, "--filter", "all"])
        XCTAssertTrue(todo.stdout.contains("File taxes"), todo.stdout)
    }

    func testBadCellsAndBadOptionsAreReported() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("bad.csv")
        try Data("Subject,Start Date\r\nOk,2026-01-05\r\nBroken,next tuesday\r\n".utf8).write(to: csv)
        let run = try CLI.run(["convert", csv.path, "--to", "ics"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(
            run.stderr.contains(
                "bad.csv:3: error: row 3, column \"Start Date\": \"next tuesday\" is not a "
                    + "date"), run.stderr)
        XCTAssertTrue(run.stdout.contains("SUMMARY:Ok") && !run.stdout.contains("Broken"), run.stdout)
        let strict = try CLI.run([
            "convert", csv.path, "--to", "ics", "--strict", "-o",
            directory.appendingPathComponent("out.ics").path,
        ])
        XCTAssertEqual(strict.status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.ics").path))
        let columns = try CLI.run(["convert", csv.path, "--columns", "Subject=headline"])
        XCTAssertEqual(columns.status, 2, columns.stderr)
        XCTAssertTrue(columns.stderr.contains("\"headline\" is no field"), columns.stderr)
        // An unknown zone is a runtime error, as for every other command's --tz.
        let zone = try CLI.run(["convert", csv.path, "--tz", "Mars/Olympus"])
        XCTAssertEqual(zone.status, 1)
        XCTAssertTrue(zone.stderr.contains("Mars/Olympus is not a time zone"), zone.stderr)
    }

    func testOverriddenInstancesAreNamedWhenCSVCannotCarryThem() throws {
        let source = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\nBEGIN:VEVENT\r\nUID:s\r\nDTSTAMP:20260101T000000Z\r
            DTSTART:20260105T090000Z\r\nRRULE:FREQ=DAILY;COUNT=3\r\nSUMMARY:Series\r\nEND:VEVENT\r\nBEGIN:VEVENT\r
            UID:s\r\nDTSTAMP:20260101T000000Z\r\nRECURRENCE-ID:20260106T090000Z\r\nDTSTART:20260106T110000Z\r
            SUMMARY:Moved\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """
        let run = try CLI.run(["convert", "--to", "csv"], stdin: Data(source.utf8))
        XCTAssertEqual(run.status, 0)
        // Named at its own line, not at line 0.
        XCTAssertEqual(
            run.stderr,
            "<stdin>:11: warning: \"Moved\" is an overridden instance (RECURRENCE-ID): CSV has no column for it; "
                + "not written\n")
        XCTAssertEqual(run.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count, 2, run.stdout)
    }
}
