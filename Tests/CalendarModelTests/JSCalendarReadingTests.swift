import Foundation
import XCTest

@testable import CalendarModel

/// Reading JSCalendar others write (issue 51): objects in the shapes of RFC 8984 §6's examples and of the calext
/// mapping draft's, and input that is not JSCalendar refused with a place and never a crash.
final class JSCalendarReadingTests: XCTestCase {
    func read(_ text: String) -> ICS.ReadResult { CalendarFormat.jscalendar.read(Array(text.utf8), file: "in.json") }

    func lines(_ text: String) throws -> [String] {
        let result = read(text)
        XCTAssertEqual(result.diagnostics.filter { $0.severity == .error }.map(\.message), [])
        let calendar = try XCTUnwrap(result.calendars.first)
        return String(decoding: ICS.write([calendar]), as: UTF8.self).components(separatedBy: "\r\n")
    }

    /// §6.1 and §6.2: a simple event (start, zone, duration) and a simple task.
    func testASimpleEventAndTask() throws {
        let event = try lines(
            """
            {"@type": "Event", "uid": "a8df6573-0474-496d-8496-033ad45d7fea", "updated": "2020-01-02T18:23:04Z",
             "title": "Some event", "start": "2020-01-15T13:00:00", "timeZone": "America/New_York",
             "duration": "PT1H"}
            """)
        for line in [
            "UID:a8df6573-0474-496d-8496-033ad45d7fea", "DTSTAMP:20200102T182304Z", "SUMMARY:Some event",
            "DTSTART;TZID=America/New_York:20200115T130000", "DURATION:PT1H", "BEGIN:VEVENT",
            // JSCalendar names the zone; iCalendar gets the VTIMEZONE RFC 5545 §3.2.19 wants, from tzdata.
            "BEGIN:VTIMEZONE", "TZID:America/New_York",
        ] {
            XCTAssertTrue(event.contains(line), line)
        }
        let task = try lines(
            #"{"@type": "Task", "uid": "2a358cee-6489-4f14-a57f-c104db4dc2f2", "updated": "2020-01-09T14:32:01Z", "title": "Do something"}"#
        )
        XCTAssertTrue(task.contains("BEGIN:VTODO"))
        XCTAssertTrue(task.contains("SUMMARY:Do something"))
    }

    /// §6.3 and §6.4: a group with its own title and entries; an all-day event repeating every year.
    func testAGroupAndAnAllDaySeries() throws {
        let group = try lines(
            """
            {"@type": "Group", "uid": "bf0ac22b-4989-4caf-9ebd-54301b4ee51a", "updated": "2020-01-15T18:00:00Z",
             "title": "A simple group", "entries": [
               {"@type": "Event", "uid": "b1", "updated": "2020-01-02T18:23:04Z", "title": "April Fool's Day",
                "showWithoutTime": true, "start": "1900-04-01T00:00:00", "duration": "P1D",
                "recurrenceRules": [{"@type": "RecurrenceRule", "frequency": "yearly"}]},
               {"@type": "Task", "uid": "t1", "title": "Do something"}]}
            """)
        for line in [
            "UID:bf0ac22b-4989-4caf-9ebd-54301b4ee51a", "NAME:A simple group", "LAST-MODIFIED:20200115T180000Z",
            "DTSTART;VALUE=DATE:19000401", "DURATION:P1D", "RRULE:FREQ=YEARLY", "SUMMARY:April Fool's Day",
        ] {
            XCTAssertTrue(group.contains(line), line)
        }
    }

