import Foundation
import XCTest

/// `convert --repair` on files written for each failure class of real calendars: what strict readers (python
/// icalendar, calcurse, Radicale) refuse is mended and reported, and recurring-ical-events lists the same instances.
final class RepairCLITests: XCTestCase {
    /// `convert --repair` writes what strict readers accept, keeping the meaning, and reports every change: UID and
    /// DTSTAMP added (stable), VALUE=DATE on dates, a DTEND not after DTSTART fixed or dropped, RDATE PERIODs as
    /// DATE-TIME with an override for a different length, a VTIMEZONE per TZID. python icalendar reads the result
    /// without an error, and both recurring-ical-events and icskit list the same instances as before.
    func testRepairWritesWhatStrictReadersAccept() throws {
        let file = CLI.fixture("hand/needs-repair.ics")
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let repaired = directory.appendingPathComponent("repaired.ics").path
        let run = try CLI.run(["convert", file, "--repair", "-o", repaired])
        XCTAssertEqual(run.status, 0, run.stderr)
        for expected in [
            ":1: warning: repaired: VCALENDAR had no PRODID", ":3: warning: repaired: VEVENT had no UID; added icskit-",
            ":3: warning: repaired: VEVENT had no DTSTAMP; added 19700101T000000Z",
            ":5: warning: repaired: DTSTART holds a date without VALUE=DATE",
            ":6: warning: repaired: DTEND 20260105 is not after DTSTART; set to 20260106",
            ":13: warning: repaired: DTEND 20260107T090000Z is before DTSTART 20260107T100000Z; the two swapped",
            ":22: warning: repaired: RDATE PERIOD values, which many readers cannot read, written as DATE-TIME, with 1",
            ":29: warning: repaired: DTEND 20260123 is not of DTSTART's value type; written as 20260123T000000Z",
            ":31: warning: repaired: VEVENT \"Someday\" has a DTSTART that is no date (\"Next Year\"); left out",
            ":37: warning: repaired: VTODO had no DTSTAMP; added 20251230T101500Z",
        ] {
            XCTAssertTrue(run.stderr.contains(expected), "\(expected)\n\(run.stderr)")
        }
        let validate = try CLI.run(["validate", repaired])
        XCTAssertEqual(validate.status, 0)
        XCTAssertEqual(validate.stdout, "", "no diagnostic on the repaired file")
        let again = try CLI.run(["convert", file, "--repair", "-q"])
        XCTAssertEqual(again.stdout, try String(contentsOfFile: repaired, encoding: .utf8), "the same every time")
        XCTAssertFalse(again.stdout.contains("VALUE=PERIOD"))

        XCTAssertFalse(again.stdout.contains("Someday"), "left out: nothing places it")
        let ours = try CLI.agendaLines(file, from: "2026-01-01", to: "2026-02-01", components: "event,todo")
        XCTAssertEqual(
            try CLI.agendaLines(repaired, from: "2026-01-01", to: "2026-02-01", components: "event,todo"), ours)
        try CLI.requirePythonTools()
        XCTAssertEqual(CLI.pythonIcalendarErrors(repaired), "0\n")
        // recurring-ical-events cannot read the original ("Next Year"); the repaired file it reads as icskit does.
        let after = try CLI.recurringICalEventsLines(repaired, from: "2026-01-01", to: "2026-02-01")
        XCTAssertEqual(after, ours.filter { $0.hasPrefix("VEVENT") })
        XCTAssertEqual(after.filter { $0.contains("Lab sessions") }.count, 5)

        // export --repair from the store does the same.
        let store = directory.appendingPathComponent("store.sqlite").path
        XCTAssertEqual(try CLI.run(["import", file, "--store", store, "-q"]).status, 0)
        let exported = directory.appendingPathComponent("exported.ics").path
        let export = try CLI.run(["export", "--store", store, "--repair", "-o", exported])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertTrue(export.stderr.contains("repaired: RDATE PERIOD values"), export.stderr)
        XCTAssertEqual(try CLI.run(["validate", exported]).stdout, "")
    }

