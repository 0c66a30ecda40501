import Foundation
import XCTest

@testable import CalendarModel

/// JSCalendar (issue 51): every mapped property in both vocabularies, RFC 8984's example shapes, what comes back,
/// and bad input refused with a place.
final class JSCalendarTests: XCTestCase {
    static let meeting = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//ICSKit tests//JSCalendar//EN\r
        X-WR-CALNAME:Team\r
        BEGIN:VEVENT\r
        UID:standup@example.org\r
        DTSTAMP:20260101T080000Z\r
        CREATED:20251201T100000Z\r
        SEQUENCE:2\r
        SUMMARY;LANGUAGE=en:Stand-up\\, daily\r
        DESCRIPTION:Yesterday\\ntoday\r
        DTSTART;TZID=Europe/Berlin:20260105T090000\r
        DTEND;TZID=Europe/Berlin:20260105T091500\r
        RRULE:FREQ=WEEKLY;UNTIL=20260130T080000Z;BYDAY=MO,WE,FR\r
        EXDATE;TZID=Europe/Berlin:20260107T090000\r
        EXDATE;TZID=Europe/Berlin:20260114T090000,20260116T090000\r
        RDATE;TZID=Europe/Berlin:20260110T090000\r
        STATUS:CONFIRMED\r
        TRANSP:TRANSPARENT\r
        CLASS:PRIVATE\r
        PRIORITY:5\r
        COLOR:teal\r
        CATEGORIES:Work,Team\r
        LOCATION:Room 4\r
        GEO:52.52;13.40\r
        URL:https://example.org/standup\r
        ATTACH;FMTTYPE=application/pdf:https://example.org/agenda.pdf\r
        CONFERENCE;VALUE=URI;LABEL=Video:https://meet.example.org/standup\r
        RELATED-TO;RELTYPE=PARENT:team@example.org\r
        ORGANIZER;CN=Ana:mailto:ana@example.org\r
        ATTENDEE;CN=Ana;ROLE=CHAIR;PARTSTAT=ACCEPTED:mailto:ana@example.org\r
        ATTENDEE;CN=Bo;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;CUTYPE=INDIVIDUAL;X-NUM-GUESTS=0:mailto:bo@example.org\r
        X-ACME-TEAM:blue\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER:-PT10M\r
        DESCRIPTION:Soon\r
        END:VALARM\r
        BEGIN:VALARM\r
        ACTION:EMAIL\r
        TRIGGER;VALUE=DATE-TIME:20260105T070000Z\r
        SUMMARY:Stand-up\r
        DESCRIPTION:Stand-up at nine\r
        ATTENDEE:mailto:ana@example.org\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:standup@example.org\r
        DTSTAMP:20260101T080000Z\r
        RECURRENCE-ID;TZID=Europe/Berlin:20260109T090000\r
        SEQUENCE:2\r
        SUMMARY;LANGUAGE=en:Stand-up\\, daily\r
        DTSTART;TZID=Europe/Berlin:20260109T100000\r
        DTEND;TZID=Europe/Berlin:20260109T101500\r
        LOCATION:Room 5\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:flight@example.org\r
        DTSTAMP:20260101T080000Z\r
        SUMMARY:Flight to Tokyo\r
        DTSTART;TZID=Europe/Berlin:20260310T100000\r
        DTEND;TZID=Asia/Tokyo:20260311T060000\r
        END:VEVENT\r
        BEGIN:VTODO\r
        UID:report@example.org\r
        DTSTAMP:20260101T080000Z\r
        SUMMARY:Write the report\r
        DUE;VALUE=DATE:20260116\r
        STATUS:IN-PROCESS\r
        PERCENT-COMPLETE:40\r
        PRIORITY:1\r
        RELATED-TO:standup@example.org\r
        END:VTODO\r
        BEGIN:VTODO\r
        UID:review@example.org\r
        DTSTAMP:20260101T080000Z\r
        SUMMARY:Review it\r
        DTSTART:20260119T090000Z\r
        DURATION:PT3H\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    func calendars() throws -> [ICalendar] { ICS.read(Array(Self.meeting.utf8)).calendars }

    func json(_ version: JSCalendarVersion) throws -> JSONValue {
        let bytes = CalendarFormat.jscalendar.write(try calendars(), csv: CSVOptions(), jscalendar: version)
        return try JSONValue.parse(bytes)
    }

