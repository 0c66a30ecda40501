@testable import CalendarModel
import Foundation
import XCTest

/// ICS → xCal → ICS over the corpus, xCal's shape, and the XML reader's refusals.
final class XCalTests: XCTestCase {
    func testICSToXCalToICSIsLosslessOverTheCorpus() throws {
        let (checked, failures) = try corpusRoundTrip(through: .xcal, meaning: XCalMeaning.init, flat: \.flat)
        XCTAssertGreaterThan(checked, 100)
        XCTAssertEqual(failures, [])
    }

    func testXCalShapeFollowsRFC6321() throws {
        let result = try readFixture("hand/tasks.ics")
        let xml = text(CalendarFormat.xcal.write(result.calendars))
        XCTAssertTrue(
            xml.hasPrefix(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<icalendar xmlns=\"urn:ietf:params:xml:ns:icalendar-2.0\">"
            ))
        XCTAssertTrue(
            xml.contains(
                "<due><parameters><tzid><text>Europe/Berlin</text></tzid></parameters>"
                    + "<date-time>2024-01-12T17:00:00</date-time></due>"), xml)
        XCTAssertTrue(xml.contains("<priority><integer>1</integer></priority>"), xml)
        let root = try XMLElement.parse(Array(xml.utf8))
        let calendar = try XCTUnwrap(root.children.first)
        XCTAssertEqual(calendar.name, "vcalendar")
        XCTAssertEqual(calendar.children.map(\.name), ["properties", "components"])
        XCTAssertEqual(calendar.namespace, XCalWriter.namespace)
    }

