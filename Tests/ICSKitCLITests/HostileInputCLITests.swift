import Foundation
import XCTest

/// Input written to break the tool: it is reported with its line, the rest still converts, and nothing crashes,
/// runs without bound or writes output that a strict reader of its format refuses.
final class HostileInputCLITests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws { directory = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws -> String {
        try write(name, bytes: Data(text.utf8))
    }

    func write(_ name: String, bytes: Data) throws -> String {
        try bytes.write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    func read(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }

    /// Runs icskit with a store of this test's own; fails the test on another exit status or on a kill by a signal.
    @discardableResult
    func icskit(
        _ arguments: [String], status expected: Int32? = 0, timeout: TimeInterval = 120,
        stdin: Data? = nil
    ) throws -> CLI.Run {
        let run = try CLI.run(arguments, stdin: stdin, timeout: timeout)
        XCTAssertFalse(run.timedOut, "icskit \(arguments.joined(separator: " ")) ran longer than \(timeout) s")
        if let expected {
            XCTAssertEqual(
                run.status, expected, "icskit \(arguments.joined(separator: " ")): \(run.stderr.prefix(2000))")
        }
        return run
    }

    func calendar(_ body: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body + "END:VCALENDAR\r\n"
    }

    func event(_ uid: String, _ lines: String...) -> String {
        "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\n" + lines.map { $0 + "\r\n" }.joined()
            + "END:VEVENT\r\n"
    }

    // MARK: 7. Deep nesting

    func deeplyNested(_ depth: Int) -> String {
        calendar(
            event("ok@test", "DTSTART:20260310T090000Z", "SUMMARY:Kept")
                + "BEGIN:VEVENT\r\nUID:deep@test\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260311T090000Z\r\n"
                + String(repeating: "BEGIN:X-A\r\n", count: depth) + String(repeating: "END:X-A\r\n", count: depth)
                + "END:VEVENT\r\n")
    }

    func testFortyThousandNestedComponentsAreSkippedWithADiagnosticNotACrash() throws {
        let deep = try write("deep.ics", deeplyNested(40_000))
        let converted = try icskit(["convert", deep, "-o", path("deep-out.ics")])
        XCTAssertTrue(converted.stderr.contains("deep.ics:"), converted.stderr)
        XCTAssertTrue(converted.stderr.contains("nests deeper than 32 components"), converted.stderr)
        let output = try read("deep-out.ics")
        XCTAssertTrue(output.contains("SUMMARY:Kept"))
        XCTAssertTrue(output.contains("UID:deep@test"), "the event holding the deep part is kept")
        // The diagnostic is given once, for the first component past the cap, not once per level.
        XCTAssertEqual(converted.stderr.components(separatedBy: "nests deeper").count - 1, 1, converted.stderr)

        let validated = try icskit(["validate", deep], status: 1)
        XCTAssertTrue(
            validated.stderr.contains("deep.ics:44:") || validated.stdout.contains("deep.ics:44:"),
            validated.stdout + validated.stderr)
        for format in ["json", "xml", "csv"] {
            try icskit(["convert", deep, "-q", "-o", path("deep-out.\(format)")])
        }
    }

    func testABatchWithADeeplyNestedFileConvertsTheOthersAndWritesItsReport() throws {
        let first = try write("a-first.ics", calendar(event("first@test", "DTSTART:20260310T090000Z")))
        let deep = try write("b-deep.ics", deeplyNested(40_000))
        let last = try write("c-last.ics", calendar(event("last@test", "DTSTART:20260312T090000Z")))
        let run = try icskit([
            "convert", first, deep, last, "--out-dir", path("out"), "--to", "jcal",
            "--report", "json", "--jobs", "2",
        ])
        for name in ["a-first", "b-deep", "c-last"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: path("out/\(name).json")), name)
        }
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["converted"] as? Int, 3)
        let files = try XCTUnwrap(report["files"] as? [[String: Any]])
        let deepDiagnostics = try XCTUnwrap(files[1]["diagnostics"] as? [[String: Any]])
        XCTAssertEqual(deepDiagnostics.first?["severity"] as? String, "error")
        XCTAssertEqual(deepDiagnostics.first?["line"] as? Int, 44)
    }

    // MARK: 8. jCal strictness

    func testAHighSurrogateBeforeAnotherEscapeIsAnErrorNotACrash() throws {
        let file = try write("surrogate.json", #"["vcalendar",[["prodid",{},"text","\uD800\u0041"]],[]]"#)
        let run = try icskit(["convert", file, "-o", path("out.ics")], status: 1)
        XCTAssertTrue(run.stderr.contains("surrogate.json:1:"), run.stderr)
        XCTAssertTrue(run.stderr.lowercased().contains("surrogate"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.ics")), "nothing is written for a bad file")
    }

    func testJCalIsReadAsStrictJSONWithLineAndColumn() throws {
        // Each case puts one thing RFC 8259 forbids on line 3 of an otherwise good jCal document.
        let cases: [(name: String, value: String, column: Int)] = [
            ("plus", "+1", 27), ("leading-zero", "01", 27), ("bare-fraction", ".5", 27), ("bare-point", "1.", 29),
            ("bad-escape", #""\q""#, 28), ("raw-control", "\"a\u{01}b\"", 29),
        ]
        for (name, value, column) in cases {
            let text =
                "[\"vcalendar\",\n  [[\"prodid\", {}, \"text\", \"-//t//EN\"],\n"
                + "   [\"x-n\", {}, \"integer\", \(value)]],\n  []]\n"
            let file = try write("\(name).json", text)
            let run = try icskit(["validate", file], status: 1)
            let output = run.stdout + run.stderr
            XCTAssertTrue(output.contains("\(name).json:3:\(column):"), "\(name): \(output)")
        }
        // The same document with a good number reads.
        let good = try write(
            "good.json",
            "[\"vcalendar\",\n  [[\"prodid\", {}, \"text\", \"-//t//EN\"],\n"
                + "   [\"x-n\", {}, \"integer\", -1]],\n  []]\n")
        try icskit(["validate", good])
    }

    // MARK: 9. Every output parses in a strict reader of its format

    func testOutputsOfOddValuesParseInStrictReaders() throws {
        try CLI.requirePythonTools()
        let odd = calendar(
            event(
                "odd@test", "DTSTART:20260310T090000Z", "SEQUENCE:007", "GEO:.5;2.",
                "X-FOO;VALUE=FLOAT:1.e5", "X-BAR;VALUE=INTEGER:+0042", "RRULE:FREQ=DAILY;COUNT=2")
                + "BEGIN:VTODO\r\nUID:todo@test\r\nDTSTAMP:20260101T000000Z\r\nPERCENT-COMPLETE:050\r\nEND:VTODO\r\n"
                + "BEGIN:VEVENT\r\nUID:nul@test\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260310T090000Z\r\n"
                + "RRULE:FREQ=DAILY;X-\u{0}A=1;COUNT=2\r\nEND:VEVENT\r\n")
        let source = try write("odd.ics", odd)
        try icskit(["convert", source, "-q", "-o", path("odd.json")])
        try icskit(["convert", source, "-q", "-o", path("odd.xml")])
        let checks = """
            import json, sys, xml.dom.minidom
            doc = json.loads(open(sys.argv[1], encoding='utf-8').read(), parse_constant=lambda c: sys.exit('constant ' + c))
            props = {p[0]: p[3:] for p in doc[2][0][1]}
            assert props['sequence'] == [7], props['sequence']
            assert props['geo'] == [[0.5, 2.0]], props['geo']
            assert props['x-foo'] == [100000.0], props['x-foo']
            todo = {p[0]: p[3:] for p in doc[2][1][1]}
            assert todo['percent-complete'] == [50], todo
            xml.dom.minidom.parse(sys.argv[2])
            print('ok')
            """
        let run = CLI.python(["-c", checks, path("odd.json"), path("odd.xml")])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "ok\n")
        // And back to iCalendar from each: python icalendar reads the result.
        for name in ["odd.json", "odd.xml"] {
            try icskit(["convert", path(name), "-q", "-o", path(name + ".ics")])
            try assertPythonIcalendarReads(path(name + ".ics"))
        }
    }

    func testACharacterReferenceXMLForbidsIsRefusedAndNeverReachesICS() throws {
        try CLI.requirePythonTools()
        let xcal = """
            <?xml version="1.0" encoding="UTF-8"?>
            <icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0"><vcalendar><properties>
            <prodid><text>-//t//EN</text></prodid><version><text>2.0</text></version></properties><components>
            <vevent><properties><uid><text>x@test</text></uid><dtstamp><date-time>2026-01-01T00:00:00Z</date-time></dtstamp>
            <summary><text>bell&#1;here</text></summary></properties></vevent></components></vcalendar></icalendar>
            """
        let file = try write("ref.xml", xcal)
        let run = try icskit(["convert", file, "-o", path("ref.ics")], status: 1)
        XCTAssertTrue(run.stderr.contains("ref.xml:5:"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("ref.ics")))
        // An allowed reference (a tab) still reads, and what comes out is iCalendar python icalendar reads.
        let tab = try write("tab.xml", xcal.replacingOccurrences(of: "&#1;", with: "&#9;"))
        try icskit(["convert", tab, "-q", "-o", path("tab.ics")])
        XCTAssertTrue(try read("tab.ics").contains("SUMMARY:bell\there"))
        try assertPythonIcalendarReads(path("tab.ics"))
    }

    func assertPythonIcalendarReads(_ file: String, file callerFile: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let script = """
            import sys, icalendar
            cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            for component in cal.walk():
                for name, value in component.property_items():
                    pass
            print('ok')
            """
        let run = CLI.python(["-c", script, file])
        XCTAssertEqual(run.status, 0, "\(file): \(run.stderr)", file: callerFile, line: line)
    }

    // MARK: 10. Instance floods

    func testAFloodOfSecondlySeriesStopsAtTheBudgetWithAWarning() throws {
        var body = ""
        for index in 0..<20 {
            body += event(
                "flood-\(index)@test", "DTSTART:20000101T0000\(String(format: "%02d", index))Z",
                "RRULE:FREQ=SECONDLY", "SUMMARY:Flood \(index)")
        }
        let file = try write("flood.ics", calendar(body))
        let run = try icskit(
            [
                "agenda", file, "--from", "2000-01-01", "--to", "2100-01-01", "--json", "--max-total",
                "50000",
            ], timeout: 60)
        XCTAssertTrue(run.stderr.contains("more than 50000 instances"), run.stderr)
        XCTAssertEqual(run.stderr.components(separatedBy: "more than 50000 instances").count - 1, 1, "said once")
        let instances = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [Any])
        XCTAssertEqual(instances.count, 50_000)
        // The default budget holds too, without a flag.
        let byDefault = try icskit(
            ["agenda", file, "--from", "2000-01-01", "--to", "2100-01-01", "--json"],
            timeout: 120)
        XCTAssertTrue(byDefault.stderr.contains("more than 500000 instances"), byDefault.stderr)
    }

    // MARK: 11. Near-linear work

    func testFortyThousandOverridesOfOneSeriesListAWeekQuickly() throws {
        var body = event("daily@test", "DTSTART:19000101T090000Z", "RRULE:FREQ=DAILY", "SUMMARY:Series")
        for day in 0..<40_000 {
            let date = Date(timeIntervalSince1970: -2_208_988_800 + 32_400 + Double(day) * 86_400)
            let stamp = Self.utcStamp(date)
            body += event("daily@test", "RECURRENCE-ID:\(stamp)", "DTSTART:\(stamp)", "SUMMARY:Moved \(day)")
        }
        let file = try write("overrides.ics", calendar(body))
        let run = try icskit(["agenda", file, "--from", "1990-01-01", "--to", "1990-01-08", "--json"], timeout: 60)
        let instances = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(instances.count, 7)
        XCTAssertTrue(instances.allSatisfy { ($0["summary"] as? String)?.hasPrefix("Moved") == true })
    }

    func testTwentyThousandThisAndFutureOverridesListQuickly() throws {
        var body = event("weekly@test", "DTSTART:19000101T090000Z", "RRULE:FREQ=DAILY", "SUMMARY:Start")
        for day in stride(from: 0, to: 40_000, by: 2) {
            let stamp = Self.utcStamp(Date(timeIntervalSince1970: -2_208_988_800 + 32_400 + Double(day) * 86_400))
            body += event(
                "weekly@test", "RECURRENCE-ID;RANGE=THISANDFUTURE:\(stamp)", "DTSTART:\(stamp)",
                "SUMMARY:From \(day)")
        }
        let file = try write("future.ics", calendar(body))
        let run = try icskit(["agenda", file, "--from", "1990-01-01", "--to", "1990-01-08", "--json"], timeout: 60)
        let instances = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(instances.count, 7)
    }

    func testAnXCalElementWithManyAttributesReadsQuickly() throws {
        let attributes = (0..<150_000).map { " a\($0)=\"v\"" }.joined()
        let xcal = """
            <?xml version="1.0" encoding="UTF-8"?>
            <icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0"><vcalendar\(attributes)><properties>
            <prodid><text>-//t//EN</text></prodid><version><text>2.0</text></version></properties><components>
            <vevent><properties><uid><text>x@test</text></uid></properties></vevent></components></vcalendar></icalendar>
            """
        let file = try write("attributes.xml", xcal)
        try icskit(["convert", file, "-q", "-o", path("attributes.ics")], timeout: 60)
        XCTAssertTrue(try read("attributes.ics").contains("UID:x@test"))
        // The same name twice is not well-formed XML.
        let twice = try write("twice.xml", xcal.replacingOccurrences(of: " a149999=", with: " a0="))
        let run = try icskit(["convert", twice, "-o", path("twice.ics")], status: 1)
        XCTAssertTrue(run.stderr.contains("twice.xml:2:"), run.stderr)
    }

    /// (How long each takes is measured by `ICSKitBench --only hostile`, not here.)
    func testTextAgendaOverThirtyYearsListsWhatJSONDoes() throws {
        var body = ""
        for index in 0..<40 {
            body += event(
                "r\(index)@test", "DTSTART:20000103T\(String(format: "%02d", 6 + index % 12))0000Z",
                "DURATION:PT1H", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR", "SUMMARY:Series \(index)")
        }
        let file = try write("years.ics", calendar(body))
        let window = ["--from", "2000-01-01", "--to", "2030-01-01", "--tz", "Europe/Berlin"]
        let json = try icskit(["agenda", file, "--json"] + window, timeout: 120)
        let text = try icskit(["agenda", file] + window, timeout: 120)
        let instances = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let series39 = instances.filter { $0["summary"] as? String == "Series 39" }.count
        XCTAssertGreaterThan(series39, 4000)
        XCTAssertEqual(text.stdout.components(separatedBy: "Series 39").count - 1, series39)
    }

    static func utcStamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    // MARK: 12. Sparse sub-daily rules

    func testASparseSecondlyRuleGivesWhatPythonDateutilGives() throws {
        try CLI.requirePythonTools()
        let rule = "FREQ=SECONDLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0"
        let file = try write(
            "sparse.ics",
            calendar(
                event(
                    "sparse@test", "DTSTART:20250106T090000Z",
                    "RRULE:\(rule)", "SUMMARY:Standup")))
        let run = try icskit(["agenda", file, "--from", "2025-01-01", "--to", "2026-06-01", "--json"])
        let instances = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let dateutil = CLI.python([
            "-c",
            """
            from datetime import datetime, timezone
            from dateutil.rrule import rrulestr
            rule = rrulestr('\(rule)', dtstart=datetime(2025, 1, 6, 9, tzinfo=timezone.utc))
            print(len(rule.between(datetime(2025, 1, 1, tzinfo=timezone.utc),
                                   datetime(2026, 6, 1, tzinfo=timezone.utc), inc=True)))
            """,
        ])
        XCTAssertEqual(dateutil.status, 0, dateutil.stderr)
        XCTAssertEqual(String(instances.count), dateutil.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertGreaterThan(instances.count, 70)
    }

    func testASubDailyRuleThatCanNeverMatchEndsAtOnceAndOneThatCanMatchesDateutil() throws {
        try CLI.requirePythonTools()
        // Every 8 hours from 09:30 the hours are 09, 17 and 01: never 03 or 06 (found by the RRULE fuzzer, which
        // took 11 s walking 400 years of periods to learn that).
        let never = try write(
            "never.ics",
            calendar(
                event(
                    "never@test", "DTSTART:20260105T093000Z",
                    "RRULE:FREQ=HOURLY;BYHOUR=3,6;BYMINUTE=5,15,25;INTERVAL=8;COUNT=6"))
        )
        // The time it takes is measured by `ICSKitBench --only hostile`; the timeout only ends a hang.
        let run = try icskit(["agenda", never, "--from", "2026-01-01", "--to", "2027-01-01", "--json"], timeout: 60)
        let instances = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [Any])
        XCTAssertEqual(instances.count, 1, "DTSTART only")
        for (name, rule) in [
            ("hourly", "FREQ=HOURLY;BYHOUR=1,3;BYMINUTE=5,15;INTERVAL=8;COUNT=7"),
            ("minutely", "FREQ=MINUTELY;INTERVAL=90;BYHOUR=12,13;COUNT=6"),
            ("secondly", "FREQ=SECONDLY;INTERVAL=7200;BYMINUTE=30;BYHOUR=11,13;COUNT=5"),
        ] {
            let file = try write(
                "\(name).ics", calendar(event("\(name)@test", "DTSTART:20260105T093000Z", "RRULE:\(rule)")))
            let listed = try icskit(["agenda", file, "--from", "2026-01-01", "--to", "2027-01-01", "--json"])
            let ours = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            let dateutil = CLI.python([
                "-c",
                """
                from datetime import datetime, timezone
                from dateutil.rrule import rrulestr
                start = datetime(2026, 1, 5, 9, 30, tzinfo=timezone.utc)
                print(len(set(list(rrulestr('\(rule)', dtstart=start)) + [start])))
                """,
            ])
            XCTAssertEqual(dateutil.status, 0, dateutil.stderr)
            XCTAssertEqual(String(ours.count), dateutil.stdout.trimmingCharacters(in: .whitespacesAndNewlines), name)
        }
    }

    func testASeriesALimitCutsShortSaysSo() throws {
        // Every 29th of February that is a Monday, hourly rule: few matching periods for a long time.
        let file = try write(
            "rare.ics",
            calendar(
                event(
                    "rare@test", "DTSTART:20000101T000000Z",
                    "RRULE:FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO",
                    "SUMMARY:Rare")))
        let run = try icskit(
            [
                "agenda", file, "--from", "2000-01-01", "--to", "2100-01-01", "--json",
                "--max-instances", "100",
            ], timeout: 60)
        XCTAssertTrue(run.stderr.contains("rare.ics:"), run.stderr)
        XCTAssertTrue(run.stderr.contains("100"), run.stderr)
    }

    // MARK: 13. CSV formula injection

    func testCSVCellsThatStartAFormulaAreNeutralisedUnlessRawCellsIsGiven() throws {
        let file = try write(
            "evil.ics",
            calendar(
                event(
                    "evil@test", "DTSTART:20260310T090000Z", "SUMMARY:=HYPERLINK(\"http://x.test\"\\,\"y\")",
                    "LOCATION:@SUM(A1)", "DESCRIPTION:+1 and -1")
                    + event("fine@test", "DTSTART:20260311T090000Z", "SUMMARY:Plain", "LOCATION:-", "DESCRIPTION:ok")))
        try icskit(["convert", file, "-o", path("evil.csv")])
        let csv = try read("evil.csv")
        XCTAssertTrue(csv.contains("\"'=HYPERLINK(\"\"http://x.test\"\",\"\"y\"\")\""), csv)
        XCTAssertTrue(csv.contains("'@SUM(A1)"), csv)
        XCTAssertTrue(csv.contains("'+1 and -1"), csv)
        XCTAssertFalse(csv.contains(",=") || csv.contains(",@") || csv.contains(",+"), csv)

        try icskit(["convert", file, "--raw-cells", "-o", path("raw.csv")])
        let raw = try read("raw.csv")
        XCTAssertTrue(raw.contains("\"=HYPERLINK("), raw)
        XCTAssertFalse(raw.contains("'="), raw)

        // Both round-trip: the guard comes off when read back, the raw file reads with --raw-cells as it is.
        for (name, extra) in [("evil.csv", [String]()), ("raw.csv", ["--raw-cells"])] {
            try icskit(["convert", path(name), "-q", "-o", path(name + ".ics")] + extra)
            let back = try read(name + ".ics")
            XCTAssertTrue(back.contains("SUMMARY:=HYPERLINK(\"http://x.test\"\\,\"y\")"), "\(name): \(back)")
            XCTAssertTrue(back.contains("LOCATION:@SUM(A1)"), back)
        }
    }

    // MARK: 14. Terminal output

    func testControlCharactersNeverReachTheTerminalRaw() throws {
        // jCal can carry any character in a string: an ESC sequence in a title must not reach the terminal raw,
        // nor one in a name that a diagnostic echoes.
        let title = #"""
            ["vcalendar",[["prodid",{},"text","-//t//EN"],["version",{},"text","2.0"]],[["vevent",
            [["uid",{},"text","esc@test"],["dtstart",{},"date-time","2026-03-10T09:00:00Z"],
             ["summary",{},"text","\u001b[2J\u001b]0;owned\u0007 title\u009b"]],[]]]]
            """#
        let titled = try write("title.json", title)
        let agenda = try icskit(["agenda", titled, "--from", "2026-03-09", "--to", "2026-03-12"])
        XCTAssertTrue(agenda.stdout.contains("title"), agenda.stdout)
        let named = try write("name.json", title.replacingOccurrences(of: #""summary""#, with: #""x-\u001b[31m""#))
        let validate = try icskit(["validate", named], status: 1)
        XCTAssertTrue((validate.stdout + validate.stderr).contains("name.json:"), validate.stdout + validate.stderr)
        let bad = try write("bad.ics", calendar(event("e@test", "DTSTART:20260310T090000Z", "PRIORITY:\u{9B}31m")))
        let badValue = try icskit(["validate", bad], status: 1)
        for (name, text) in [
            ("agenda", agenda.stdout + agenda.stderr), ("validate", validate.stdout + validate.stderr),
            ("bad value", badValue.stdout + badValue.stderr),
        ] {
            XCTAssertFalse(
                text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B },
                "\(name): \(text.debugDescription)")
        }
    }

    /// A line break in a title (an escaped `\n` in ICS, a real one in jCal) cannot fake a row of a listing: agenda,
    /// todo, merge reports and the messages that name an item write it as `\n`, one record a line.
    func testALineBreakInATitleCannotFakeARowOfAListing() throws {
        let fake = "Lunch\\n  09:00–10:00  Transfer approved  (Bank)"
        let file = try write(
            "fake.ics",
            calendar(
                event("e@test", "DTSTART:20260310T120000Z", "DTEND:20260310T130000Z", "SUMMARY:\(fake)")
                    + "BEGIN:VTODO\r\nUID:t@test\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Pay\\n[x] Paid\r\nEND:VTODO\r\n"
            ))
        let store = path("store.sqlite")
        let runs = [
            try icskit(["agenda", file, "--from", "2026-03-10", "--to", "2026-03-11"]),
            try icskit(["todo", file]),
            try icskit(["merge", file, "--into", "Home", "--store", store]),
            try icskit(["done", "t@test", "--store", store]),
        ]
        for run in runs {
            XCTAssertFalse(run.stdout.contains("\n  09:00"), run.stdout)
            XCTAssertFalse(run.stdout.contains("\n[x] Paid"), run.stdout)
        }
        XCTAssertTrue(runs[0].stdout.contains("Lunch\\n  09:00–10:00  Transfer approved"), runs[0].stdout)
        XCTAssertEqual(runs[0].stdout.split(separator: "\n").count, 2, "the day's header and one row")
        XCTAssertTrue(runs[1].stdout.contains("Pay\\n[x] Paid"), runs[1].stdout)
        XCTAssertTrue(runs[3].stdout.contains("done: Pay\\n[x] Paid"), runs[3].stdout)
    }

    // MARK: 15. Each diagnostic once

    func testEachBadValueIsReportedOnce() throws {
        let file = try write(
            "bad.ics",
            calendar(
                event(
                    "bad@test", "DTSTART:20260310T090000Z", "GEO:north;south", "RRULE:FREQ=SOMETIMES",
                    "PRIORITY:urgent", "DTEND:tomorrow")))
        let run = try icskit(["validate", "--json", file], status: 1)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let files = try XCTUnwrap(report["files"] as? [[String: Any]])
        let diagnostics = try XCTUnwrap(files.first?["diagnostics"] as? [[String: Any]])
        let lines = diagnostics.compactMap { $0["line"] as? Int }
        XCTAssertEqual(lines.sorted(), [8, 9, 10, 11], "\(diagnostics)")
        let text = try icskit(["validate", file], status: 1)
        for line in 8...11 {
            XCTAssertEqual(
                (text.stdout + text.stderr).components(separatedBy: "bad.ics:\(line):").count - 1, 1,
                text.stdout + text.stderr)
        }
    }

    // MARK: 16. Old Mac line ends

    func testCarriageReturnOnlyLineEndsRead() throws {
        let text = calendar(
            event("a@test", "DTSTART:20260310T090000Z", "SUMMARY:First", " folded")
                + event("b@test", "DTSTART:20260311T090000Z", "SUMMARY:Second")
        )
        .replacingOccurrences(of: "\r\n", with: "\r")
        let file = try write("mac.ics", text)
        let validated = try icskit(["validate", file])
        XCTAssertTrue(
            (validated.stdout + validated.stderr).contains("0 errors, 0 warnings"),
            validated.stdout + validated.stderr)
        try icskit(["convert", file, "-o", path("mac-out.ics")])
        let output = try read("mac-out.ics")
        XCTAssertTrue(output.contains("SUMMARY:Firstfolded"), output)
        XCTAssertTrue(output.contains("SUMMARY:Second"), output)
        XCTAssertEqual(output.components(separatedBy: "BEGIN:VEVENT").count - 1, 2)
    }
}
