import CalendarModel
import Foundation
import XCTest

/// ICS → jCal → ICS over the corpus: nothing lost, whether ICSKit types the property or not.
final class JCalCorpusTests: XCTestCase {
    func testICSToJCalToICSIsLossless() throws {
        let (checked, failures) = try corpusRoundTrip(through: .jcal, meaning: SemanticComponent.init, flat: \.flat)
        XCTAssertGreaterThan(checked, 100)
        XCTAssertEqual(failures, [])
    }

    func testJCalShapeFollowsRFC7265() throws {
        let result = try readFixture("hand/tasks.ics")
        let json = try JSONValue.parse(CalendarFormat.jcal.write(result.calendars))
        guard case .array(let calendar) = json else { return XCTFail("not an array") }
        XCTAssertEqual(calendar.first, .string("vcalendar"))
        let todo = calendar[2].arrayValue?.first?.arrayValue
        XCTAssertEqual(todo?.first, .string("vtodo"))
        let properties = todo?[1].arrayValue ?? []
        let due = properties.first { $0.arrayValue?.first == .string("due") }
        XCTAssertEqual(
            due,
            .array([
                .string("due"), .object([("tzid", .string("Europe/Berlin"))]),
                .string("date-time"), .string("2024-01-12T17:00:00"),
            ]))
        let priority = properties.first { $0.arrayValue?.first == .string("priority") }
        XCTAssertEqual(priority, .array([.string("priority"), .object([]), .string("integer"), .number("1")]))
        let categories = properties.first { $0.arrayValue?.first == .string("categories") }
        XCTAssertEqual(categories?.arrayValue?.dropFirst(3).first, .string("Home"))
        let escaped = try readFixture("hand/categories-escaped.ics")
        let eventJSON = try JSONValue.parse(CalendarFormat.jcal.write(escaped.calendars))
        let eventProperties = eventJSON.arrayValue?[2].arrayValue?[0].arrayValue?[1].arrayValue ?? []
        let firstCategories = eventProperties.first { $0.arrayValue?.first == .string("categories") }
        XCTAssertEqual(
            Array(firstCategories?.arrayValue?.dropFirst(3) ?? []),
            [.string("Research, Development"), .string("Travel")])
        let unknown = eventProperties.first { $0.arrayValue?.first == .string("x-apple-travel-advisory-behavior") }
        XCTAssertEqual(unknown?.arrayValue?[2], .string("unknown"))
        XCTAssertEqual(unknown?.arrayValue?[1], .object([("x-custom", .string("a:b"))]))
    }

    func testRecurrenceRuleBecomesAnOrderedObject() throws {
        let source = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:r\r\nDTSTAMP:20240101T000000Z\r
            DTSTART:20240101T090000Z\r\nRRULE:FREQ=MONTHLY;BYDAY=-1FR,2MO;UNTIL=20241231T000000Z;INTERVAL=2\r
            END:VEVENT\r\nEND:VCALENDAR\r\n
            """
        let result = ICS.read(Array(source.utf8))
        let json = text(CalendarFormat.jcal.write(result.calendars))
        XCTAssertTrue(
            json.contains(#"{"freq":"MONTHLY","byday":["-1FR","2MO"],"until":"2024-12-31T00:00:00Z","interval":2}"#),
            json)
        let back = CalendarFormat.jcal.read(Array(json.utf8), file: nil)
        XCTAssertEqual(
            back.calendars.first?.events.first?.recurrenceRules.first?.icsValue,
            "FREQ=MONTHLY;BYDAY=-1FR,2MO;UNTIL=20241231T000000Z;INTERVAL=2")
    }

    func testBrokenJCalIsReportedWithALine() {
        let result = CalendarFormat.jcal.read(
            Array("[\"vcalendar\", [\n[\"version\", {}, \"text\"".utf8), file: "x.json")
        XCTAssertTrue(result.calendars.isEmpty)
        XCTAssertEqual(result.diagnostics.first?.severity, .error)
        XCTAssertEqual(result.diagnostics.first?.line, 2)
        let shape = CalendarFormat.jcal.read(Array(#"["vcalendar", {}, []]"#.utf8), file: "y.json")
        XCTAssertTrue(shape.diagnostics.first?.message.contains("expected") ?? false)
    }
}

/// A component as meaning, not spelling: parameter order aside VALUE, text escapes undone, numbers as numbers.
struct SemanticComponent: Equatable {
    var name: String
    var properties: [[String]]
    var children: [SemanticComponent]

    init(_ component: Component) {
        name = component.name
        properties = component.properties.map(Self.meaning)
        children = component.components.map(SemanticComponent.init)
    }

    var flat: [String] { [name] + properties.map { $0.joined(separator: "|") } + children.flatMap(\.flat) }

    static func meaning(_ property: Property) -> [String] {
        let declared = property["VALUE"]?.uppercased()
        let parameters = property.parameters.filter { $0.name != "VALUE" }.map { "\($0.name)=\($0.values)" }
        let value: String
        switch declared ?? ValueTypeName.defaultType(property.name) {
        case "TEXT" where ["CATEGORIES", "RESOURCES"].contains(property.name):
            value = TextEscaping.splitList(property.value).map { TextEscaping.unescape(String($0)) }
                .joined(separator: "\u{1F}")
        case "TEXT": value = TextEscaping.unescape(property.value)
        case "INTEGER":
            value =
                Int(property.value.hasPrefix("+") ? String(property.value.dropFirst()) : property.value)
                .map(String.init) ?? property.value
        case "RECUR": value = RecurrenceRule.parse(property.value).success?.icsValue ?? property.value
        case "BOOLEAN": value = property.value.uppercased()
        default: value = property.value
        }
        return [property.name] + parameters + [value]
    }
}

/// The default value type of well-known TEXT and INTEGER properties, for `SemanticComponent`.
enum ValueTypeName {
    static func defaultType(_ name: String) -> String {
        switch name {
        case "SUMMARY", "DESCRIPTION", "LOCATION", "COMMENT", "CATEGORIES", "RESOURCES", "UID", "STATUS", "CLASS",
            "TRANSP", "TZID", "TZNAME", "CONTACT", "RELATED-TO", "ACTION", "PRODID", "VERSION", "CALSCALE",
            "METHOD", "NAME", "COLOR", "REQUEST-STATUS":
            return "TEXT"
        case "PRIORITY", "SEQUENCE", "REPEAT", "PERCENT-COMPLETE": return "INTEGER"
        case "RRULE", "EXRULE": return "RECUR"
        default: return "OTHER"
        }
    }
}

extension Result {
    var success: Success? { if case .success(let value) = self { value } else { nil } }
}