    /// §6.5 and §6.7: a task due in a zone; a floating event with a rule and a local UNTIL.
    func testADueTaskAndAFloatingSeries() throws {
        let task = try lines(
            #"{"@type": "Task", "uid": "t2", "title": "Buy groceries", "due": "2020-01-19T18:00:00", "timeZone": "Europe/Vienna", "estimatedDuration": "PT1H"}"#
        )
        XCTAssertTrue(task.contains("DUE;TZID=Europe/Vienna:20200119T180000"))
        XCTAssertTrue(task.contains("ESTIMATED-DURATION:PT1H"), "a task with a DUE has no room for DURATION")
        let floating = try lines(
            """
            {"@type": "Event", "uid": "f1", "title": "Yoga", "start": "2018-01-01T07:00:00", "duration": "PT30M",
             "recurrenceRules": [{"@type": "RecurrenceRule", "frequency": "daily",
                                  "until": "2018-01-10T07:00:00"}]}
            """)
        XCTAssertTrue(floating.contains("DTSTART:20180101T070000"))
        XCTAssertTrue(floating.contains("RRULE:FREQ=DAILY;UNTIL=20180110T070000"))
    }

    /// §6.8 to §6.10: locations and a localization; a series with overrides (a changed title, an excluded
    /// instance, a pointer patch into a participant); participants with roles, statuses and addresses.
    func testLocationsOverridesAndParticipants() throws {
        let text = """
            {"@type": "Event", "uid": "c1", "title": "Live from Music Bowl: The Band", "locale": "en",
             "description": "Go see the biggest music event ever!",
             "localizations": {"de": {"title": "Live von der Music Bowl: The Band!"}},
             "start": "2020-01-13T09:00:00", "timeZone": "Europe/London", "duration": "PT1H",
             "recurrenceRules": [{"@type": "RecurrenceRule", "frequency": "weekly", "count": 4}],
             "locations": {"l1": {"@type": "Location", "name": "The Music Bowl",
                                  "coordinates": "geo:-37.82,144.97"}},
             "virtualLocations": {"v1": {"@type": "VirtualLocation", "uri": "https://stream.example.com/the_band"}},
             "replyTo": {"imip": "mailto:f245f875-7f63-4a5e-a2c8@schedule.example.com"},
             "participants": {
               "dG9tQGZvb2Jhci5xlLmNvbQ": {"@type": "Participant", "name": "Tom Tool", "email": "tom@example.com",
                 "sendTo": {"imip": "mailto:tom@calendar.example.com"}, "participationStatus": "accepted",
                 "roles": {"attendee": true}},
               "em9lQGZvb2GFtcGxlLmNvbQ": {"@type": "Participant", "name": "Zoe Zelda",
                 "sendTo": {"imip": "mailto:zoe@example.com"}, "participationStatus": "accepted",
                 "roles": {"owner": true, "attendee": true, "chair": true}}},
             "recurrenceOverrides": {
               "2020-01-20T09:00:00": {"title": "Introduction to Calculus I (optional)"},
               "2020-01-27T09:00:00": {"excluded": true},
               "2020-02-03T09:00:00": {"participants/dG9tQGZvb2Jhci5xlLmNvbQ/participationStatus": "declined"}}}
            """
        let all = try lines(text)
        for line in [
            "SUMMARY;LANGUAGE=de:Live von der Music Bowl: The Band!", "LOCATION:The Music Bowl", "GEO:-37.82;144.97",
            "CONFERENCE;VALUE=URI:https://stream.example.com/the_band",
            "ORGANIZER;CN=Zoe Zelda:mailto:zoe@example.com", "EXDATE;TZID=Europe/London:20200127T090000",
            "RECURRENCE-ID;TZID=Europe/London:20200120T090000", "SUMMARY:Introduction to Calculus I (optional)",
            "RECURRENCE-ID;TZID=Europe/London:20200203T090000",
        ] {
            XCTAssertTrue(all.contains(line), line)
        }
        XCTAssertTrue(all.contains { $0.hasPrefix("ATTENDEE;CN=Zoe Zelda;ROLE=CHAIR;PARTSTAT=ACCEPTED:") })
        XCTAssertTrue(all.contains("ATTENDEE;CN=Tom Tool;PARTSTAT=DECLINED:mailto:tom@calendar.example.com"))
        // What ICSKit has no property for comes back when written as JSCalendar again.
        XCTAssertTrue(all.contains { $0.hasPrefix("X-JSCALENDAR;X-NAME=locale:") })
        let again = try JSONValue.parse(CalendarFormat.jscalendar.write(read(text).calendars))
        let event = try XCTUnwrap(again["entries"]?.arrayValue?.first)
        XCTAssertEqual(event["locale"], .string("en"))
        XCTAssertEqual(event["localizations"]?["de"]?["title"], .string("Live von der Music Bowl: The Band!"))
        XCTAssertEqual(event["recurrenceOverrides"]?["2020-01-27T09:00:00"], .object([("excluded", .bool(true))]))
    }

