import Foundation
import ICSKitTestSupport
import XCTest

@testable import CalendarModel

/// A calendar of many series is expanded on every core (`ICalendar.expandInParts`); what it gives must be what the
/// expansion in order gives, instance for instance and warning for warning. Generated calendars hold what makes
/// that hard: instances that start together (ties broken by UID, kind and the order made), items without a UID,
/// overrides, zones the file defines (one under a tzdata name that disagrees with tzdata), zones no one knows and
/// X-WR-TIMEZONE (warnings met by several parts), rules cut short by the per-series limit, and budgets that the
/// parts' instances overflow.
final class ExpansionInPartsTests: XCTestCase {
    static func calendar(_ random: inout SeededGenerator, series: Int, disagreeing: Bool) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//EN"]
        if Bool.random(using: &random) { lines.append("X-WR-TIMEZONE:Europe/Berlin") }
        lines += [
            "BEGIN:VTIMEZONE", "TZID:Custom/Zone", "BEGIN:STANDARD", "DTSTART:19700101T000000",
            "TZOFFSETFROM:+0300", "TZOFFSETTO:+0300", "END:STANDARD", "END:VTIMEZONE",
        ]
        // A VTIMEZONE under a tzdata name that disagrees with tzdata: every part compares the two at the times the
        // calendar uses (found once, beside the grouping into series: `ZoneWallsAhead`).
        if disagreeing {
            lines += [
                "BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:STANDARD", "DTSTART:19700101T000000",
                "TZOFFSETFROM:+0500", "TZOFFSETTO:+0500", "END:STANDARD", "END:VTIMEZONE",
            ]
        }
        let zones = [
            ";TZID=Europe/Berlin", ";TZID=America/New_York", ";TZID=Custom/Zone", ";TZID=Nowhere/Land", "", "",
        ]
        let rules = [
            "FREQ=WEEKLY", "FREQ=DAILY;COUNT=40", "FREQ=MONTHLY;BYDAY=2TU", "FREQ=HOURLY;INTERVAL=5",
            "FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20260601T000000Z", "",
        ]
        for index in 0..<series {
            let zone = zones.randomElement(using: &random)!
            // Few distinct starts, so that many instances start together.
            let start = String(
                format: "2026%02d%02dT%02d0000", Int.random(in: 1...3, using: &random),
                Int.random(in: 1...5, using: &random), [9, 12].randomElement(using: &random)!)
            let uid = Int.random(in: 0..<10, using: &random) == 0 ? nil : "s\(index % (series / 2 + 1))@t"
            let kind = Int.random(in: 0..<5, using: &random) == 0 ? "VTODO" : "VEVENT"
            var item = ["BEGIN:\(kind)"] + (uid.map { ["UID:\($0)"] } ?? [])
            item += ["DTSTAMP:20260101T000000Z", "DTSTART\(zone):\(start)", "SUMMARY:S\(index)"]
            let rule = rules.randomElement(using: &random)!
            if !rule.isEmpty { item.append("RRULE:\(rule)") }
            lines += item + ["END:\(kind)"]
            if !rule.isEmpty, let uid, Int.random(in: 0..<4, using: &random) == 0 {
                lines += [
                    "BEGIN:\(kind)", "UID:\(uid)", "DTSTAMP:20260101T000000Z", "RECURRENCE-ID\(zone):\(start)",
                    "DTSTART\(zone):\(start.prefix(9))150000", "SUMMARY:Moved \(index)", "END:\(kind)",
                ]
            }
        }
        return (lines + ["END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    func testPartsGiveWhatTheExpansionInOrderGives() throws {
        var (random, seed, rounds) = SeededGenerator.start(
            "expansion in parts", seedVariable: "ICSKIT_PARTS_SEED", countVariable: "ICSKIT_PARTS_ROUNDS",
            defaultCount: 6, unit: "calendars")
        var (split, disagreeing) = (0, 0)
        for round in 0..<rounds {
            let text = Self.calendar(
                &random, series: Int.random(in: 1_200...3_000, using: &random), disagreeing: round % 2 == 0)
            let calendar = try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first)
            var options = ExpansionOptions()
            options.components = [.event, .todo]
            options.viewerZoneName = ["UTC", "Asia/Tokyo"].randomElement(using: &random)!
            if Bool.random(using: &random) { options.limitPerSeries = Int.random(in: 5...60, using: &random) }
            let budget = Int.random(in: 0..<3, using: &random) == 0 ? Int.random(in: 100...20_000, using: &random) : nil
            let (from, to) = (
                Date(timeIntervalSince1970: 1_767_225_600),
                Date(timeIntervalSince1970: 1_767_225_600 + Double(Int.random(in: 7...200, using: &random)) * 86_400)
            )
            func expansion(inParts: Bool) -> Expansion {
                var options = options
                options.inParts = inParts
                options.budget = budget.map { InstanceBudget(limit: $0) }
                return calendar.occurrences(from: from, to: to, options: options, file: "g.ics")
            }
            let (parts, inOrder) = (expansion(inParts: true), expansion(inParts: false))
            let context = "seed \(seed), round \(round)"
            XCTAssertEqual(parts.occurrences.count, inOrder.occurrences.count, context)
            XCTAssertEqual(parts.occurrences, inOrder.occurrences, context)
            XCTAssertEqual(
                parts.diagnostics.map { "\($0.line) \($0.code) \($0.message)" },
                inOrder.diagnostics.map { "\($0.line) \($0.code) \($0.message)" }, context)
            if parts.diagnostics.contains(where: { $0.code == "vtimezone-differs" }) { disagreeing += 1 }
            let series = Expander(calendar: calendar, options: options, file: nil).series().count
            if ParallelParts.ranges(series, from: ICalendar.seriesPerPart).count > 1 { split += 1 }
        }
        XCTAssertEqual(split, rounds, "the parts were not taken (one core, or too few series)")
        XCTAssertEqual(disagreeing, (rounds + 1) / 2, "seed \(seed): every other calendar's VTIMEZONE disagrees")
    }
}