    /// Properties as comparable lines: name, parameters in name order, value.
    static func lines(_ component: Component) -> [String] {
        component.properties.map { property in
            ([property.name]
                + property.parameters.sorted { $0.name < $1.name }.map {
                    "\($0.name)=\($0.values.joined(separator: ","))"
                }).joined(separator: ";") + ":" + property.value
        }.sorted() + component.components.flatMap { ["BEGIN:" + $0.name] + lines($0) }
    }

    /// Each mapped property has its RFC 8984 member, and the 2.0 draft's where the names differ.
    func testEveryMappedPropertyHasItsMember() throws {
        let group = try json(.rfc8984)
        XCTAssertEqual(group["@type"], .string("Group"))
        XCTAssertEqual(group["prodId"], .string("-//ICSKit tests//JSCalendar//EN"))
        let event = try XCTUnwrap(group["entries"]?.arrayValue?.first)
        let expected: [(String, JSONValue)] = [
            ("@type", .string("Event")), ("uid", .string("standup@example.org")),
            ("updated", .string("2026-01-01T08:00:00Z")), ("created", .string("2025-12-01T10:00:00Z")),
            ("sequence", .int(2)), ("title", .string("Stand-up, daily")), ("description", .string("Yesterday\ntoday")),
            ("start", .string("2026-01-05T09:00:00")), ("timeZone", .string("Europe/Berlin")),
            ("duration", .string("PT15M")), ("status", .string("confirmed")), ("freeBusyStatus", .string("free")),
            ("privacy", .string("private")), ("priority", .int(5)), ("color", .string("teal")),
            ("keywords", .object([("Work", .bool(true)), ("Team", .bool(true))])),
            ("replyTo", .object([("imip", .string("mailto:ana@example.org"))])),
        ]
        for (key, value) in expected { XCTAssertEqual(event[key], value, key) }
        let rule = try XCTUnwrap(event["recurrenceRules"]?.arrayValue?.first)
        XCTAssertEqual(rule["frequency"], .string("weekly"))
        XCTAssertEqual(rule["until"], .string("2026-01-30T09:00:00"), "UNTIL in UTC is local time in JSCalendar")
        XCTAssertEqual(
            rule["byDay"]?.arrayValue?.compactMap { $0["day"]?.stringValue }, ["mo", "we", "fr"])
        let overrides = try XCTUnwrap(event["recurrenceOverrides"])
        XCTAssertEqual(overrides["2026-01-07T09:00:00"], .object([("excluded", .bool(true))]))
        XCTAssertEqual(overrides["2026-01-10T09:00:00"], .object([]))
        XCTAssertEqual(overrides["2026-01-16T09:00:00"], .object([("excluded", .bool(true))]), "a list on one line")
        let moved = try XCTUnwrap(overrides["2026-01-09T09:00:00"])
        XCTAssertEqual(moved["start"], .string("2026-01-09T10:00:00"))
        XCTAssertEqual(moved["locations"]?["l1"]?["name"], .string("Room 5"))
        XCTAssertNil(moved["uid"], "a patch never touches identity keys")
        XCTAssertEqual(event["locations"]?["l1"]?["name"], .string("Room 4"))
        XCTAssertEqual(event["locations"]?["g1"]?["coordinates"], .string("geo:52.52,13.40"))
        XCTAssertEqual(event["virtualLocations"]?["v1"]?["uri"], .string("https://meet.example.org/standup"))
        XCTAssertEqual(event["virtualLocations"]?["v1"]?["name"], .string("Video"))
        XCTAssertEqual(event["links"]?["k1"]?["href"], .string("https://example.org/standup"))
        XCTAssertEqual(event["links"]?["k2"]?["rel"], .string("enclosure"))
        XCTAssertEqual(event["links"]?["k2"]?["contentType"], .string("application/pdf"))
        XCTAssertEqual(event["relatedTo"]?["team@example.org"]?["relation"], .object([("parent", .bool(true))]))
        let ana = try XCTUnwrap(event["participants"]?["p1"])
        XCTAssertEqual(ana["name"], .string("Ana"))
        XCTAssertEqual(
            ana["roles"], .object([("owner", .bool(true)), ("attendee", .bool(true)), ("chair", .bool(true))]),
            "the organizer and its attendee line are one participant")
        XCTAssertEqual(ana["participationStatus"], .string("accepted"))
        XCTAssertEqual(ana["sendTo"], .object([("imip", .string("mailto:ana@example.org"))]))
        let bo = try XCTUnwrap(event["participants"]?["p2"])
        XCTAssertEqual(bo["expectReply"], .bool(true))
        XCTAssertEqual(bo["kind"], .string("individual"))
        XCTAssertEqual(bo["participationStatus"], .string("needs-action"))
        let alerts = try XCTUnwrap(event["alerts"])
        XCTAssertEqual(alerts["a1"]?["trigger"]?["offset"], .string("-PT10M"))
        XCTAssertEqual(alerts["a1"]?["action"], .string("display"))
        XCTAssertEqual(alerts["a2"]?["trigger"]?["when"], .string("2026-01-05T07:00:00Z"))
        XCTAssertEqual(alerts["a2"]?["action"], .string("email"))
        // What has no member travels in the escape hatch, with the parameters of mapped properties.
        let hatch = try XCTUnwrap(event["iCalComponent"])
        XCTAssertEqual(hatch["properties"]?.arrayValue?.first?.arrayValue?.first, .string("x-acme-team"))
        XCTAssertEqual(hatch["convertedProperties"]?["title"]?["parameters"]?["language"], .string("en"))
        XCTAssertEqual(group["iCalComponent"]?["properties"]?.arrayValue?.count, 2, "VERSION and X-WR-CALNAME")

        // An end in another zone (RFC 8984 §6.6): the time that passes, and a location that says the end's zone.
        let flight = try XCTUnwrap(group["entries"]?.arrayValue?.first { $0["uid"] == .string("flight@example.org") })
        XCTAssertEqual(flight["duration"], .string("PT12H"))
        XCTAssertEqual(flight["locations"]?["end"]?["timeZone"], .string("Asia/Tokyo"))
        XCTAssertEqual(flight["locations"]?["end"]?["relativeTo"], .string("end"))

        let tasks = try XCTUnwrap(group["entries"]?.arrayValue?.suffix(2))
        let task = try XCTUnwrap(tasks.first)
        XCTAssertEqual(task["@type"], .string("Task"))
        XCTAssertEqual(task["due"], .string("2026-01-16T00:00:00"))
        XCTAssertEqual(task["showWithoutTime"], .bool(true), "a task placed by a DUE date")
        XCTAssertEqual(tasks.last?["estimatedDuration"], .string("PT3H"))
        XCTAssertEqual(tasks.last?["timeZone"], .string("Etc/UTC"))
        XCTAssertEqual(task["progress"], .string("in-process"))
        XCTAssertEqual(task["percentComplete"], .int(40))
        XCTAssertEqual(task["relatedTo"]?["standup@example.org"]?["relation"], .object([]))

        // The 2.0 draft: one rule as `recurrenceRule`, calendar addresses as strings.
        let draft = try XCTUnwrap(try json(.draft2)["entries"]?.arrayValue?.first)
        XCTAssertEqual(draft["recurrenceRule"]?["frequency"], .string("weekly"))
        XCTAssertNil(draft["recurrenceRules"])
        XCTAssertEqual(draft["organizerCalendarAddress"], .string("mailto:ana@example.org"))
        XCTAssertEqual(draft["participants"]?["p2"]?["calendarAddress"], .string("mailto:bo@example.org"))
        XCTAssertNil(draft["replyTo"])
    }

