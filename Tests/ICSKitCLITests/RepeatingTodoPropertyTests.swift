import CalendarModel
import Foundation
import ICSKitTestSupport
import XCTest

/// Issue 60's property test: random repeating todos (RRULE with COUNT, UNTIL or neither, RDATEs, EXDATEs; DTSTART,
/// DUE or both; dates, UTC, zoned and floating times) and random completions and reopenings of occurrences. After
/// each, every other occurrence keeps its state; recurring-ical-events reads the written calendar with the same
/// occurrences in the same states; and through the store, `done` then `undo` gives back the export byte for byte.
final class RepeatingTodoPropertyTests: XCTestCase {
    static let zones = ["UTC", "Europe/Berlin", "America/New_York", "", "date"]

    /// One random repeating todo as iCalendar text.
    static func todo(_ random: inout SeededGenerator, uid: String) -> String {
        let form = zones.randomElement(using: &random)!
        let day = Int.random(in: 1...26, using: &random), hour = Int.random(in: 6...20, using: &random)
        func value(_ day: Int, _ hour: Int) -> String {
            let date = String(format: "202703%02d", day)
            switch form {
            case "date": return ";VALUE=DATE:" + date
            case "UTC": return ":" + date + String(format: "T%02d0000Z", hour)
            case "": return ":" + date + String(format: "T%02d0000", hour)
            default: return ";TZID=\(form):" + date + String(format: "T%02d0000", hour)
            }
        }
        var lines = ["BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20270101T000000Z", "SUMMARY:Task \(uid)"]
        switch Int.random(in: 0..<3, using: &random) {
        case 0: lines.append("DTSTART" + value(day, hour))
        case 1: lines.append("DUE" + value(day, hour))
        default: lines += ["DTSTART" + value(day, hour), "DUE" + value(day + 1, hour)]
        }
        let frequency = ["DAILY", "WEEKLY", "MONTHLY"].randomElement(using: &random)!
        var rule = "RRULE:FREQ=\(frequency);INTERVAL=\(Int.random(in: 1...3, using: &random))"
        switch Int.random(in: 0..<3, using: &random) {
        case 0: rule += ";COUNT=\(Int.random(in: 3...12, using: &random))"
        case 1: rule += ";UNTIL=" + (form == "date" ? "20280101" : form == "" ? "20280101T000000" : "20280101T000000Z")
        default: break
        }
        lines.append(rule)
        if Bool.random(using: &random) { lines.append("RDATE" + value(27, hour)) }
        // An excluded date: an instance of a daily rule, a day in no instance of the others.
        if Bool.random(using: &random) { lines.append("EXDATE" + value(day + 2, hour)) }
        return (lines + ["END:VTODO"]).joined(separator: "\r\n") + "\r\n"
    }

    static func calendar(_ body: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//property//EN\r\n" + body + "END:VCALENDAR\r\n"
    }