    func testValueTypesBecomeTheirElements() {
        let source = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:r\r\nDTSTAMP:20240101T000000Z\r
            DTSTART;VALUE=DATE:20240101\r\nRRULE:BYDAY=-1FR,2MO;FREQ=MONTHLY;UNTIL=20241231T000000Z;INTERVAL=2\r
            GEO:37.386013;-122.082932\r\nRDATE;VALUE=PERIOD:20240105T100000Z/PT1H,20240106T100000Z/20240106T120000Z\r
            ATTENDEE;RSVP=TRUE;MEMBER="mailto:a@x","mailto:b@x":mailto:c@x\r
            REQUEST-STATUS:2.0;Success\r\nSUMMARY:a < b & c\\, d\r\nDESCRIPTION:two\\nlines\r
            X-THING;X-P=1:raw\\,value\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """
        let read = ICS.read(Array(source.utf8))
        let xml = text(CalendarFormat.xcal.write(read.calendars))
        for fragment in [
            "<dtstart><date>2024-01-01</date></dtstart>",
            "<rrule><recur><freq>MONTHLY</freq><until>2024-12-31T00:00:00Z</until><interval>2</interval>"
                + "<byday>-1FR</byday><byday>2MO</byday></recur></rrule>",
            "<geo><latitude>37.386013</latitude><longitude>-122.082932</longitude></geo>",
            "<period><start>2024-01-05T10:00:00Z</start><duration>PT1H</duration></period>"
                + "<period><start>2024-01-06T10:00:00Z</start><end>2024-01-06T12:00:00Z</end></period>",
            "<rsvp><boolean>true</boolean></rsvp><member><cal-address>mailto:a@x</cal-address>"
                + "<cal-address>mailto:b@x</cal-address></member>",
            "<request-status><code>2.0</code><description>Success</description></request-status>",
            "<summary><text>a &lt; b &amp; c, d</text></summary>",
            "<description><text>two\nlines</text></description>",
            "<x-thing><parameters><x-p><text>1</text></x-p></parameters><unknown>raw\\,value</unknown></x-thing>",
        ] {
            XCTAssertTrue(xml.contains(fragment), "missing \(fragment) in\n\(xml)")
        }
        let back = CalendarFormat.xcal.read(Array(xml.utf8), file: "t.xml")
        XCTAssertEqual(back.diagnostics.filter { $0.severity == .error }.count, 0)
        let event = back.components.first?.components.first
        XCTAssertEqual(event?.property("DTSTART")?.contentLine, "DTSTART;VALUE=DATE:20240101")
        XCTAssertEqual(event?.property("GEO")?.value, "37.386013;-122.082932")
        XCTAssertEqual(event?.property("REQUEST-STATUS")?.value, "2.0;Success")
        XCTAssertEqual(event?.property("SUMMARY")?.value, "a < b & c\\, d")
        XCTAssertEqual(event?.property("X-THING")?.contentLine, "X-THING;X-P=1:raw\\,value")
        XCTAssertEqual(
            event?.property("ATTENDEE")?.parameters.map(\.values),
            [["TRUE"], ["mailto:a@x", "mailto:b@x"]])
        XCTAssertEqual(event?.property("RDATE")?.value, "20240105T100000Z/PT1H,20240106T100000Z/20240106T120000Z")
        XCTAssertEqual(back.calendars.first?.events.first?.recurrenceRules.first?.interval, 2)
    }

    func testCarriageReturnsAndPrefixesSurvive() throws {
        let xml = """
            <?xml version="1.0"?>
            <x:icalendar xmlns:x="urn:ietf:params:xml:ns:icalendar-2.0"><x:vcalendar><x:properties>
            <x:version><x:text>2.0</x:text></x:version><x:prodid><x:text><![CDATA[-//a<b>//EN]]></x:text></x:prodid>
            </x:properties><x:components><x:vjournal><x:properties>
            <x:uid><x:text>j&#x31;</x:text></x:uid><x:description><x:text>a&#13;
            b</x:text></x:description><other xmlns="urn:example:other">ignored</other>
            </x:properties></x:vjournal></x:components></x:vcalendar></x:icalendar>
            """
        let read = CalendarFormat.xcal.read(Array(xml.utf8), file: "p.xml")
        let journal = try XCTUnwrap(read.components.first?.components.first)
        XCTAssertEqual(journal.property("UID")?.value, "j1")
        // The reference keeps its CR through XML's line-end normalisation; iCalendar text then has one newline.
        let tree = try XMLElement.parse(Array(xml.utf8))
        let description = tree.children[0].children[1].children[0].children[0].children[1].children[0]
        XCTAssertEqual(description.text, "a\r\nb")
        XCTAssertEqual(journal.property("DESCRIPTION")?.value, "a\\nb")
        XCTAssertEqual(read.components.first?.property("PRODID")?.value, "-//a<b>//EN")
        XCTAssertTrue(
            read.diagnostics.contains { $0.line == 6 && $0.message.contains("<other>") }, "\(read.diagnostics)")
    }

    /// XML's line ends (CR LF and a lone CR are LF in text; CR, LF and tab are a space in attribute values), a
    /// character reference's CR kept, and the lines of what follows many lines of text.
    func testLineEndsReferencesAndLinesAfterText() throws {
        let xml =
            "<r a=\"x\r\ny\tz\rw\">one\r\ntwo\rthree\nfour&#13;&amp;&#x41;\r\n" + "<c/>\n\n"
            + "<d>\u{E9}\u{4E88}&lt;</d></r>"
        let root = try XMLElement.parse(Array(xml.utf8))
        XCTAssertEqual(root.attributes.first?.value, "x y z w")
        XCTAssertEqual(root.text, "one\ntwo\nthree\nfour\r&A\n\n\n")
        XCTAssertEqual(root.children.map(\.line), [5, 7])  // lines are counted at LF
        XCTAssertEqual(root.children[1].text, "\u{E9}\u{4E88}<")
        for name in [":a", "a:", "::a", "a::b", "a:b:c", "a", ":", "::", "d:response"] {
            XCTAssertEqual(
                XMLParser.prefixAndName(name), name.split(separator: ":", maxSplits: 1).map(String.init), name)
        }
        let text = String(repeating: "line\r\n", count: 1000)
        do {
            _ = try XMLElement.parse(Array(("<r>" + text + "</x>").utf8))
            XCTFail("a wrong end tag is refused")
        } catch {
            XCTAssertEqual(error.line, 1001)
            XCTAssertEqual(error.column, 5)
        }
    }

    /// Attribute values in either quote (the other one inside them plain), and what is never closed reported where
    /// it starts.
    func testQuotesCommentsAndWhatIsNeverClosed() throws {
        let root = try XMLElement.parse(Array("<r a='say \"hi\"' b=\"it's\"><!-- a -- b --><c/></r>".utf8))
        XCTAssertEqual(root.attributes.map(\.value), ["say \"hi\"", "it's"])
        XCTAssertEqual(root.children.map(\.name), ["c"])
        for (xml, line, message) in [
            ("<r>\n<x a='open\n\n", 2, "the value of attribute a is never closed with '''"),
            ("<r>\n\n<!-- never\n", 3, "a comment is never closed with '-->'"),
            ("<r><![CDATA[\nx]]", 1, "a CDATA section is never closed with ']]>'"),
        ] {
            XCTAssertThrowsError(try XMLElement.parse(Array(xml.utf8)), xml) { error in
                XCTAssertEqual((error as? XMLFailure)?.line, line, xml)
                XCTAssertTrue(String(describing: error).contains(message), "\(error)")
            }
        }
    }

    func testEscapingLeavesPlainTextAsItIs() {
        XCTAssertEqual(XMLEscaping.escape("/calendars/u/é 予定.ics"), "/calendars/u/é 予定.ics")
        XCTAssertEqual(XMLEscaping.escape("say \"a\" & <b>\r\n\t"), "say \"a\" &amp; &lt;b&gt;&#13;\n\t")
        XCTAssertEqual(XMLEscaping.escape("\"a\"", attribute: true), "&quot;a&quot;")
        XCTAssertEqual(XMLEscaping.escape("a\u{1}b\u{FFFE}c\u{FFFF}d\u{FFFD}\u{7F}"), "abcd\u{FFFD}\u{7F}")
    }

    func testDoctypesAndEntitiesAreRefused() {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
            <icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0"><vcalendar><properties>
            <prodid><text>&lol2;</text></prodid></properties><components/></vcalendar></icalendar>
            """
        let refused = CalendarFormat.xcal.read(Array(laughs.utf8), file: "laughs.xml")
        XCTAssertTrue(refused.calendars.isEmpty)
        XCTAssertEqual(refused.diagnostics.first?.line, 2)
        XCTAssertTrue(refused.diagnostics.first?.message.contains("DOCTYPE") ?? false, "\(refused.diagnostics)")
        let entity = """
            <icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0"><vcalendar><properties>
            <prodid><text>&external;</text></prodid></properties></vcalendar></icalendar>
            """
        let undefined = CalendarFormat.xcal.read(Array(entity.utf8), file: "e.xml")
        XCTAssertTrue(undefined.calendars.isEmpty)
        XCTAssertTrue(undefined.diagnostics.first?.message.contains("&external;") ?? false, "\(undefined.diagnostics)")
        XCTAssertEqual(undefined.diagnostics.first?.line, 2)
        // Elements nest 200 deep at most (SECURITY.md): deeper is refused, not followed by recursion.
        let deep = String(repeating: "<x>", count: 100_000) + String(repeating: "</x>", count: 100_000)
        let nested = CalendarFormat.xcal.read(Array(deep.utf8), file: "deep.xml")
        XCTAssertTrue(nested.calendars.isEmpty)
        XCTAssertTrue(
            nested.diagnostics.first?.message.contains("elements nest deeper than 200 levels") ?? false,
            "\(nested.diagnostics)")
    }

    func testBrokenXMLAndWrongRootAreReportedWithALine() {
        let broken = CalendarFormat.xcal.read(Array("<icalendar>\n<vcalendar>\n</icalendar>".utf8), file: "b.xml")
        XCTAssertTrue(broken.calendars.isEmpty)
        XCTAssertEqual(broken.diagnostics.first?.line, 3)
        XCTAssertTrue(broken.diagnostics.first?.message.contains("</icalendar> closes <vcalendar>") ?? false)
        let html = CalendarFormat.xcal.read(Array("<html><body/></html>".utf8), file: "h.xml")
        XCTAssertTrue(html.diagnostics.first?.message.contains("root element is <html>") ?? false)
        let deep = String(repeating: "<a>", count: 500) + String(repeating: "</a>", count: 500)
        let nested = CalendarFormat.xcal.read(Array(deep.utf8), file: "d.xml")
        XCTAssertTrue(nested.diagnostics.first?.message.contains("deeper") ?? false)
    }
}

/// `SemanticComponent`, except that RRULE parts compare as a set and durations by length: xCal's schema fixes the
/// order of RRULE parts and allows weeks only on their own.
struct XCalMeaning: Equatable {
    var base: SemanticComponent

    init(_ component: Component) {
        var copy = component
        Self.sortRules(&copy)
        base = SemanticComponent(copy)
    }

    var flat: [String] { base.flat }

    static func sortRules(_ component: inout Component) {
        for index in component.properties.indices {
            let property = component.properties[index]
            if ["RRULE", "EXRULE"].contains(property.name) {
                component.properties[index].value = property.value.split(separator: ";").sorted().joined(separator: ";")
            }
            if ["DURATION", "TRIGGER"].contains(property.name),
                let duration = CalendarDuration.parse(property.value).success
            {
                component.properties[index].value = "\(duration.isNegative ? "-" : "")\(duration.totalSeconds)s"
            }
        }
        for index in component.components.indices { sortRules(&component.components[index]) }
    }
}
