import Foundation
import XCTest

/// The store through the built binary: import, export, merge, rm, done.
final class StoreCLITests: XCTestCase {
    var directory: URL!
    var store: String { directory.appendingPathComponent("store.sqlite").path }

    override func setUpWithError() throws { directory = try CLI.temporaryDirectory() }

    @discardableResult
    func icskit(_ arguments: [String], status expected: Int32 = 0, stdin: Data? = nil) throws -> CLI.Run {
        let run = try CLI.run(arguments + ["--store", store], stdin: stdin)
        XCTAssertEqual(run.status, expected, "icskit \(arguments.joined(separator: " ")): \(run.stderr)")
        return run
    }

    func json(_ run: CLI.Run) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
    }

    func write(_ name: String, _ events: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + events + "END:VCALENDAR\r\n").utf8)
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    static func event(_ uid: String, _ summary: String, sequence: Int = 0, day: Int = 10) -> String {
        "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\nSEQUENCE:\(sequence)\r\n"
            + "DTSTART:202612\(day)T090000Z\r\nDTEND:202612\(day)T100000Z\r\nSUMMARY:\(summary)\r\nEND:VEVENT\r\n"
    }

    func testImportExportReimportChangesNothing() throws {
        let files = [
            "corpus-copies/google-issue52.ics", "corpus-copies/khal-recuid-no-master.ics", "hand/tasks.ics",
            "hand/all-day-and-tasks.ics", "hand/google-x-wr-timezone.ics", "hand/uids.ics",
        ]
        var first: [String: Any] = [:]
        for file in files {
            first = try json(icskit(["import", CLI.fixture(file), "--calendar", "Mixed", "--json", "-q"]))
        }
        XCTAssertEqual(first["added"] as? Int, 3, "the last file: 4 events, one a duplicate UID (skipped)")
        XCTAssertEqual(first["skipped"] as? Int, 1)
        // Importing the same files again changes nothing.
        for file in files {
            let again = try json(icskit(["import", CLI.fixture(file), "--calendar", "Mixed", "--json", "-q"]))
            XCTAssertEqual(again["added"] as? Int, 0, file)
            XCTAssertEqual(again["updated"] as? Int, 0, file)
        }
        // The export, imported back into the same calendar, changes nothing either: no duplicates, no updates.
        let exported = directory.appendingPathComponent("export.ics").path
        try icskit(["export", "--calendar", "Mixed", "-o", exported])
        let round = try json(icskit(["import", exported, "--calendar", "Mixed", "--json", "-q"]))
        XCTAssertEqual(round["added"] as? Int, 0)
        XCTAssertEqual(round["updated"] as? Int, 0)
        XCTAssertGreaterThan(round["unchanged"] as? Int ?? 0, 10)
        // Items without a UID got the same derived UID every time.
        let text = try String(contentsOfFile: exported, encoding: .utf8)
        XCTAssertEqual(text.components(separatedBy: "@derived").count - 1, 1, "one derived UID, once")
        // X-WR-TIMEZONE was applied to the events on import, so the export does not carry it (it would move the
        // UTC times of the other files' items); no file had a NAME, so the store's name is the calendar's.
        XCTAssertFalse(text.contains("X-WR-TIMEZONE"), text)
        XCTAssertTrue(text.contains("\r\nNAME:Mixed\r\n"), text)
    }

    /// A calendar's own properties (RFC 7986 NAME with its parameter, UID, COLOR, REFRESH-INTERVAL, X-WR-CALNAME,
    /// X- properties) and its VAVAILABILITY and unknown components survive import → export, line for line; a
    /// second import changes nothing and duplicates nothing.
    func testCalendarPropertiesAndOtherComponentsSurviveImportExport() throws {
        let file = CLI.fixture("hand/calendar-properties.ics")
        try icskit(["import", file, "--calendar", "team", "-q"])
        let exported = try icskit(["export", "--calendar", "team"]).stdout
        let original = try String(contentsOfFile: file, encoding: .utf8)
        for line in [
            "NAME;LANGUAGE=de:Team", "X-WR-CALNAME;LANGUAGE=de:Team calendar", "UID:cal-123", "COLOR:teal",
            "REFRESH-INTERVAL;VALUE=DURATION:PT1H", "X-CUSTOM-CAL:keep me",
        ] {
            XCTAssertTrue(exported.contains("\r\n" + line + "\r\n"), "\(line) in \(exported)")
        }
        func block(_ name: String, in text: String) -> String? {
            guard let start = text.range(of: "BEGIN:\(name)\r\n"),
                let end = text.range(of: "END:\(name)\r\n", range: start.upperBound..<text.endIndex)
            else { return nil }
            return String(text[start.lowerBound..<end.upperBound])
        }
        for name in ["VAVAILABILITY", "X-THING"] {
            XCTAssertNotNil(block(name, in: original))
            XCTAssertEqual(block(name, in: exported), block(name, in: original), name)
        }
        let again = try json(icskit(["import", file, "--calendar", "team", "--json", "-q"]))
        XCTAssertEqual(again["updated"] as? Int, 0)
        let second = try icskit(["export", "--calendar", "team"]).stdout
        XCTAssertEqual(second, exported)
        XCTAssertEqual(second.components(separatedBy: "BEGIN:VAVAILABILITY").count - 1, 1)
        // A merge keeps them too.
        try icskit(["merge", file, "--into", "pulled", "-q"])
        let merged = try icskit(["export", "--calendar", "pulled"]).stdout
        XCTAssertTrue(
            merged.contains("\r\nNAME;LANGUAGE=de:Team\r\nX-WR-CALNAME;LANGUAGE=de:Team calendar\r\n"), merged)
        XCTAssertEqual(block("VAVAILABILITY", in: merged), block("VAVAILABILITY", in: original))
    }

    func testAnITIPStreamImportsItsNewestVersionsAndASecondImportChangesNothing() throws {
        // One file of several VCALENDARs (iTIP REQUESTs), each with an update of the same meetings; the updates
        // do not arrive in SEQUENCE order, and one has a newer DTSTAMP at the same SEQUENCE.
        func message(_ uid: String, sequence: Int, stamp: Int, summary: String) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n"
                + "DTSTAMP:202601\(10 + stamp)T000000Z\r\nSEQUENCE:\(sequence)\r\nDTSTART:20261210T090000Z\r\n"
                + "SUMMARY:\(summary)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        }
        let stream = directory.appendingPathComponent("stream.ics").path
        try Data(
            (message("m1", sequence: 0, stamp: 0, summary: "M1 first")
                + message("m2", sequence: 1, stamp: 1, summary: "M2 old")
                + message("m1", sequence: 2, stamp: 2, summary: "M1 newest")
                + message("m1", sequence: 1, stamp: 3, summary: "M1 late")
                + message("m2", sequence: 1, stamp: 4, summary: "M2 restamped")).utf8
        ).write(to: URL(fileURLWithPath: stream))
        // Applied as invitations (RFC 5546): each message in turn, an older one skipped; again, every one was
        // received before.
        let first = try json(icskit(["import", stream, "--calendar", "Invites", "--json", "-q"]))
        XCTAssertEqual([first["added"], first["updated"], first["skipped"]].map { $0 as? Int }, [2, 2, 1])
        let second = try json(icskit(["import", stream, "--calendar", "Invites", "--json", "-q"]))
        XCTAssertEqual([second["added"], second["updated"], second["unchanged"]].map { $0 as? Int }, [0, 0, 5])
        let exported = try icskit(["export", "--calendar", "Invites"]).stdout
        XCTAssertTrue(exported.contains("SUMMARY:M1 newest"), exported)
        XCTAssertTrue(exported.contains("SUMMARY:M2 restamped"), exported)
        // A merge of the stream takes the same versions, and a second merge changes nothing.
        let merged = try json(icskit(["merge", stream, "--into", "Merged", "--json"]))
        XCTAssertEqual(merged["added"] as? Int, 2)
        let again = try json(icskit(["merge", stream, "--into", "Merged", "--json"]))
        XCTAssertEqual([again["added"], again["updated"], again["deleted"]].map { $0 as? Int }, [0, 0, 0])
        XCTAssertTrue(try icskit(["export", "--calendar", "Merged"]).stdout.contains("SUMMARY:M1 newest"))
    }

    func testMergeFollowsTheDecisionTable() throws {
        let v1 = try write("v1.ics", Self.event("a", "A") + Self.event("b", "B") + Self.event("c", "C"))
        var result = try json(icskit(["merge", v1, "--into", "Work", "--json"]))
        XCTAssertEqual(result["added"] as? Int, 3)
        result = try json(icskit(["merge", v1, "--into", "Work", "--json"]))
        XCTAssertEqual(
            [result["added"], result["updated"], result["deleted"]].map { $0 as? Int }, [0, 0, 0],
            "merging the same file twice changes nothing")
        // Local edit of C, local deletion of B.
        try icskit(["edit", "c", "--summary", "C edited here"])
        try icskit(["rm", "b"])
        // External: A changed, B unchanged, C gone, D new.
        let v2 = try write(
            "v2.ics",
            Self.event("a", "A changed", sequence: 1) + Self.event("b", "B")
                + Self.event("d", "D"))
        let dry = try icskit(["merge", v2, "--into", "Work", "--dry-run", "--json"])
        let before = try icskit(["export", "--calendar", "Work"]).stdout
        result = try json(dry)
        XCTAssertEqual(try icskit(["export", "--calendar", "Work"]).stdout, before, "--dry-run writes nothing")
        let kinds = Dictionary(
            uniqueKeysWithValues: (result["actions"] as? [[String: Any]] ?? []).map {
                ($0["uid"] as? String ?? "", $0["action"] as? String ?? "")
            })
        XCTAssertEqual(kinds, ["a": "update", "b": "stay-deleted", "c": "keep-local", "d": "add"])
        result = try json(icskit(["merge", v2, "--into", "Work", "--json"]))
        XCTAssertEqual(result["updated"] as? Int, 1)
        XCTAssertEqual(result["added"] as? Int, 1)
        let after = try icskit(["export", "--calendar", "Work"]).stdout
        XCTAssertTrue(after.contains("SUMMARY:A changed") && after.contains("SUMMARY:C edited here"))
        XCTAssertFalse(after.contains("UID:b\r\n"), "deleted locally, stays deleted")
        // A gone externally and unchanged locally → deleted; both sides change D → conflict handling.
        try icskit(["edit", "d", "--summary", "D local"])
        let v3 = try write("v3.ics", Self.event("b", "B") + Self.event("d", "D external", sequence: 2))
        result = try json(icskit(["merge", v3, "--into", "Work", "--on-conflict", "fail", "--json"], status: 1))
        XCTAssertEqual(result["conflicts"] as? Int, 1)
        XCTAssertEqual(result["deleted"] as? Int, 1)
        result = try json(icskit(["merge", v3, "--into", "Work", "--on-conflict", "keep-both", "--json"]))
        XCTAssertEqual(result["added"] as? Int, 1)
        let kept = try icskit(["export", "--calendar", "Work"]).stdout
        XCTAssertTrue(kept.contains("SUMMARY:D local") && kept.contains("SUMMARY:D external"))
        XCTAssertTrue(kept.contains("RELATED-TO;RELTYPE=SIBLING:d"), kept)
        // An external file that suddenly holds nothing is refused, unless --force-delete.
        try icskit(["merge", v1, "--into", "Other"])
        let empty = try write("empty.ics", "")
        let refused = try icskit(["merge", empty, "--into", "Other"], status: 1)
        XCTAssertTrue(refused.stderr.contains("refusing to delete"), refused.stderr)
        XCTAssertEqual(
            try icskit(["export", "--calendar", "Other"]).stdout.components(separatedBy: "BEGIN:VEVENT").count,
            4, "refused: nothing deleted")
        result = try json(icskit(["merge", empty, "--into", "Other", "--force-delete", "--json"]))
        XCTAssertEqual(result["deleted"] as? Int, 3)
    }

    /// A weekly series with a moved instance, deleted here; externally only its master changes. The merge brings
    /// the series back with its override (the moved instance at its new time, not at the rule's), and a second
    /// merge of the same file changes nothing: the store agrees with the source again.
    func testASeriesDeletedHereAndChangedExternallyComesBackWhole() throws {
        func series(_ summary: String, sequence: Int) -> String {
            "BEGIN:VEVENT\r\nUID:weekly\r\nDTSTAMP:20260101T000000Z\r\nSEQUENCE:\(sequence)\r\n"
                + "DTSTART:20260105T090000Z\r\nDURATION:PT1H\r\nRRULE:FREQ=WEEKLY;COUNT=4\r\nSUMMARY:\(summary)\r\n"
                + "END:VEVENT\r\nBEGIN:VEVENT\r\nUID:weekly\r\nDTSTAMP:20260101T000000Z\r\n"
                + "RECURRENCE-ID:20260112T090000Z\r\nDTSTART:20260113T150000Z\r\nDURATION:PT1H\r\n"
                + "SUMMARY:Moved\r\nEND:VEVENT\r\n"
        }
        let v1 = try write("series-v1.ics", series("Weekly", sequence: 0))
        try icskit(["merge", v1, "--into", "Team", "-q"])
        // A whole series goes only when asked for: without a terminal, --yes says so.
        let refused = try icskit(["rm", "weekly"], status: 1)
        XCTAssertTrue(
            refused.stderr.contains("Remove the whole recurring series \"Weekly\"")
                && refused.stderr.contains("add --yes"), refused.stderr)
        try icskit(["rm", "weekly", "--yes"])
        let v2 = try write("series-v2.ics", series("Weekly, new room", sequence: 1))
        let result = try json(icskit(["merge", v2, "--into", "Team", "--json"]))
        let kinds = (result["actions"] as? [[String: Any]] ?? []).map { $0["action"] as? String ?? "" }
        XCTAssertEqual(kinds, ["update", "update"], "\(result)")
        let agenda = try icskit([
            "agenda", "--calendar", "Team", "--from", "2026-01-05", "--to", "2026-02-05", "--tz", "UTC", "--json",
        ])
        let starts = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(agenda.stdout.utf8)) as? [[String: Any]])
            .map { "\($0["start"]!) \($0["summary"]!)" }
        XCTAssertEqual(
            starts,
            [
                "2026-01-05T09:00:00Z Weekly, new room", "2026-01-13T15:00:00Z Moved",
                "2026-01-19T09:00:00Z Weekly, new room", "2026-01-26T09:00:00Z Weekly, new room",
            ])
        let again = try json(icskit(["merge", v2, "--into", "Team", "--json"]))
        XCTAssertEqual([again["added"], again["updated"], again["deleted"]].map { $0 as? Int }, [0, 0, 0])
    }

    func testAnIdenticalFileIsPlannedFromTheBaseAsAFullMergeWould() throws {
        let v1 = try write("v1.ics", Self.event("a", "A") + Self.event("b", "B") + Self.event("c", "C"))
        try icskit(["merge", v1, "--into", "Sub"])
        try icskit(["rm", "b"])
        try icskit(["edit", "c", "--calendar", "Sub", "--summary", "C edited here"])
        func kinds(_ result: [String: Any]) -> [String: String] {
            Dictionary(
                uniqueKeysWithValues: (result["actions"] as? [[String: Any]] ?? []).map {
                    ($0["uid"] as? String ?? "", $0["action"] as? String ?? "")
                })
        }
        // The same bytes (planned from the base, unparsed) and the same items in other bytes (a new DTSTAMP, as
        // Google writes on every export: parsed and merged in full) give the same plan.
        let identical = try json(icskit(["merge", v1, "--into", "Sub", "--json"]))
        let restamped = try write(
            "v1-restamped.ics",
            (Self.event("a", "A") + Self.event("b", "B")
                + Self.event("c", "C")).replacingOccurrences(of: "DTSTAMP:20260101", with: "DTSTAMP:20260202"))
        let full = try json(icskit(["merge", restamped, "--into", "Sub", "--json"]))
        XCTAssertEqual(kinds(identical), ["a": "unchanged", "b": "stay-deleted", "c": "keep-local"])
        XCTAssertEqual(kinds(identical), kinds(full))
        XCTAssertEqual(identical["unchanged"] as? Int, full["unchanged"] as? Int)
        // A file whose merge left a conflict is merged in full again: the conflict is reported every time.
        try icskit(["edit", "a", "--calendar", "Sub", "--summary", "A here"])
        let conflicting = try write("v2.ics", Self.event("a", "A there", sequence: 4) + Self.event("c", "C"))
        for _ in 0..<2 {
            let result = try json(
                icskit(
                    ["merge", conflicting, "--into", "Sub", "--on-conflict", "fail", "--json"],
                    status: 1))
            XCTAssertEqual(result["conflicts"] as? Int, 1)
        }
        // Once merged, the same bytes are recognised again, now with the new base.
        try icskit(["merge", conflicting, "--into", "Sub", "--prefer", "external"])
        let again = try json(icskit(["merge", conflicting, "--into", "Sub", "--json"]))
        XCTAssertEqual(kinds(again)["a"], "unchanged")
        XCTAssertEqual([again["added"], again["updated"], again["deleted"]].map { $0 as? Int }, [0, 0, 0])
    }

    func testAWeekExportHoldsTheSeriesThatReachIt() throws {
        func series(_ uid: String, _ rule: String) -> String {
            "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260105T090000Z\r\n"
                + "DTEND:20260105T100000Z\r\nRRULE:\(rule)\r\nSUMMARY:\(uid)\r\nEND:VEVENT\r\n"
        }
        let file = try write(
            "series.ics",
            series("three-days", "FREQ=DAILY;COUNT=3")
                + series("ten-weeks", "FREQ=WEEKLY;COUNT=10") + series("until-jan", "FREQ=DAILY;UNTIL=20260110T090000Z")
                + series("open", "FREQ=MONTHLY") + Self.event("single", "Single", day: 10))
        try icskit(["import", file, "--calendar", "Series", "-q"])
        func uids(_ week: String) throws -> [String] {
            let text = try icskit(["export", "--calendar", "Series", "--week", week]).stdout
            return text.components(separatedBy: "\r\n").filter { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
                .sorted()
        }
        XCTAssertEqual(try uids("2026-W02"), ["open", "ten-weeks", "three-days", "until-jan"])
        XCTAssertEqual(try uids("2026-W06"), ["open", "ten-weeks"], "the series that ended stay out")
        XCTAssertEqual(try uids("2026-W12"), [], "COUNT=10 weekly ended on 9 March; no monthly instance that week")
        XCTAssertEqual(try uids("2026-W14"), ["open"], "5 April")
        XCTAssertEqual(try uids("2026-W50"), ["single"])
    }

    func testNewestWinsByDefaultAndDoneMarksTodos() throws {
        let v1 = try write("v1.ics", Self.event("x", "X"))
        try icskit(["merge", v1, "--into", "Home"])
        try icskit(["edit", "x", "--summary", "X local"])
        // Changed there later than here (LAST-MODIFIED): the external summary wins.
        let newer = try write(
            "v2.ics",
            Self.event("x", "X external", sequence: 3).replacingOccurrences(
                of: "DTSTAMP:20260101T000000Z", with: "DTSTAMP:20260101T000000Z\r\nLAST-MODIFIED:20991231T000000Z"))
        let result = try json(icskit(["merge", newer, "--into", "Home", "--json"]))
        XCTAssertEqual(result["updated"] as? Int, 1)
        XCTAssertEqual(result["conflicts"] as? Int, 1)
        XCTAssertTrue(try icskit(["export", "--calendar", "Home"]).stdout.contains("SUMMARY:X external"))
        let todo = try write(
            "t.ics", "BEGIN:VTODO\r\nUID:t1\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Call\r\nEND:VTODO\r\n")
        try icskit(["import", todo, "--calendar", "Home", "-q"])
        try icskit(["done", "t1"])
        XCTAssertTrue(try icskit(["todo", "--filter", "completed", "--tz", "UTC"]).stdout.contains("[x] Call"))
        // An unknown UID is a runtime error: one line, exit 1.
        try icskit(["done", "nope"], status: 1)
    }

    /// A big calendar made here, so the test needs nothing beside the checkout.
    func bigCalendar(_ count: Int, prefix: String) throws -> String {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
        for index in 0..<count {
            text +=
                "BEGIN:VEVENT\r\nUID:\(prefix)-\(index)\r\nDTSTAMP:20260101T000000Z\r\n"
                + "DTSTART;TZID=Europe/Berlin:20260\(1 + index % 9)1\(index % 10)T090000\r\nDURATION:PT1H\r\n"
                + "RRULE:FREQ=WEEKLY;COUNT=\(1 + index % 20)\r\nSUMMARY:Event \(index) with some text\r\nEND:VEVENT\r\n"
        }
        let path = directory.appendingPathComponent("\(prefix).ics").path
        try Data((text + "END:VCALENDAR\r\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func itemCount() throws -> Int {
        let run = try icskit(["export"])
        return run.stdout.components(separatedBy: "BEGIN:VEVENT").count - 1
    }

    /// SIGKILL in the middle of an import leaves a consistent store with all of that import or none of it.
    func testAKilledImportLeavesAllOrNothing() throws {
        let big = try bigCalendar(12_000, prefix: "big")
        for delay in [0.2, 0.6, 1.2, 2.0] {
            try? FileManager.default.removeItem(atPath: store)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLI.binary)
            process.arguments = ["import", big, "--calendar", "Big", "-q", "--store", store]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let check = try CLI.run(["check-store", "--store", store])
            if check.status == 0 { XCTAssertTrue(check.stdout.contains("integrity: ok"), check.stdout) }
            // Killed while the new store's tables were being made (a loaded machine), the store is one the next
            // writer finishes and readers refuse: its rows are counted by SQLite itself.
            let tables =
                FileManager.default.fileExists(atPath: store)
                ? try CLI.sqlite(store, "SELECT count(*) FROM sqlite_master WHERE name = 'item'") : "0\n"
            let count = tables == "1\n" ? Int(try CLI.sqlite(store, "SELECT count(*) FROM item").dropLast()) ?? -1 : 0
            XCTAssertTrue(count == 0 || count == 12_000, "after a kill at \(delay) s the store holds \(count) items")
        }
        let report = try json(icskit(["import", big, "--calendar", "Big", "--json", "-q"]))
        XCTAssertEqual((report["added"] as? Int ?? 0) + (report["unchanged"] as? Int ?? 0), 12_000)
    }

    /// Two imports into the same store at once both land whole.
    func testConcurrentImportsLoseNothing() throws {
        let first = try bigCalendar(3000, prefix: "left"), second = try bigCalendar(3000, prefix: "right")
        let processes = [first, second].map { file -> Process in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLI.binary)
            process.arguments = ["import", file, "--calendar", "Shared", "-q", "--store", store]
            process.standardOutput = FileHandle.nullDevice
            return process
        }
        try icskit(["import", try write("seed.ics", Self.event("seed", "Seed")), "--calendar", "Shared", "-q"])
        for process in processes { try process.run() }
        for process in processes { process.waitUntilExit() }
        XCTAssertEqual(processes.map(\.terminationStatus), [0, 0])
        XCTAssertEqual(try itemCount(), 6001)
    }
}