    /// An occurrence as both sides write it: its start (DTSTART, else DUE) in UTC, floating, or as a date; and
    /// whether it is done.
    static func key(_ occurrence: TodoOccurrence) -> String {
        guard let value = occurrence.start ?? occurrence.due, let date = occurrence.startDate ?? occurrence.dueDate
        else {
            return "?"
        }
        let wall = LocalDateTime(value)
        if value.isDate { return String(format: "%04d-%02d-%02d", wall.year, wall.month, wall.day) }
        if value.form == .floating {
            return String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d", wall.year, wall.month, wall.day, wall.hour, wall.minute,
                wall.second)
        }
        let utc = LocalDateTime(CalendarDate(date, in: .utc))
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", utc.year, utc.month, utc.day, utc.hour, utc.minute, utc.second)
    }

    static let window = (Date(timeIntervalSince1970: 1_787_000_000), Date(timeIntervalSince1970: 1_830_000_000))

    func testRandomCompletionsKeepEveryOtherOccurrenceAndReadTheSameElsewhere() throws {
        try CLI.requirePythonTools()
        var (random, seed, count) = SeededGenerator.start(
            "repeating todos", seedVariable: "ICSKIT_TODO_SEED", countVariable: "ICSKIT_TODO_CASES", defaultCount: 500,
            unit: "series")
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var expected: [String] = []
        var completions = 0
        for index in 0..<count {
            let uid = "t\(index)@property"
            let text = Self.calendar(Self.todo(&random, uid: uid))
            var calendar = try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first)
            var series = try XCTUnwrap(TodoSeries(calendar, uid: uid))
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let before = series.occurrences(from: Self.window.0, to: Self.window.1, zone: .utc)
                guard let chosen = before.randomElement(using: &random) else { break }
                let reopening = chosen.isDone && Bool.random(using: &random)
                if reopening { series.reopen(chosen) } else if !chosen.isDone { series.complete(chosen, zone: .utc) }
                completions += 1
                let after = series.occurrences(from: Self.window.0, to: Self.window.1, zone: .utc)
                XCTAssertEqual(after.map(Self.key), before.map(Self.key), "seed \(seed), \(uid): the occurrences stay")
                for (old, new) in zip(before, after) where Self.key(old) != Self.key(chosen) {
                    XCTAssertEqual(old.isDone, new.isDone, "seed \(seed), \(uid): \(Self.key(old)) kept its state")
                }
                let now = after.first { Self.key($0) == Self.key(chosen) }
                XCTAssertEqual(now?.isDone, reopening ? false : true, "seed \(seed), \(uid): \(Self.key(chosen))")
            }
            calendar.replace(series)
            let written = String(decoding: ICS.write([calendar]), as: UTF8.self)
            try written.write(to: directory.appendingPathComponent("\(index).ics"), atomically: true, encoding: .utf8)
            let reread = try XCTUnwrap(
                TodoSeries(try XCTUnwrap(ICS.read(Array(written.utf8)).calendars.first), uid: uid))
            expected += reread.occurrences(from: Self.window.0, to: Self.window.1, zone: .utc).map {
                "\(index) \(Self.key($0)) \($0.isDone ? "done" : "open")"
            }
        }
        XCTAssertGreaterThan(completions, count)
        // recurring-ical-events, over every file in one run.
        let script = """
            import sys, os, datetime as dt, icalendar, recurring_ical_events
            sys.path.insert(0, sys.argv[2])
            from differential import normalized
            start, end = dt.datetime.fromtimestamp(\(Int(Self.window.0.timeIntervalSince1970)), dt.timezone.utc), \\
                dt.datetime.fromtimestamp(\(Int(Self.window.1.timeIntervalSince1970)), dt.timezone.utc)
            for name in sorted(os.listdir(sys.argv[1]), key=lambda n: int(n.split('.')[0])):
                calendar = icalendar.Calendar.from_ical(open(os.path.join(sys.argv[1], name), 'rb').read())
                for todo in recurring_ical_events.of(calendar, components=['VTODO']).between(start, end):
                    moment = (todo.get('DTSTART') or todo.get('DUE')).dt
                    done = str(todo.get('STATUS', '')).upper() == 'COMPLETED' or todo.get('COMPLETED') is not None
                    print(name.split('.')[0], normalized(moment), 'done' if done else 'open')
            """
        let run = CLI.python(["-c", script, directory.path, CLI.package.appendingPathComponent("scripts").path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let theirs = run.stdout.split(separator: "\n").map(String.init)
        // Compared where both place an occurrence well inside the window (at its edges each reads it in other zones).
        func inner(_ line: String) -> Bool {
            let moment = line.split(separator: " ")[1]
            return moment >= "2026-08-24" && moment <= "2027-12-24"
        }
        XCTAssertEqual(Set(theirs.filter(inner)), Set(expected.filter(inner)), "seed \(seed)")
        XCTAssertGreaterThan(expected.filter(inner).count, count * 3, "the occurrences compared")
        XCTAssertEqual(theirs.filter(inner).count, expected.filter(inner).count, "seed \(seed)")
        XCTAssertGreaterThan(expected.filter { $0.hasSuffix("done") }.count, count / 2)
    }

    /// Through the store: `done` of a random occurrence, then `undo`, gives back the export byte for byte.
    func testUndoOfDoneGivesTheFileBack() throws {
        var (random, seed, count) = SeededGenerator.start(
            "repeating todos undone", seedVariable: "ICSKIT_TODO_SEED", countVariable: "ICSKIT_TODO_UNDO_CASES",
            defaultCount: 12, unit: "series")
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite").path
        let file = directory.appendingPathComponent("todos.ics")
        let uids = (0..<count).map { "u\($0)@property" }
        try Self.calendar(uids.map { Self.todo(&random, uid: $0) }.joined()).write(
            to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try CLI.run(["import", file.path, "--calendar", "Todos", "-q", "--store", store]).status, 0)
        for uid in uids {
            let before = try CLI.run(["export", "--store", store]).stdout
            let done = try CLI.run(
                ["done", uid, "--store", store, "--tz", "UTC"] + (Bool.random(using: &random) ? ["--series"] : []))
            XCTAssertEqual(done.status, 0, "seed \(seed), \(uid): \(done.stderr)")
            XCTAssertNotEqual(try CLI.run(["export", "--store", store]).stdout, before, "seed \(seed), \(uid)")
            XCTAssertEqual(try CLI.run(["undo", "--store", store]).status, 0)
            XCTAssertEqual(try CLI.run(["export", "--store", store]).stdout, before, "seed \(seed), \(uid): undone")
        }
    }
}