    /// Values that do not parse as their type make strict readers refuse a whole file; `--repair` replaces or
    /// leaves out each (a readable DTSTAMP, no unreadable CREATED/DTEND/DURATION, the readable part of an RRULE,
    /// the EXDATE values that are dates, a TRIGGER's misplaced sign, an override whose RECURRENCE-ID is no date)
    /// and says so; python icalendar then reads the file without an error.
    func testRepairReplacesOrLeavesOutUnreadableValues() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (repaired, warnings) = try repair("hand/unreadable-values.ics", into: directory)
        XCTAssertEqual(
            warnings,
            [
                "6: warning: repaired: DTSTAMP \"202103206T200210Z\" is no date-time; written as 20260102T101500Z",
                "7: warning: repaired: CREATED \"00001231T000000Z\" is no date; left out",
                "10: warning: repaired: DTEND \"None\" is no date; left out",
                "18: warning: repaired: RRULE \"FREQ=DAILY;COUNT=4;X-NOISE=1\" written as FREQ=DAILY;COUNT=4, "
                    + "leaving out \"X-NOISE=1\"",
                "19: warning: repaired: EXDATE values \"2026-01-08\" are no dates; left out",
                "24: warning: repaired: TRIGGER PT-2H has its sign inside; written as -PT2H",
                "26: warning: repaired: a VALARM whose TRIGGER \"whenever\" cannot be read; left out",
                "36: warning: repaired: DURATION \"an hour\" is no duration; left out",
                "37: warning: repaired: RRULE \"FREQ=INVALID_TYPE_CAUSES_ERROR\" cannot be read; left out (the "
                    + "series is its first instance)",
                "40: warning: repaired: VEVENT \"Override of nothing\" has a RECURRENCE-ID that is no date "
                    + "(\"2026010T090000Z\"), so no instance is its own; left out, nothing can place it",
                "49: warning: repaired: Custom/Office STANDARD has no readable DTSTART; left out",
                "56: warning: repaired: TZOFFSETFROM 0100 has no sign; written as +0100",
                "57: warning: repaired: TZOFFSETTO 0200 has no sign; written as +0200",
                "63: warning: repaired: DTSTART \"2006717T080000Z\" is no date; left out",
                "64: warning: repaired: FREEBUSY values \"2006717T123000Z/PT1H\" are no dates; left out",
            ])
        // Line 72 (text with a colon, its line break unescaped) is read as more of the DESCRIPTION when the file is
        // read, before any repair.
        XCTAssertTrue(
            try String(contentsOfFile: repaired, encoding: .utf8).contains(
                "DESCRIPTION:Dear team\\,\\nWe meet on Monday: bring questions"))
        let validate = try CLI.run(["validate", repaired])
        XCTAssertEqual(validate.stdout, "", "no diagnostic on the repaired file")
        let lines = try CLI.agendaLines(repaired, from: "2026-01-01", to: "2026-02-01")
        XCTAssertEqual(
            lines,
            [
                "VEVENT 2026-01-05T09:00:00Z Broken stamps and end", "VEVENT 2026-01-06T09:00:00Z Series with noise",
                "VEVENT 2026-01-08T09:00:00Z Series with noise", "VEVENT 2026-01-09T09:00:00Z Series with noise",
                "VEVENT 2026-01-10T09:00:00Z Hopeless rule", "VEVENT 2026-01-12T09:00:00Z Letter",
            ])
        try CLI.requirePythonTools()
        XCTAssertEqual(CLI.pythonIcalendarErrors(repaired), "0\n")
        XCTAssertEqual(try CLI.recurringICalEventsLines(repaired, from: "2026-01-01", to: "2026-02-01"), lines)
    }

    /// Issue 35's classes 9, 10 and 12: a value that is empty where the type needs one (PRIORITY, GEO, URL; text
    /// may be empty) and a parameter without `=` or value (vCard's `TEL;WORK;VOICE`) are left out; VFREEBUSY,
    /// VAVAILABILITY and AVAILABLE without DTSTAMP get one. The output validates clean and python icalendar reads
    /// it without an error.
    func testRepairLeavesOutEmptyValuesAndBareParametersAndStampsFreeBusy() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (repaired, warnings) = try repair("hand/repair-empty-values.ics", into: directory)
        XCTAssertEqual(
            warnings,
            [
                "7: warning: repaired: DTSTART's parameters without a value (SOMETHING) left out",
                "9: warning: repaired: PRIORITY has no value (\"\"), which its type needs; left out",
                "10: warning: repaired: GEO has no value (\";\"), which its type needs; left out",
                "11: warning: repaired: X-TEL's parameters without a value (WORK, VOICE) left out",
                "12: warning: repaired: URL has no value (\"\"), which its type needs; left out",
                "15: warning: repaired: VFREEBUSY had no DTSTAMP; added 19700101T000000Z",
                "21: warning: repaired: VAVAILABILITY had no DTSTAMP; added 19700101T000000Z",
                "24: warning: repaired: AVAILABLE had no DTSTAMP; added 19700101T000000Z",
            ])
        let text = try String(contentsOfFile: repaired, encoding: .utf8)
        for line in ["DTSTART;VALUE=DATE:20260102\r\n", "X-TEL:+49 30 123\r\n", "DESCRIPTION:\r\n"] {
            XCTAssertTrue(text.contains(line), "\(line) not in:\n\(text)")
        }
        for gone in ["PRIORITY", "GEO", "URL", "SOMETHING", "WORK"] {
            XCTAssertFalse(text.contains(gone), "\(gone) in:\n\(text)")
        }
        let validated = try CLI.run(["validate", repaired])
        XCTAssertEqual(validated.status, 0, validated.stdout)
        XCTAssertTrue(
            validated.stderr.hasSuffix("0 errors, 0 warnings in 1 file\n"), validated.stdout + validated.stderr)
        try CLI.requirePythonTools()
        XCTAssertEqual(CLI.pythonIcalendarErrors(repaired).trimmingCharacters(in: .whitespacesAndNewlines), "0")
    }

    /// Issue 35's class 11: several METHODs in one VCALENDAR. Agreeing ones are written once; differing ones split
    /// the calendar, each item going with the METHOD written before it (each part with the VTIMEZONEs it uses); when every
    /// METHOD comes before every item, the calendar is written without one. `validate` names the repeat; each
    /// output validates clean, python icalendar reads every part without an error, and no item is lost.
    func testRepairWritesOneMethodPerCalendar() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let validated = try CLI.run(["validate", CLI.fixture("hand/methods-same.ics")])
        XCTAssertTrue(validated.stdout.contains(":5: warning: METHOD appears more than once"), validated.stdout)

        func methods(_ file: String) throws -> [String] {
            try String(contentsOfFile: file, encoding: .utf8).split(separator: "\r\n").filter {
                $0.hasPrefix("METHOD") || $0.hasPrefix("BEGIN:VCALENDAR") || $0.hasPrefix("UID")
                    || $0.hasPrefix("TZID")
            }.map(String.init)
        }
        func checkRead(_ file: String, items: Int) throws {
            let validate = try CLI.run(["validate", file])
            XCTAssertTrue(
                validate.stderr.hasSuffix("0 errors, 0 warnings in 1 file\n"), validate.stdout + validate.stderr)
            try CLI.requirePythonTools()
            let run = CLI.python([
                "-c",
                "import sys, icalendar; cs = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read(), "
                    + "multiple=True); print(len(cs), sum(len(x.errors) for c in cs for x in c.walk()), "
                    + "sum(len(c.walk('VEVENT')) for c in cs))",
                file,
            ])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.stdout.hasSuffix(" 0 \(items)\n"), run.stdout)
        }

        var (repaired, warnings) = try repair("hand/methods-same.ics", into: directory)
        XCTAssertEqual(warnings, ["5: warning: repaired: METHOD PUBLISH written 2 times; written once"])
        XCTAssertEqual(try methods(repaired), ["BEGIN:VCALENDAR", "METHOD:PUBLISH", "UID:talk@example.org"])
        try checkRead(repaired, items: 1)

        (repaired, warnings) = try repair("hand/methods-pasted.ics", into: directory)
        XCTAssertEqual(
            warnings,
            [
                "29: warning: repaired: METHOD REQUEST, CANCEL in one VCALENDAR; split into 2 VCALENDARs, each item "
                    + "with the METHOD written before it"
            ])
        XCTAssertEqual(
            try methods(repaired),
            [
                "BEGIN:VCALENDAR", "METHOD:REQUEST", "TZID:Europe/Berlin", "UID:review@example.org", "BEGIN:VCALENDAR",
                "METHOD:CANCEL", "UID:call@example.org",
            ])
        try checkRead(repaired, items: 2)

        (repaired, warnings) = try repair("hand/methods-ahead.ics", into: directory)
        XCTAssertEqual(
            warnings,
            [
                "5: warning: repaired: METHOD REQUEST, CANCEL in one VCALENDAR, every one before every item, so "
                    + "nothing says which item each is for; written without METHOD (a plain calendar)"
            ])
        XCTAssertEqual(try methods(repaired), ["BEGIN:VCALENDAR", "UID:a@example.org", "UID:b@example.org"])
        try checkRead(repaired, items: 2)
    }

    /// Issue 35's class 13: a DTEND before DTSTART. In a single event or an override it is swapped with the start
    /// (as readers read it); in a recurring event swapping would move the series' start away from its EXDATEs,
    /// RDATEs and overrides' RECURRENCE-IDs (an excluded day back, an override doubled), so the end is dropped. The
    /// repaired file validates clean, and ICSKit and recurring-ical-events read the same instances from it: the
    /// EXDATE still excludes its day and the override still replaces its instance.
    func testRepairDropsABackwardsEndOfASeriesAndSwapsOtherEnds() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (repaired, warnings) = try repair("hand/repair-end-series.ics", into: directory)
        XCTAssertEqual(
            warnings,
            [
                "8: warning: repaired: DTEND 20260105T090000Z is before DTSTART 20260105T100000Z of a recurring event; "
                    + "dropped (moving the start would part the series from its RDATEs, EXDATEs and overrides)",
                "19: warning: repaired: DTEND 20260107T120000Z is before DTSTART 20260107T130000Z; the two swapped, as "
                    + "readers read it",
                "26: warning: repaired: DTEND 20260108T093000Z is before DTSTART 20260108T100000Z; the two swapped, as "
                    + "readers read it",
            ])
        let validate = try CLI.run(["validate", repaired])
        XCTAssertTrue(validate.stderr.hasSuffix("0 errors, 0 warnings in 1 file\n"), validate.stdout + validate.stderr)
        let lines = try CLI.agendaLines(repaired, from: "2026-01-01", to: "2026-02-01")
        XCTAssertEqual(
            lines,
            [
                "VEVENT 2026-01-05T10:00:00Z Backwards series", "VEVENT 2026-01-07T12:00:00Z Backwards override",
                "VEVENT 2026-01-08T09:30:00Z Backwards single", "VEVENT 2026-01-10T10:00:00Z Backwards series",
            ])
        try CLI.requirePythonTools()
        XCTAssertEqual(CLI.pythonIcalendarErrors(repaired).trimmingCharacters(in: .whitespacesAndNewlines), "0")
        XCTAssertEqual(try CLI.recurringICalEventsLines(repaired, from: "2026-01-01", to: "2026-02-01"), lines)
    }

    /// An RFC 7986 IMAGE with inline data (which Radicale 3.9 fails to store) is written as the same bytes in a
    /// `data:` URI; an IMAGE that is a URI already stays as it is. python icalendar reads the data back.
    func testRepairWritesInlineImagesAsDataURIs() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (repaired, warnings) = try repair("hand/repair-image.ics", into: directory)
        XCTAssertEqual(
            warnings,
            [
                "8: warning: repaired: IMAGE with inline data written as a data: URI (VALUE=URI), which servers store as text"
            ])
        let validate = try CLI.run(["validate", repaired])
        XCTAssertTrue(validate.stderr.hasSuffix("0 errors, 0 warnings in 1 file\n"), validate.stdout + validate.stderr)
        try CLI.requirePythonTools()
        let run = CLI.python([
            "-c",
            "import sys, icalendar; c = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read()); "
                + "print([(str(i), i.params.get('VALUE')) for i in c.walk('VTODO')[0].get('IMAGE')])",
            repaired,
        ])
        XCTAssertEqual(
            run.stdout,
            "[('data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', "
                + "'URI'), ('https://example.org/party.jpg', 'URI')]\n", run.stderr)
    }

    /// Changed instances without their series (an invitation to two instances of a stand-up, one with a stray
    /// RRULE as khal's tests hold one; an all-day instance; a todo's): Radicale refuses the file ("Main component
    /// missing"). `--repair` adds each series, its start and RDATEs at the instances' RECURRENCE-IDs and its length
    /// the first instance's, so every instance is overridden: the instances ICSKit and recurring-ical-events show
    /// are the same before and after, and a series that has its master is left alone. RECURRENCE-IDs that mix
    /// dates and times are left as they are, and said.
    func testRepairGivesChangedInstancesWithoutASeriesTheirSeries() throws {
        let file = CLI.fixture("hand/repair-lone-overrides.ics")
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (repaired, warnings) = try repair("hand/repair-lone-overrides.ics", into: directory)
        let added =
            "and no series, which servers refuse; the series they belong to added (start and RDATEs at their "
            + "RECURRENCE-IDs, each overridden as written: the same instances)"
        XCTAssertEqual(
            warnings,
            [
                "19: warning: repaired: VEVENT UID standup@example.com has only changed instances (2 with "
                    + "RECURRENCE-ID) " + added,
                "38: warning: repaired: VEVENT UID holiday@example.com has only changed instances (1 with "
                    + "RECURRENCE-ID) " + added,
                "46: warning: repaired: VTODO UID report@example.com has only changed instances (1 with "
                    + "RECURRENCE-ID) " + added,
            ])
        let text = try String(contentsOfFile: repaired, encoding: .utf8)
        XCTAssertTrue(
            text.contains(
                "DTSTART;TZID=Europe/Berlin:20260112T090000\r\nDURATION:PT30M\r\n"
                    + "RDATE;TZID=Europe/Berlin:20260119T090000\r\n"), text)
        XCTAssertTrue(text.contains("DTSTART;VALUE=DATE:20260106\r\nDURATION:P2D\r\n"), text)
        XCTAssertTrue(text.contains("DTSTART:20260115T090000Z\r\nDURATION:PT8H\r\n"), text)
        XCTAssertEqual(text.components(separatedBy: "UID:series@example.com").count - 1, 2, "the series as it was")
        let validate = try CLI.run(["validate", repaired])
        XCTAssertTrue(validate.stderr.hasSuffix("0 errors, 0 warnings in 1 file\n"), validate.stdout + validate.stderr)
        let expected = [
            "VEVENT 2026-01-05T15:00:00Z Series", "VEVENT 2026-01-07 Office closed",
            "VEVENT 2026-01-12T08:30:00Z Stand-up (moved)", "VEVENT 2026-01-12T16:00:00Z Series moved",
            "VEVENT 2026-01-19T08:00:00Z Stand-up (long)", "VEVENT 2026-01-19T15:00:00Z Series",
            "VTODO 2026-01-16T09:00:00Z Weekly report",
        ]
        XCTAssertEqual(
            try CLI.agendaLines(file, from: "2026-01-01", to: "2026-02-01", components: "event,todo"), expected)
        try assertRepairedInstances(repaired, expected, components: "event,todo")
        let answers = try peerVerdicts([file, repaired], peers: ["radicale"], in: directory)
        XCTAssertEqual(answers[file]?["radicale"]?["accepted"] as? Bool, false, "Radicale refuses the original")
        XCTAssertEqual(
            answers[repaired]?["radicale"]?["accepted"] as? Bool, true,
            "\(answers[repaired]?["radicale"]?["detail"] ?? "no answer")")

        let (mixed, mixedWarnings) = try repair("hand/repair-lone-overrides-mixed.ics", into: directory)
        XCTAssertEqual(mixedWarnings, [])
        let mixedRun = try CLI.run(["convert", CLI.fixture("hand/repair-lone-overrides-mixed.ics"), "--repair"])
        XCTAssertTrue(
            mixedRun.stderr.contains(
                ":4: warning: VEVENT UID mixed@example.com has only changed instances (RECURRENCE-ID), no series, "
                    + "and they mix dates and date-times; left as they are (servers may refuse them)"),
            mixedRun.stderr)
        XCTAssertEqual(
            try String(contentsOfFile: mixed, encoding: .utf8).components(separatedBy: "RECURRENCE-ID").count - 1, 2)
    }

    /// An RRULE's UNTIL in another form than DTSTART (a date against a time, a UTC time against a date or a floating
    /// start, a local time against a zoned one) is written in DTSTART's form with the bound ICSKit reads; a rule
    /// already right is left alone. The agenda is the same before and after, and recurring-ical-events reads the
    /// repaired file as ICSKit does.
    func testRepairWritesUntilInTheFormOfDTSTART() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (repaired, warnings) = try repair("hand/repair-until.ics", into: directory)
        let form = "is not in the form of DTSTART"
        XCTAssertEqual(
            warnings,
            [
                "9: warning: repaired: RRULE UNTIL 20260126 \(form) 20260105T090000; written as 20260126T000000Z, "
                    + "the same bound",
                "17: warning: repaired: RRULE UNTIL 20260115T220000Z \(form) 20260106; written as 20260115, the same "
                    + "bound",
                "25: warning: repaired: RRULE UNTIL 20260113T090000Z \(form) 20260110T090000; written as "
                    + "20260113T090000, the same bound",
                "33: warning: repaired: RRULE UNTIL 20260122T083000 \(form) 20260120T093000; written as "
                    + "20260122T083000Z, the same bound",
            ])
        let text = try String(contentsOfFile: repaired, encoding: .utf8)
        for rule in [
            "RRULE:FREQ=WEEKLY;UNTIL=20260126T000000Z;BYDAY=MO", "RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20260115",
            "RRULE:FREQ=DAILY;UNTIL=20260113T090000\r\n", "RRULE:FREQ=DAILY;UNTIL=20260122T083000Z",
            "RRULE:FREQ=DAILY;UNTIL=20260127T110000Z",
        ] {
            XCTAssertTrue(text.contains(rule), rule)
        }
        XCTAssertEqual(try CLI.run(["validate", repaired]).stdout, "", "no diagnostic on the repaired file")
        let ours = try CLI.agendaLines(CLI.fixture("hand/repair-until.ics"), from: "2026-01-01", to: "2026-02-01")
        XCTAssertEqual(try CLI.agendaLines(repaired, from: "2026-01-01", to: "2026-02-01"), ours)
        XCTAssertEqual(ours.count { $0.hasSuffix("Zoned weekly until a date") }, 3)
        XCTAssertEqual(ours.count { $0.hasSuffix("All-day until a UTC time") }, 4)
        XCTAssertEqual(ours.count { $0.hasSuffix("Floating daily until a UTC time") }, 4)
        XCTAssertEqual(ours.count { $0.hasSuffix("Zoned daily until a local time") }, 3)
        try CLI.requirePythonTools()
        XCTAssertEqual(CLI.pythonIcalendarErrors(repaired), "0\n")
        XCTAssertEqual(try CLI.recurringICalEventsLines(repaired, from: "2026-01-01", to: "2026-02-01"), ours)
    }

    /// Structures strict readers and servers refuse though each value parses: `--repair` leaves out what ICSKit
    /// reads past (a DTSTAMP in an observance, a DURATION beside DTEND or DUE, a second DTSTART, a copy of an item,
    /// an older version of one), writes an observance's DATE start as its midnight and EXDATE dates of a daily
    /// series as that day's instance, gives an item that shares another's UID and version a UID of its own, writes
    /// times in a zone nothing knows as floating (as ICSKit reads them) and leaves out nameless components and
    /// unreadable values outside items. Five real peers
    /// (python icalendar, vobject, recurring-ical-events, khal, Radicale) then take the file, which none takes as
    /// it was, and the agenda is the one ICSKit reads from the original, with the item that shared a UID beside it.
    func testRepairLeavesStrictReadersNothingToRefuse() throws {
        let file = CLI.fixture("hand/repair-structure.ics")
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (repaired, warnings) = try repair("hand/repair-structure.ics", into: directory)
        XCTAssertEqual(
            warnings,
            [
                "7: warning: repaired: DTSTAMP has no place in Harbour Time STANDARD; left out",
                "8: warning: repaired: Harbour Time STANDARD DTSTART;VALUE=DATE:19700101 is no local date-time; "
                    + "written as DTSTART:19700101T000000",
                "19: warning: repaired: VEVENT has both DTEND and DURATION; DURATION PT3H left out, DTEND is used",
                "27: warning: repaired: VTODO has both DUE and DURATION; DURATION PT1H left out, DUE is used",
                "34: warning: repaired: a second DTSTART (20260108T090000Z); kept as X-DTSTART, the first is used",
                "43: warning: repaired: VEVENT UID episode@example.com is also the UID of another item (line 37) of "
                    + "the same version; this one written with UID icskit-4955710ba9a56db9@derived, derived from its "
                    + "content",
                "49: warning: repaired: a copy of the VEVENT at line 37 (UID episode@example.com); left out",
                "55: warning: repaired: VEVENT UID moved@example.com has a newer version at line 62 (a higher "
                    + "SEQUENCE or a later DTSTAMP); this one left out",
                "78: warning: repaired: TZID \"Atlantis Standard Time\" has no VTIMEZONE and names no known zone; "
                    + "left out, the times written floating (as ICSKit reads them)",
                "81: warning: repaired: VEVENT \"Year zero\" has a DTSTART that is no date (\"00000000T000000\"); "
                    + "left out, nothing can place it",
                "88: warning: repaired: DTSTART \"not-a-date\" is no date; left out",
                "89: warning: repaired: TZOFFSETTO 0200 has no sign; written as +0200",
                "91: warning: repaired: a component without a name (BEGIN: alone); left out with its content",
                "95: warning: repaired: a component without a name (BEGIN: alone); left out with its content",
                "104: warning: repaired: EXDATE dates 20260121 in a series of date-times; written as the instances "
                    + "on those days, 20260121T170000",
                "107: warning: repaired: a copy of the VEVENT at line 43 (UID episode@example.com); left out",
            ])
        // What is left to say is that a zone of a name of its own serves only readers that read VTIMEZONEs.
        let validate = try CLI.run(["validate", repaired])
        XCTAssertEqual(
            validate.stdout.split(separator: "\n").map { String($0.split(separator: ":", maxSplits: 1)[1]) },
            [
                "94: warning: TZID \"Harbour Time\" is not an IANA zone name; its VTIMEZONE applies here, but apps "
                    + "that ignore VTIMEZONE may read these times as floating"
            ])
        let expected = [
            "VEVENT 2026-01-05T09:00:00Z Both DTEND and DURATION", "VEVENT 2026-01-07T09:00:00Z Two starts",
            "VEVENT 2026-01-09T20:00:00Z Episode 1", "VEVENT 2026-01-09T20:30:00Z Episode 2",
            "VEVENT 2026-01-13T09:00:00Z Planning", "VEVENT 2026-01-14T06:00:00Z In the harbour's zone",
            "VEVENT 2026-01-15T09:00:00 In a zone nobody knows", "VEVENT 2026-01-19T16:00:00Z Daily but the 21st",
            "VEVENT 2026-01-20T16:00:00Z Daily but the 21st", "VEVENT 2026-01-22T16:00:00Z Daily but the 21st",
            "VEVENT 2026-01-23T16:00:00Z Daily but the 21st",
            "VTODO 2026-01-06T09:00:00Z Todo with DUE and DURATION",
        ]
        let original = try CLI.agendaLines(file, from: "2026-01-01", to: "2026-02-01", components: "event,todo")
        // Read as it is, a UID stands for one item: the newer version, the first of equal ones.
        XCTAssertEqual(original, expected.filter { !$0.hasSuffix("Episode 2") })
        try assertRepairedInstances(repaired, expected, components: "event,todo")
        // The peers themselves, as `make peers` asks them, from the tests' virtual environment.
        let answers = try peerVerdicts(
            [file, repaired], peers: ["icalendar", "vobject", "rie", "khal", "radicale"], in: directory)
        for peer in ["icalendar", "vobject", "rie", "khal", "radicale"] {
            XCTAssertEqual(answers[file]?[peer]?["accepted"] as? Bool, false, "\(peer) refuses the original")
            XCTAssertEqual(
                answers[repaired]?[peer]?["accepted"] as? Bool, true,
                "\(peer): \(answers[repaired]?[peer]?["detail"] ?? "no answer")")
        }
    }

    /// What RFC 5545 calls invalid or undefined though every reader guesses the same meaning, and calcurse refuses:
    /// `--repair` escapes TEXT values (a bare `,` or `;`, `\"`, `\:`, alarms too), writes a SUMMARY on one line,
    /// gives an untitled event or todo an empty SUMMARY, writes a floating DTEND beside a zoned DTSTART in its zone,
    /// moves a DTSTART that is no instance of its RRULE to the rule's first instance keeping the old start as an RDATE
    /// (its override still applies), writes a date
    /// DURATION in days, leaves out a bounded RRULE without an instance and an EXDATE of an item that does not
    /// repeat, and writes a date with a TZID as the midnight ICSKit reads. The instances, ends included, are the
    /// same before and after (titles aside), recurring-ical-events reads them so, and all six peers, calcurse among
    /// them, take the repaired file, which calcurse refuses as it was.
    func testRepairWritesWhatCalcurseReadsWithTheSameInstances() throws {
        let file = CLI.fixture("hand/repair-texts-and-series.ics")
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (repaired, warnings) = try repair("hand/repair-texts-and-series.ics", into: directory)
        let escaped = "which RFC 5545 text does not allow; written escaped, the same text"
        XCTAssertEqual(
            warnings,
            [
                "9: warning: repaired: SUMMARY holds an unescaped \",\", \(escaped)",
                "10: warning: repaired: DESCRIPTION holds the escape \"\\\"\", \(escaped)",
                "11: warning: repaired: LOCATION holds an unescaped \",\", \(escaped)",
                "16: warning: repaired: DESCRIPTION holds an unescaped \",\", \(escaped)",
                "24: warning: repaired: SUMMARY \"Film night\\n\\n\" holds line breaks; a title is one line, written "
                    + "as \"Film night\"",
                "30: warning: repaired: SUMMARY \"Team \\n meeting\" holds line breaks; a title is one line, written "
                    + "as \"Team meeting\"",
                "32: warning: repaired: VEVENT had no SUMMARY; added an empty one",
                "38: warning: repaired: VTODO had no SUMMARY; added an empty one",
                "46: warning: repaired: DTSTART 20260106T100000 is no instance of its RRULE (FREQ=WEEKLY;BYDAY=MO,WE;"
                    + "COUNT=4); the series starts at the rule's first instance, 20260107T100000, and keeps "
                    + "20260106T100000 as an RDATE: the same instances",
                "62: warning: repaired: DTSTART 20260110 is no instance of its RRULE (FREQ=MONTHLY;BYMONTHDAY=15;"
                    + "COUNT=2); the series starts at the rule's first instance, 20260115, and keeps 20260110 as an "
                    + "RDATE: the same instances",
                "63: warning: repaired: DURATION PT86400S after a date DTSTART; written in days, P1D, the same length",
                "71: warning: repaired: RRULE FREQ=YEARLY;BYMONTH=4;BYDAY=4MO;UNTIL=20260401T000000Z has no instance "
                    + "from DTSTART 20260120T090000Z on; left out, the item is its DTSTART alone, as before",
                "78: warning: repaired: EXDATE 20250101T090000Z on an item that does not repeat excludes nothing; "
                    + "left out",
                "84: warning: repaired: DTSTART 20260124 is a date with a TZID, read as midnight in that zone; "
                    + "written as 20260124T000000",
                "91: warning: repaired: DTSTART 20260126 is a date with a TZID, read as midnight in that zone; "
                    + "written as 20260126T000000",
                "98: warning: repaired: DTSTART 20260203T090000 is no instance of its RRULE (FREQ=WEEKLY;BYDAY=WE;"
                    + "COUNT=2); the series starts at the rule's first instance, 20260204T090000, and keeps "
                    + "20260203T090000 as an RDATE: the same instances",
                "99: warning: repaired: of DTEND 20260203T100000 and DTSTART 20260203T090000 one is floating: read as "
                    + "the same wall-clock time in DTSTART's form, written as DTEND;TZID=Europe/Berlin:20260203T100000",
            ])
        let text = try String(contentsOfFile: repaired, encoding: .utf8)
        for line in [
            "SUMMARY:Lunch\\, then talk\r\n", "DESCRIPTION:Bring \"notes\": slides\\; ideas\\, pens\r\n",
            "LOCATION;LANGUAGE=en:Room 4\\, Main St\r\n", "CATEGORIES:Work,Talks\r\n", "DESCRIPTION:Soon\\, go\r\n",
            "DTSTART;TZID=Europe/Berlin:20260107T100000\r\nRDATE;TZID=Europe/Berlin:20260106T100000\r\n"
                + "DTEND;TZID=Europe/Berlin:20260107T110000\r\n",
            "DTSTART;VALUE=DATE:20260115\r\nRDATE;VALUE=DATE:20260110\r\nDURATION:P1D\r\n",
            "DTSTART;TZID=America/New_York:20260124T000000\r\n", "DTSTART;TZID=Europe/Berlin:20260126T000000\r\n",
            "DTSTART;TZID=Europe/Berlin:20260204T090000\r\nRDATE;TZID=Europe/Berlin:20260203T090000\r\n"
                + "DTEND;TZID=Europe/Berlin:20260204T100000\r\n",
        ] {
            XCTAssertTrue(text.contains(line), line)
        }
        XCTAssertFalse(text.contains("EXDATE:"))
        XCTAssertFalse(text.contains("BYDAY=4MO"))

        // Every instance with its end; titles compared with their line breaks as spaces, no title as an empty one.
        func instances(_ path: String) throws -> [String] {
            let run = try CLI.run([
                "agenda", path, "--from", "2026-01-01", "--to", "2026-03-01", "--tz", "UTC", "--json", "-q",
                "--component", "event,todo",
            ])
            XCTAssertEqual(run.status, 0, run.stderr)
            let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
            return rows.map { row in
                let title = (row["summary"] as? String ?? "").split(whereSeparator: \.isWhitespace).joined(
                    separator: " ")
                return "\(row["component"]!) \(row["start"]!) \(row["end"]!) \(title)"
            }.sorted()
        }
        let before = try instances(file)
        XCTAssertEqual(try instances(repaired), before)
        XCTAssertEqual(
            before.filter {
                $0.hasSuffix("Seminar") || $0.hasSuffix("Rent") || $0.contains("(moved)") || $0.hasSuffix("group")
            },
            [
                "VEVENT 2026-01-06T13:00:00Z 2026-01-06T14:00:00Z Seminar (moved)",
                "VEVENT 2026-01-07T09:00:00Z 2026-01-07T10:00:00Z Seminar",
                "VEVENT 2026-01-10 2026-01-11 Rent",
                "VEVENT 2026-01-12T09:00:00Z 2026-01-12T10:00:00Z Seminar",
                "VEVENT 2026-01-14T09:00:00Z 2026-01-14T10:00:00Z Seminar",
                "VEVENT 2026-01-15 2026-01-16 Rent",
                "VEVENT 2026-01-19T09:00:00Z 2026-01-19T10:00:00Z Seminar",
                "VEVENT 2026-02-03T08:00:00Z 2026-02-03T09:00:00Z Reading group",
                "VEVENT 2026-02-04T08:00:00Z 2026-02-04T09:00:00Z Reading group",
                "VEVENT 2026-02-11T08:00:00Z 2026-02-11T09:00:00Z Reading group",
                "VEVENT 2026-02-15 2026-02-16 Rent",
            ])
        XCTAssertEqual(try CLI.run(["validate", repaired]).stdout, "", "no diagnostic on the repaired file")
        try CLI.requirePythonTools()
        XCTAssertEqual(CLI.pythonIcalendarErrors(repaired), "0\n")
        let lines = try CLI.agendaLines(repaired, from: "2026-01-01", to: "2026-03-01", components: "event,todo")
        XCTAssertEqual(
            try CLI.recurringICalEventsLines(repaired, from: "2026-01-01", to: "2026-03-01", components: "event,todo"),
            lines)
        let answers = try peerVerdicts([file, repaired], peers: nil, in: directory)
        XCTAssertEqual(answers[file]?["calcurse"]?["accepted"] as? Bool, false, "calcurse refuses the original")
        for peer in ["icalendar", "vobject", "rie", "khal", "calcurse", "radicale"] {
            XCTAssertEqual(
                answers[repaired]?[peer]?["accepted"] as? Bool, true,
                "\(peer): \(answers[repaired]?[peer]?["detail"] ?? "no answer")")
        }
    }

    /// Several VCALENDARs in one file become one with `--repair` (each VTIMEZONE once); several that update the
    /// same items (an iTIP stream) are kept apart, with a warning.
    func testRepairWritesOneCalendarPerFile() throws {
        func calendar(_ uid: String, sequence: Int) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VTIMEZONE\r\nTZID:Custom\r\n"
                + "BEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0100\r\n"
                + "END:STANDARD\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\n"
                + "SEQUENCE:\(sequence)\r\nDTSTART;TZID=Custom:20260105T090000\r\nSUMMARY:\(uid)\r\nEND:VEVENT\r\n"
                + "END:VCALENDAR\r\n"
        }
        let two = try CLI.run(
            ["convert", "-", "--from", "ics", "--repair"],
            stdin: Data((calendar("a", sequence: 0) + calendar("b", sequence: 0)).utf8))
        XCTAssertEqual(two.stdout.components(separatedBy: "BEGIN:VCALENDAR").count - 1, 1, two.stdout)
        XCTAssertEqual(two.stdout.components(separatedBy: "BEGIN:VTIMEZONE").count - 1, 1, two.stdout)
        XCTAssertTrue(two.stdout.contains("UID:a\r\n") && two.stdout.contains("UID:b\r\n"))
        XCTAssertTrue(two.stderr.contains("repaired: several VCALENDARs written as one"), two.stderr)
        let stream = try CLI.run(
            ["convert", "-", "--from", "ics", "--repair"],
            stdin: Data((calendar("a", sequence: 0) + calendar("a", sequence: 1)).utf8))
        XCTAssertEqual(stream.stdout.components(separatedBy: "BEGIN:VCALENDAR").count - 1, 2)
        XCTAssertTrue(stream.stderr.contains("an iTIP stream); kept apart"), stream.stderr)
        // A cancellation beside a request of other items is two messages, not one calendar (issue 59).
        let cancel = calendar("b", sequence: 1).replacingOccurrences(
            of: "PRODID:-//test//EN\r\n", with: "PRODID:-//test//EN\r\nMETHOD:CANCEL\r\n")
        let request = calendar("a", sequence: 0).replacingOccurrences(
            of: "PRODID:-//test//EN\r\n", with: "PRODID:-//test//EN\r\nMETHOD:REQUEST\r\n")
        let messages = try CLI.run(
            ["convert", "-", "--from", "ics", "--repair"], stdin: Data((request + cancel).utf8))
        XCTAssertEqual(messages.stdout.components(separatedBy: "BEGIN:VCALENDAR").count - 1, 2, messages.stdout)
        XCTAssertTrue(messages.stdout.contains("METHOD:CANCEL\r\n"), messages.stdout)
        XCTAssertTrue(
            messages.stderr.contains("several VCALENDARs with different METHODs (CANCEL, REQUEST); kept apart"),
            messages.stderr)
    }

    /// `--repair` has nothing more to do on its own output (issue 59: a PERIOD RDATE became a date in another zone
    /// than DTSTART's, and an unknown TZID's floating times were matched only on the second run): the shared corpus
    /// and the hand-written fixtures, repaired twice, are byte for byte the same.
    func testRepairingARepairedFileChangesNothing() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputs = [CLI.corpus.path, CLI.fixture("hand"), CLI.fixture("apps")]
        let once = directory.appendingPathComponent("once"), twice = directory.appendingPathComponent("twice")
        _ = try CLI.run(["convert", "--repair", "-q", "--out-dir", once.path] + inputs)
        _ = try CLI.run(["convert", "--repair", "-q", "--out-dir", twice.path, once.path])
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: once.path)?.allObjects as? [String])
            .filter { $0.hasSuffix(".ics") }
        XCTAssertGreaterThan(files.count, 200)
        var differ: [String] = []
        for file in files {
            let first = try Data(contentsOf: once.appendingPathComponent(file))
            let second = try? Data(contentsOf: twice.appendingPathComponent(file))
            if first != second { differ.append(file) }
        }
        XCTAssertEqual(differ, [])
    }
}
