import Foundation
import XCTest

/// Issue 59's "work without bound": each input that cost far more than its size now meets a limit, said in one line
/// and listed in SECURITY.md. (How long each takes is measured by `make bench`, hostile inputs, not here.)
final class WorkBoundsCLITests: FeedServerTestCase {
    func write(_ text: String, _ name: String) throws -> String {
        let path = scratch.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A JSCalendar event with a large body and `overrides` small patches: each patched instance is the whole event.
    static func amplifying(overrides: Int, bodyKB: Int) -> String {
        let body = String(repeating: "x", count: bodyKB << 10)
        let patches = (0..<overrides).map { index in
            let day = Calendar(identifier: .gregorian).date(
                byAdding: .day, value: index, to: Date(timeIntervalSince1970: 1_798_761_600))!
            let stamp = ISO8601DateFormatter().string(from: day).prefix(10)
            return "\"\(stamp)T09:00:00\": {\"title\": \"n\(index)\"}"
        }
        return """
            {"@type": "Event", "uid": "amp@bounds", "title": "Big", "description": "\(body)",
             "start": "2027-01-01T09:00:00", "timeZone": "Europe/Berlin",
             "recurrenceRules": [{"@type": "RecurrenceRule", "frequency": "daily"}],
             "recurrenceOverrides": {\(patches.joined(separator: ", "))}}
            """
    }

    func testJSCalendarOverridesMayNotCopyTheirEventPastSixteenTimesTheDocument() throws {
        // 1,000 patches of a 64 kB event: a 100 kB document that would make 64 MB of iCalendar.
        let hostile = try write(Self.amplifying(overrides: 1_000, bodyKB: 64), "amplifying.json")
        let refused = try CLI.run([
            "convert", hostile, "--from", "jscalendar", "-o", scratch.appendingPathComponent("out.ics").path,
        ])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(
            (refused.stdout + refused.stderr).contains(
                "the recurrenceOverrides of this document copy their events past 16 times its size; nothing read"),
            refused.stdout + refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("out.ics").path))
        // The same shape at a real size (a daily series with 50 changed instances of a 1 kB event) is read.
        let real = try write(Self.amplifying(overrides: 50, bodyKB: 1), "real.json")
        let read = try CLI.run(["convert", real, "--from", "jscalendar"])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(read.stdout.components(separatedBy: "RECURRENCE-ID").count, 51)
    }

    func testAFeedWithMoreItemsThanItMayHoldChangesNothing() throws {
        let events = (0..<12).map { ("i\($0)@feed", "Item \($0)", "202612\(String(format: "%02d", $0 + 1))T090000Z") }
        try server.serve(FeedCLITests.calendar(events))
        let refused = try CLI.run(
            ["subscribe", server.feed("correct"), "--into", "Many", "--max-items", "10", "--store", store])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains("holds more than 10 items (12); nothing merged (--max-items N raises it)"),
            refused.stderr)
        let exported = try CLI.run(["export", "--store", store])
        XCTAssertFalse(exported.stdout.contains("BEGIN:VEVENT"), exported.stdout)
        let taken = try CLI.run(
            ["subscribe", server.feed("correct"), "--into", "Many", "--max-items", "12", "--store", store])
        XCTAssertEqual(taken.status, 0, taken.stderr)
        XCTAssertEqual(
            try CLI.run(["export", "--store", store]).stdout.components(separatedBy: "BEGIN:VEVENT").count, 13)
        XCTAssertEqual(
            try CLI.run(["refresh", "--max-items", "0", "--store", store]).stderr,
            "Error: --max-items takes a count, 1 to 1000000\nUsage: icskit refresh [<options>] [<calendars> ...]\n"
                + "  See 'icskit refresh --help' for more information.\n")
    }

    /// Messages kept aside are capped (1,000 an item): the newest stay, the run says older ones were let go.
    func testMessagesKeptAsideAreCapped() throws {
        let added = try CLI.run(["add", "event", "Mine", "--start", "2026-12-01 10:00", "--store", store])
        let uid = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let forged = (0..<1_005).map { index in
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//m//EN\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n"
                + "DTSTAMP:20261128T000000Z\r\nSEQUENCE:\(index)\r\nDTSTART:20261201T100000Z\r\nSUMMARY:Forged \(index)\r\n"
                + "ORGANIZER:mailto:m@evil.example\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        }
        let run = try CLI.run(["invite", try write(forged.joined(), "forged.ics"), "--store", store])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(
            run.stdout.contains("(older messages kept aside were let go: at most 1000 an item, 10000 in all)"),
            String(run.stdout.suffix(400)))
        let held = try CLI.run(["invite", "--held", "--json", "--store", store])
        let messages = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(held.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(messages.count, 1_000)
        XCTAssertEqual(messages.first?["summary"] as? String, "Mine")
        XCTAssertTrue(try CLI.run(["export", "--store", store]).stdout.contains("SUMMARY:Mine"))
    }
}