extension StoreCLITests {
    /// A week exported from the store reads in python icalendar and gives the instances the store's agenda gives.
    func testAnExportedWeekMatchesTheAgendaInPythonIcalendar() throws {
        try CLI.requirePythonTools()
        for file in [
            "hand/google-x-wr-timezone.ics", "hand/all-day-and-tasks.ics", "corpus-copies/outlook-2010.ics",
            "hand/windows-zone-names.ics",
        ] {
            try icskit(["import", CLI.fixture(file), "-q"])
        }
        for week in ["2026-W13", "2026-W48"] {
            let exported = directory.appendingPathComponent("\(week).ics").path
            try icskit(["export", "--week", week, "--tz", "UTC", "-o", exported])
            let agenda = try icskit(["agenda", "--week", week, "--tz", "UTC", "--json", "-q"])
            let ours = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(agenda.stdout.utf8)) as? [[String: Any]])
                .map { "\($0["uid"] as? String ?? "") \($0["start"] as? String ?? "")" }.sorted()
            XCTAssertFalse(ours.isEmpty, week)
            let monday = LocalDate.monday(week)
            let script = """
                import sys, datetime, icalendar, recurring_ical_events
                cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
                start = datetime.datetime.fromisoformat(sys.argv[2] + 'T00:00:00+00:00')
                for e in recurring_ical_events.of(cal).between(start, start + datetime.timedelta(days=7)):
                    s = e['DTSTART'].dt
                    if isinstance(s, datetime.datetime):
                        s = s.astimezone(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')
                    else:
                        s = s.isoformat()
                    print(e['UID'], s)
                """
            let python = Self.python(["-c", script, exported, monday])
            XCTAssertEqual(python.status, 0, python.stderr)
            let theirs = python.stdout.split(separator: "\n").map(String.init).sorted()
            XCTAssertEqual(theirs, ours, week)
        }
    }

    static func python(_ arguments: [String]) -> CLI.Run { CLI.python(arguments) }
}