    /// The calext mapping draft's escape hatch: an `iCalComponent` with properties in jCal's form, and
    /// `convertedProperties` that give a mapped member its parameters back.
    func testTheEscapeHatchGivesPropertiesAndParametersBack() throws {
        let all = try lines(
            """
            {"@type": "Event", "uid": "h1", "title": "Team", "start": "2026-01-05T09:00:00", "timeZone": "Etc/UTC",
             "iCalComponent": {"@type": "ICalComponent", "name": "vevent",
               "properties": [["x-acme-room", {"x-floor": "3"}, "unknown", "4.12"],
                              ["comment", {}, "text", "Bring slides, please"]],
               "components": [["valarm", [["action", {}, "text", "AUDIO"], ["trigger", {}, "duration", "-PT5M"]], []]],
               "convertedProperties": {"title": {"parameters": {"language": "en"}}}}}
            """)
        for line in [
            "X-ACME-ROOM;X-FLOOR=3:4.12", "COMMENT:Bring slides\\, please", "SUMMARY;LANGUAGE=en:Team",
            "DTSTART:20260105T090000Z", "ACTION:AUDIO", "TRIGGER:-PT5M",
        ] {
            XCTAssertTrue(all.contains(line), line)
        }
    }

    /// Wrong types, unknown `@type`, patches at identity keys or at nothing, broken JSON, deep nesting: one error
    /// naming the line and column of the value at fault, nothing read, no crash.
    func testBadInputIsRefusedWithAPlace() {
        let cases: [(String, String, Int, Int)] = [
            ("{\n  \"@type\": \"Event\",\n  \"uid\": \"u\",\n  \"title\": 5\n}", "/title: expected a string", 4, 12),
            ("{\"@type\": \"Meeting\"}", "expected \"Group\", \"Event\" or \"Task\" (not \"Meeting\")", 1, 11),
            (
                "{\"@type\": \"Event\", \"uid\": \"u\", \"start\": \"2026-01-05T09:00:00\",\n \"recurrenceOverrides\": "
                    + "{\"2026-01-06T09:00:00\":\n  {\"uid\": \"other\"}}}",
                "a patch that leaves identity and series keys alone", 3, 11
            ),
            (
                "{\"@type\": \"Event\", \"uid\": \"u\", \"start\": \"2026-01-05T09:00:00\", \"recurrenceOverrides\": "
                    + "{\"2026-01-06T09:00:00\": {\"locations/x/name\": \"Room\"}}}",
                "a patch whose pointer leads to a value that is there", 1, 132
            ),
            ("{\"@type\": \"Event\", \"uid\": \"u\",}", "not valid JSON", 1, 31),
            (
                "{\"@type\": \"Group\", \"entries\": [{\"@type\": \"Event\", \"start\": \"tomorrow\"}]}",
                "/entries/0/start: expected a LocalDateTime", 1, 60
            ),
            (String(repeating: "[", count: 5_000), "nesting deeper than 512 levels", 1, 513),
        ]
        for (text, message, line, column) in cases {
            let result = read(text)
            XCTAssertEqual(result.calendars.count, 0, text)
            let error = result.diagnostics.first
            XCTAssertEqual(result.diagnostics.count, 1, text)
            XCTAssertTrue(error?.message.contains(message) == true, "\(error?.message ?? "nothing") ≠ \(message)")
            XCTAssertEqual(error?.line, line, text)
            XCTAssertEqual(error?.column, column, text)
        }
    }
}
