import Foundation
import XCTest

@testable import CalendarModel

/// ICS → JSCalendar → ICS over the shared corpus (issue 51): UIDs, texts, attendees and every instance 2000–2030
/// come back for at least 98 % of the files, in both vocabularies, and every file that loses one of them is named
/// in docs/DEVIATIONS.md. Beside it, how many files come back with every property (any order) is counted.
final class JSCalendarCorpusTests: XCTestCase {
    /// What a reader of the calendar sees: each item's UID, texts and attendees, and the instances ICSKit expands.
    static func view(_ calendars: [ICalendar]) -> [String] {
        var lines: [String] = []
        for calendar in calendars {
            for component in calendar.encoded().components where ItemKind(rawValue: component.name) != nil {
                var line = [component.name]
                for name in ["UID", "RECURRENCE-ID", "SUMMARY", "DESCRIPTION", "LOCATION"] {
                    line += component.properties(named: name).map { "\(name)=\(TextEscaping.unescape($0.value))" }
                }
                line += component.properties(named: "ATTENDEE").map {
                    "ATTENDEE=\($0.value) \($0["CN"] ?? "") \($0["PARTSTAT"] ?? "") \($0["ROLE"] ?? "")"
                }.sorted()
                lines.append(line.joined(separator: "|"))
            }
            var options = ExpansionOptions()
            options.components = Set(ItemKind.allCases)
            options.viewerZone = .utc
            options.limitPerSeries = 400
            lines += calendar.occurrences(
                from: Date(timeIntervalSince1970: 946_684_800), to: Date(timeIntervalSince1970: 1_924_992_000),
                options: options
            ).occurrences.map { "\($0.startDate) \($0.endDate) \($0.uid ?? "") \($0.summary ?? "")" }
        }
        return lines.sorted()
    }

    /// Every property of every component, parameters and components in any order, VALUE aside.
    static func content(_ calendars: [ICalendar]) -> [String] {
        func lines(_ component: Component) -> [String] {
            let own = component.properties.map { property in
                // VALUE aside: what travels as jCal (the escape hatch) says the type in jCal's own slot.
                ([property.name]
                    + property.parameters.filter { $0.name != "VALUE" }.map { "\($0.name)=\($0.values)" }
                    .sorted()).joined(separator: ";")
                    + ":" + SemanticComponent.meaning(property).last!
            }.sorted()
            return [component.name + "{" + own.joined(separator: "\n") + "}"]
                + component.components.flatMap(lines).sorted()
        }
        return calendars.flatMap { $0.encoded().components.flatMap(lines) }.sorted()
    }

    func testCorpusComesBackThroughJSCalendar() throws {
        let deviations = try String(
            contentsOf: Paths.package.appendingPathComponent("docs/DEVIATIONS.md"), encoding: .utf8)
        for version in [JSCalendarVersion.rfc8984, .draft2] {
            var (checked, kept, whole) = (0, 0, 0)
            var lost: [String] = []
            var partial: [String] = []
            for file in try Oracle.load().files {
                let (_, original) = try readCorpus(file.path)
                guard !original.calendars.isEmpty else { continue }
                checked += 1
                let json = CalendarFormat.jscalendar.write(original.calendars, csv: CSVOptions(), jscalendar: version)
                let back = CalendarFormat.jscalendar.read(json, file: file.path)
                XCTAssertFalse(back.calendars.isEmpty, "\(file.path): \(back.diagnostics.first?.description ?? "")")
                if Self.view(back.calendars) == Self.view(original.calendars) {
                    kept += 1
                } else {
                    lost.append(file.path)
                }
                if Self.content(back.calendars) == Self.content(original.calendars) {
                    whole += 1
                } else {
                    partial.append(file.path)
                }
            }
            XCTAssertGreaterThan(checked, 150)
            XCTAssertGreaterThanOrEqual(Double(kept) / Double(checked), 0.98, "\(version): \(lost)")
            for path in lost + partial {
                XCTAssertTrue(deviations.contains(path), "\(path) changes through JSCalendar: say why in DEVIATIONS")
            }
            print(
                "JSCalendar \(version): \(kept)/\(checked) keep UIDs, texts, attendees and instances; "
                    + "\(whole)/\(checked) every property")
        }
    }
}