/// ISO week → the date of its Monday, for the python side of the comparison.
enum LocalDate {
    static func monday(_ week: String) -> String {
        let parts = week.split(separator: "-W")
        let (year, number) = (Int(parts[0])!, Int(parts[1])!)
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = calendar.date(from: DateComponents(weekday: 2, weekOfYear: number, yearForWeekOfYear: year))!
        let parts2 = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts2.year!, parts2.month!, parts2.day!)
    }
}

extension StoreCLITests {
    func testAddLogAndCategoriesTravelAsICalendar() throws {
        let parent = try icskit([
            "add", "todo", "Write report", "--due", "2026-11-27", "--priority", "1", "--category",
            "Work", "--color", "#FF8800", "--tz", "UTC",
        ]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(parent.hasSuffix("@icskit"), parent)
        try icskit(["add", "todo", "Charts", "--parent", parent, "--due", "2026-11-26 14:00", "--tz", "UTC"])
        try icskit([
            "add", "event", "Dentist", "--start", "2026-11-24 09:30", "--duration", "45m", "--alarm", "-1h",
            "--tz", "Europe/Berlin", "--calendar", "Health",
        ])
        try icskit(["log", parent, "--duration", "25m", "--interrupted"])
        try icskit(["log", parent, "--duration", "1h"])
        let todos = try icskit(["todo", "--tz", "UTC"]).stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(todos[0].hasPrefix("[ ] P1 Write report  0/1  due 2026-11-27"), todos.joined(separator: "\n"))
        XCTAssertTrue(todos[1].hasPrefix("    [ ] Charts  due 2026-11-26 14:00"))
        let stats = try json(icskit(["todo", "--stats", "--json", "--tz", "UTC"]))
        XCTAssertEqual((stats["logged_minutes"] as? [String: Int])?.values.reduce(0, +), 85)
        XCTAssertTrue(try icskit(["categories"]).stdout.contains("Work  #FF8800  1 item"))
        try icskit(["categories", "--set-color", "Work", "#3366FF"])
        XCTAssertTrue(try icskit(["categories"]).stdout.contains("Work  #3366FF"))
        let agenda = try icskit(["agenda", "--from", "2026-11-24", "--to", "+1d", "--tz", "Europe/Berlin"]).stdout
        XCTAssertTrue(agenda.contains("09:30–10:15  Dentist ⏰  (Health)  id:"), agenda)  // added with --alarm
        // What was added is plain iCalendar: the journal links to the todo, the alarm sits in the event.
        let exported = try icskit(["export"]).stdout.replacingOccurrences(of: "\r\n ", with: "")
        XCTAssertTrue(exported.contains("RELATED-TO;RELTYPE=PARENT:\(parent)"))
        XCTAssertTrue(exported.contains("X-ICSKIT-DURATION:PT25M") && exported.contains("X-ICSKIT-INTERRUPTED:TRUE"))
        XCTAssertTrue(
            exported.contains("DTSTART;TZID=Europe/Berlin:20261124T093000") && exported.contains("TRIGGER:-PT1H"))
        XCTAssertTrue(exported.contains("TZID:Europe/Berlin"), "a VTIMEZONE for the TZID used")
        let reread = try CLI.run(["validate", "-"], stdin: Data(exported.utf8))
        XCTAssertEqual(reread.status, 0, reread.stdout)
        // Category colours travel with the export into another store (whose own choices stay).
        XCTAssertTrue(exported.contains("X-ICSKIT-CATEGORY-COLOR;X-CATEGORY=Work:#3366FF"), exported)
        let other = directory.appendingPathComponent("other.sqlite").path
        XCTAssertEqual(try CLI.run(["categories", "--set-color", "Health", "#00AA00", "--store", other]).status, 0)
        let claimsHealth = exported.replacingOccurrences(
            of: "X-ICSKIT-CATEGORY-COLOR;X-CATEGORY=Work",
            with: "X-ICSKIT-CATEGORY-COLOR;X-CATEGORY=Health:#FF0000\r\nX-ICSKIT-CATEGORY-COLOR;X-CATEGORY=Work")
        let imported = try CLI.run(
            ["import", "-", "--calendar", "Moved", "-q", "--store", other],
            stdin: Data(claimsHealth.utf8))
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let categories = try CLI.run(["categories", "--store", other]).stdout
        XCTAssertTrue(categories.contains("Work  #3366FF") && categories.contains("Health  #00AA00"), categories)
        try icskit(["add", "event", "No start"], status: 2)
        try icskit(["log", "nope@x", "--duration", "5m"], status: 1)
    }
}
