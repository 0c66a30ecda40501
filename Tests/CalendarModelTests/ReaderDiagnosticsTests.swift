import CalendarModel
import XCTest

/// Bad input gets a diagnostic with its line, and what can be recovered is.
final class ReaderDiagnosticsTests: XCTestCase {
    func testAFoldInsideAUTF8CharacterIsReadJoinedAndSaid() {
        let bytes: [UInt8] =
            Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:a\r\n".utf8)
            + Array("DTSTAMP:20260101T000000Z\r\nDTSTART:20260105T090000Z\r\nSUMMARY:caf".utf8) + [
                0xC3, 0x0D, 0x0A, 0x20, 0xA9,
            ]
            + Array(" au lait\r\nLOCATION:Caf".utf8) + [0xC3, 0xA9, 0x0D, 0x0A, 0x20] + Array("Central\r\n".utf8)
            + Array("END:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        let result = ICS.read(bytes, file: "split.ics")
        XCTAssertEqual(result.calendars.first?.events.first?.summary, "café au lait")
        XCTAssertEqual(result.calendars.first?.events.first?.location, "CaféCentral")
        XCTAssertEqual(result.diagnostics.map(\.severity), [.warning], "\(result.diagnostics)")
        XCTAssertEqual(result.diagnostics.first?.line, 9, "the continuation line")
        XCTAssertTrue(result.diagnostics.first?.message.contains("a fold splits a UTF-8 character") == true)
    }

    /// Issue 62: a negative event DURATION read without a word.
    func testANegativeEventDurationIsSaidWithItsLine() {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20240101T000000Z\r\n"
            + "DTSTART:20240102T100000Z\r\nDURATION:-PT1H\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let result = ICS.read(Array(text.utf8), file: "backwards.ics")
        XCTAssertEqual(result.diagnostics.map(\.code), ["negative-duration"], "\(result.diagnostics)")
        XCTAssertEqual(result.diagnostics.first?.line, 8)
        XCTAssertEqual(result.diagnostics.first?.severity, .warning)
        let positive = ICS.read(Array(text.replacingOccurrences(of: "-PT1H", with: "PT1H").utf8))
        XCTAssertEqual(positive.diagnostics, [], "a positive one is fine")
    }

    func testADateWithoutValueDateBesideTimedRDATEsIsSaid() {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20240101T000000Z\r\n"
            + "DTSTART:20240102\r\nRDATE:20240105T100000Z,20240108T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let result = ICS.read(Array(text.utf8), file: "mixed.ics")
        XCTAssertEqual(result.diagnostics.map(\.line), [7, 8], "\(result.diagnostics)")
        XCTAssertTrue(result.diagnostics[0].message.contains("DTSTART has a DATE value without VALUE=DATE"))
        XCTAssertTrue(result.diagnostics[1].message.contains("RDATE is a DATE-TIME but DTSTART is a DATE"))
        XCTAssertEqual(result.calendars.first?.events.first?.start?.isDate, true)
    }

    func testAFoldThatLostItsSpaceIsJoinedToAnAddressOrUIDAndOtherLinesAreStillDropped() {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:040000008200E00074C5B7101A82E0080000\r\n"
            + "0000D0C1\r\nDTSTAMP:20240101T000000Z\r\nDTSTART:20240102T090000Z\r\n"
            + "ATTENDEE;CN=Ana:mailto:ana@exam\r\nple.com\r\nDTEND:20240102T100000Z\r\nnot a line at all\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        let result = ICS.read(Array(text.utf8), file: "broken-folds.ics")
        let event = result.calendars.first?.events.first
        XCTAssertEqual(event?.uid, "040000008200E00074C5B7101A82E00800000000D0C1")
        XCTAssertEqual(event?.core.attendees.first?.email, "ana@example.com")
        let found = result.diagnostics.map { "\($0.line) \($0.severity) \($0.message)" }
        XCTAssertEqual(result.diagnostics.map(\.line), [6, 10, 12], "\(found)")
        XCTAssertTrue(found[0].contains("rest of the UID value above"), "\(found)")
        XCTAssertTrue(found[1].contains("rest of the ATTENDEE value above"), "\(found)")
        XCTAssertTrue(found[2].contains("not a content line (no colon)"), "\(found)")

        // A broken quoted parameter leaves a line whose "name" is no name: it is not written back as one.
        let broken =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:b\r\nDTSTAMP:20240101T000000Z\r\n"
            + "DTSTART:20240102T090000Z\r\nATTENDEE;CN=\"Ana:mailto:ana\r\n@example.net'\":mailto:x@y\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        let read = ICS.read(Array(broken.utf8), file: "broken-name.ics")
        XCTAssertTrue(
            read.diagnostics.contains {
                $0.line == 9 && $0.severity == .error && $0.message.contains("no valid property name")
            }, "\(read.diagnostics)")
        let written = String(decoding: ICS.write(read.calendars), as: UTF8.self)
        XCTAssertFalse(written.contains("@example.net"), written)
    }

    func testACalendarWithNoComponentIsAWarningAndWithAMethodAnError() {
        func diagnostics(_ header: String) -> [(Diagnostic.Severity, Int, String)] {
            let bytes = Array(
                ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + header + "END:VCALENDAR\r\n").utf8)
            return ICS.read(bytes, file: "empty.ics").diagnostics.map { ($0.severity, $0.line, $0.message) }
        }
        let plain = diagnostics("")
        XCTAssertEqual(plain.map(\.0), [.warning], "\(plain)")
        XCTAssertEqual(plain.first?.1, 1)
        XCTAssertTrue(plain.first?.2.contains("holds no component") == true, "\(plain)")
        let invitation = diagnostics("METHOD:REQUEST\r\n")
        XCTAssertEqual(invitation.map(\.0), [.error], "\(invitation)")
        XCTAssertTrue(invitation.first?.2.contains("METHOD:REQUEST holds no component") == true, "\(invitation)")
        // A calendar whose items a merge leaves unread still holds them.
        let event = "BEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260105T090000Z\r\nEND:VEVENT\r\n"
        let bytes = Array(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + event + "END:VCALENDAR\r\n").utf8)
        let (read, unread) = ICS.read(bytes, file: "kept.ics", leavingOut: { _, _ in "unchanged" })
        XCTAssertEqual(unread.count, 1)
        XCTAssertEqual(read.diagnostics, [], "\(read.diagnostics)")
        // A calendar of time zones alone has a component.
        let zones = diagnostics(
            "BEGIN:VTIMEZONE\r\nTZID:UTC\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\n"
                + "TZOFFSETFROM:+0000\r\nTZOFFSETTO:+0000\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n")
        XCTAssertFalse(zones.contains { $0.2.contains("no component") }, "\(zones)")
    }

    func testUnparseableValuesAreKeptRawAndReported() throws {
        let result = try readFixture("hand/bad-values.ics")
        let events = result.calendars[0].events
        XCTAssertEqual(events.count, 2)
        XCTAssertNil(events[0].start, "DTSTART:foo is not typed")
        XCTAssertEqual(events[0].otherProperties.first { $0.name == "DTSTART" }?.value, "foo", "raw text kept")
        let expectations: [(line: Int, text: String)] = [
            (7, "DTSTART value \"foo\" is not a DATE or DATE-TIME; kept as written"),
            (8, "2024-02 has no day 30"),
            (14, "is not a time of day"),
            (15, "RRULE value \"FREQ=SOMETIMES\" is not a valid RRULE"),
            (16, "\"P1X\" is not a DURATION"),
            (17, "\"north;east\" is not a GEO value"),
            (18, "\"high\" is not an INTEGER"),
        ]
        for expected in expectations {
            let found = result.diagnostics.first { $0.message.contains(expected.text) }
            XCTAssertEqual(found?.line, expected.line, expected.text)
            XCTAssertEqual(found?.severity, .error, expected.text)
        }
        // Written back, every raw value is still there: libical would have deleted these properties.
        let written = text(ICS.write(result.calendars))
        for line in ["DTSTART:foo", "DTEND:20240230T100000", "RRULE:FREQ=SOMETIMES", "DURATION:P1X", "GEO:north;east"] {
            XCTAssertTrue(written.contains(line + "\r\n"), line)
        }
    }

    func testStructureErrorsAreRecovered() throws {
        let result = try readFixture("hand/broken-structure.ics")
        let events = result.calendars.first?.events ?? []
        XCTAssertEqual(events.map(\.uid), ["struct-1", "struct-2", "struct-3"], "every event recovered")
        XCTAssertEqual(events[2].summary, "Truncated download")
        XCTAssertEqual(result.diagnostic(containing: "END:VTODO does not match BEGIN:VEVENT")?.line, 9)
        XCTAssertEqual(result.diagnostic(containing: "BEGIN:VEVENT has no END before BEGIN:VEVENT")?.line, 10)
        XCTAssertEqual(result.diagnostic(containing: "no colon")?.line, 19)
        XCTAssertEqual(result.diagnostic(containing: "BEGIN:VCALENDAR has no END")?.line, 1)
        XCTAssertEqual(result.diagnostic(containing: "BEGIN:VEVENT has no END (the file ends first)")?.line, 15)
        let rewritten = ICS.read(ICS.write(result.calendars))
        XCTAssertEqual(rewritten.messages(.error), [], "the repaired output is well-formed")
    }

    func testWindows1252IsDecodedAndReported() throws {
        let result = try readFixture("hand/windows-1252.ics")
        XCTAssertEqual(result.calendars.first?.events.first?.summary, "Café € 5 – Grüße")
        let warning = result.diagnostic(containing: "not UTF-8")
        XCTAssertEqual(warning?.line, 8)
        XCTAssertEqual(warning?.severity, .warning)
        XCTAssertTrue(text(ICS.write(result.calendars)).contains("SUMMARY:Café € 5 – Grüße\r\n"), "written as UTF-8")
    }

    /// UTF-8 text with a few broken bytes is repaired one sequence at a time: the valid Japanese stays, a cut or
    /// stray sequence becomes U+FFFD, a lone Windows-1252 byte among ASCII is read as such; each line is reported.
    /// A line with no UTF-8 at all is still read as Windows-1252.
    func testBrokenUTF8IsRepairedPerSequence() throws {
        let result = try readFixture("hand/broken-utf8.ics")
        let event = try XCTUnwrap(result.calendars.first?.events.first)
        XCTAssertEqual(event.summary, "東京で\u{FFFD}の準備")
        XCTAssertEqual(event.location, "渋谷区\u{FFFD} 会議室 3")
        XCTAssertEqual(event.description, "Café in Zürich, Anna\u{2019}s treat")
        let written = text(ICS.write(result.calendars))
        XCTAssertTrue(written.contains("COMMENT:完全に正しい行\r\n"), written)
        XCTAssertTrue(written.contains("X-NOTE:Grüße aus München\r\n"), written)
        let warnings = result.diagnostics.filter { $0.severity == .warning }
        XCTAssertEqual(warnings.map(\.line), [8, 9, 10, 12], "\(warnings)")
        XCTAssertTrue(warnings[0].message.contains("1 broken UTF-8 sequence replaced with U+FFFD"), warnings[0].message)
        XCTAssertTrue(warnings[2].message.contains("1 byte read as Windows-1252"), warnings[2].message)
        XCTAssertTrue(warnings[3].message.contains("decoded as Windows-1252"), warnings[3].message)
        XCTAssertFalse(written.contains("æ"), "no mojibake")
    }

    /// Unicode noncharacters (U+FFFE, U+FFFF, U+FDD0…, plane ends) are valid UTF-8 but XML cannot hold some of
    /// them: each line holding one gets a warning naming it; the text is kept. Fullwidth forms (U+FF21) are not
    /// noncharacters.
    func testNoncharactersGetALineNumberedWarning() throws {
        let result = try readFixture("hand/noncharacters.ics")
        XCTAssertEqual(result.calendars.first?.events.first?.summary, "a\u{FFFE}b")
        let warnings = result.diagnostics.filter { $0.message.contains("noncharacter") }
        XCTAssertEqual(warnings.map(\.line), [8, 9, 10])
        XCTAssertEqual(
            warnings.map { String($0.message.prefix(6)) }, ["U+FFFE", "U+FDD0", "U+FFFF"], "\(warnings)")
        let fullwidth = ICS.read(
            Array(
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:f\r\nDTSTAMP:20260101T000000Z\r\n"
                    .utf8)
                + Array("DTSTART:20260101T000000Z\r\nSUMMARY:Ａ￥\u{FFFD}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8))
        XCTAssertFalse(
            fullwidth.diagnostics.contains { $0.message.contains("noncharacter") }, "\(fullwidth.diagnostics)")
    }

    func testMissingAndDuplicateUIDsAndMissingStart() throws {
        let result = try readFixture("hand/uids.ics")
        XCTAssertEqual(result.diagnostic(containing: "VEVENT has no UID")?.line, 4)
        let duplicate = result.diagnostic(containing: "duplicate UID \"dup@example.com\"")
        XCTAssertEqual(duplicate?.line, 15)
        XCTAssertTrue(duplicate?.message.contains("first at line 9") ?? false)
        // What validate says is what the agenda does: of two equal versions, the first gives the instances.
        XCTAssertTrue(duplicate?.message.contains("the instances come from the newer") ?? false)
        let instances = result.calendars[0].occurrences(
            from: Date(timeIntervalSince1970: 1_704_067_200),
            to: Date(timeIntervalSince1970: 1_704_067_200 + 7 * 86_400)
        ).occurrences.filter { $0.uid == "dup@example.com" }
        XCTAssertEqual(instances.map(\.summary), ["First"])
        let fixture = try String(contentsOfFile: Paths.fixture("hand/uids.ics"), encoding: .utf8)
        let newer = ICS.read(
            Array(fixture.replacingOccurrences(of: "SUMMARY:Second with", with: "SEQUENCE:1\nSUMMARY:Second with").utf8)
        )
        let newerInstances = newer.calendars[0].occurrences(
            from: Date(timeIntervalSince1970: 1_704_067_200),
            to: Date(timeIntervalSince1970: 1_704_067_200 + 7 * 86_400)
        ).occurrences.filter { $0.uid == "dup@example.com" }
        XCTAssertEqual(newerInstances.map(\.summary), ["Second with the same UID"])
        XCTAssertEqual(result.diagnostic(containing: "no DTSTART")?.line, 21)
        XCTAssertEqual(result.calendars[0].events.count, 4, "nothing dropped")
    }

    func testImpossibleDatesThatLibicalAccepts() {
        for (text, reason) in [
            ("20240230", "has no day 30"), ("20230229", "has no day 29"), ("20241345", "month 13"),
            ("20240101T250000", "not a time of day"), ("20240101T106000", "not a time of day"),
            ("2006717T080000Z", "not a DATE"),
        ] {
            guard case .failure(let error) = CalendarDate.parse(text, tzid: nil) else {
                XCTFail("\(text) accepted")
                continue
            }
            XCTAssertTrue(error.description.contains(reason), "\(text): \(error)")
        }
        XCTAssertEqual(
            try CalendarDate.parse("20240229", tzid: nil).get(), try CalendarDate(year: 2024, month: 2, day: 29))
    }

    func testDiagnosticFormatIsPathLineSeverityMessage() {
        let result = ICS.read(Array("BEGIN:VCALENDAR\nnonsense\nEND:VCALENDAR\n".utf8), file: "in.ics")
        XCTAssertTrue(
            result.diagnostics.map(\.description).contains(
                "in.ics:2: error: not a content line (no colon): "
                    + "\"nonsense\"; line ignored"))
    }

    func testNothingToReadIsAnError() {
        let result = ICS.read(Array("hello\n".utf8), file: "x")
        XCTAssertTrue(result.calendars.isEmpty)
        XCTAssertNotNil(result.diagnostic(containing: "no iCalendar data"))
    }

    func testConsistencyWarnings() throws {
        let source = """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:x
            BEGIN:VEVENT
            UID:c
            DTSTAMP:20240101T000000
            DTSTART;TZID=Europe/Berlin:20240110T100000
            DTEND;TZID=Europe/Berlin:20240110T090000
            RRULE:FREQ=DAILY;UNTIL=20240120T100000
            EXDATE;VALUE=DATE:20240112
            END:VEVENT
            END:VCALENDAR
            """
        let result = ICS.read(Array(source.utf8))
        XCTAssertEqual(result.diagnostic(containing: "DTSTAMP must be a UTC time")?.line, 6)
        XCTAssertEqual(result.diagnostic(containing: "DTEND 20240110T090000 is before DTSTART")?.line, 8)
        XCTAssertEqual(result.diagnostic(containing: "UNTIL must be in UTC")?.line, 9)
        XCTAssertEqual(result.diagnostic(containing: "EXDATE is a DATE")?.line, 10)
        XCTAssertEqual(result.diagnostic(containing: "TZID \"Europe/Berlin\" has no VTIMEZONE")?.line, 7)
        XCTAssertEqual(result.messages(.error), [])
    }

    func testUnclosedQuoteAndLinesWithoutSpaceAreRecovered() {
        let source = """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:x
            BEGIN:VEVENT
            UID:q
            DTSTAMP:20240101T000000Z
            DTSTART;TZID="W. Europe Standard Time:20200609T090000"
            DESCRIPTION:Dear team,
            see you Monday.
            END:VEVENT
            END:VCALENDAR
            """
        let result = ICS.read(Array(source.utf8))
        let event = result.calendars.first?.events.first
        XCTAssertEqual(event?.start?.tzid, "W. Europe Standard Time")
        XCTAssertEqual(event?.start?.icsValue, "20200609T090000")
        XCTAssertEqual(event?.description, "Dear team,\nsee you Monday.")
        XCTAssertEqual(result.diagnostic(containing: "swallows the value")?.line, 7)
        XCTAssertEqual(result.diagnostic(containing: "further line of the DESCRIPTION")?.line, 9)
    }
}

/// Every resource of a CalDAV download repeats its VTIMEZONE: a zone that read clean is not checked again, and one
/// with a problem is reported in every input that has it, at that input's lines.
final class RepeatedZoneTests: XCTestCase {
    func zone(offsetTo: String, tzid: String = "Europe/Vienna") -> String {
        "BEGIN:VTIMEZONE\r\nTZID:\(tzid)\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\n"
            + "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:\(offsetTo)\r\n"
            + "END:STANDARD\r\nEND:VTIMEZONE\r\n"
    }

    func calendar(_ zone: String, padding: Int, uid: String, tzid: String = "Europe/Vienna") -> ICS.ReadResult {
        let padded = (0..<padding).map { "X-PAD-\($0):x\r\n" }.joined()
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n\(padded)\(zone)BEGIN:VEVENT\r\nUID:\(uid)\r\n"
            + "DTSTAMP:20240101T000000Z\r\nDTSTART;TZID=\(tzid):20240105T090000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        return ICS.read(Array(text.utf8), file: "\(uid).ics")
    }

    func testACleanZoneReadsCleanEveryTime() {
        for index in 0..<3 {
            let result = calendar(zone(offsetTo: "+0100"), padding: index, uid: "clean-\(index)")
            XCTAssertEqual(result.diagnostics.map(\.message), [], "read \(index)")
            XCTAssertEqual(result.calendars[0].timeZones.first?.tzid, "Europe/Vienna")
        }
    }

    func testABadZoneIsReportedAtEachCopysOwnLine() {
        // TZOFFSETTO without a sign; 10th line of the zone block (line 4 + padding + 6).
        for padding in [0, 5, 2] {
            let result = calendar(zone(offsetTo: "0100"), padding: padding, uid: "bad-\(padding)")
            let problem = result.diagnostics.first { $0.message.contains("TZOFFSETTO") }
            XCTAssertEqual(problem?.line, 4 + padding + 6, "\(result.diagnostics)")
        }
    }

    func testAZoneDifferingFromACleanOneInOneValueIsChecked() {
        _ = calendar(zone(offsetTo: "+0100", tzid: "Test/Memo"), padding: 0, uid: "first", tzid: "Test/Memo")
        let changed = calendar(
            zone(offsetTo: "+0100", tzid: "Test/Memo").replacingOccurrences(
                of: "DTSTART:19701025T030000", with: "DTSTART:1970-10-25"),
            padding: 0, uid: "second", tzid: "Test/Memo")
        XCTAssertEqual(
            changed.diagnostics.first { $0.message.contains("1970-10-25") }?.line, 7, "\(changed.diagnostics)")
    }
}