    /// Written in either vocabulary and read back, every component has the properties it had (parameters in any
    /// order), and ICSKit expands the same instances.
    func testBothVocabulariesComeBackAsTheSameContent() throws {
        let original = try calendars()
        for version in [JSCalendarVersion.rfc8984, .draft2] {
            let bytes = CalendarFormat.jscalendar.write(original, csv: CSVOptions(), jscalendar: version)
            let read = CalendarFormat.jscalendar.read(bytes, file: "meeting.json")
            XCTAssertEqual(read.diagnostics.filter { $0.severity == .error }, [])
            let back = try XCTUnwrap(read.calendars.first)
            let before = original[0].encoded().components.map(Self.lines).sorted { $0.description < $1.description }
            let after = back.encoded().components.map(Self.lines).sorted { $0.description < $1.description }
            XCTAssertEqual(after, before, "\(version)")
            XCTAssertEqual(back.encoded().properties.map(\.name).sorted(), ["PRODID", "VERSION", "X-WR-CALNAME"])
            let window = (Date(timeIntervalSince1970: 1_767_225_600), Date(timeIntervalSince1970: 1_770_000_000))
            func instances(_ calendar: ICalendar) -> [String] {
                calendar.occurrences(from: window.0, to: window.1).occurrences.map {
                    "\($0.startDate) \($0.endDate) \($0.summary ?? "")"
                }
            }
            XCTAssertEqual(instances(back), instances(original[0]), "\(version)")
            XCTAssertEqual(instances(back).count, 10)
        }
    }
}
