import Foundation
import ICSKitTestSupport
import XCTest

@testable import CalendarModel

/// A shared feed never shows what its level hides, over generated calendars: random CLASS, TRANSP, STATUS, alarms,
/// attendees, X- properties, rules and overrides. Every piece of text carries a marker naming what it is and which
/// component it came from, so the feed's text alone tells what leaked.
final class SharedFeedPropertyTests: XCTestCase {
    /// One generated component and what a feed may show of it.
    struct Made {
        var lines: [String]
        var id: Int
        /// CLASS PUBLIC or none: its title and place may show at titles and full.
        var isPublic: Bool
        /// Neither transparent nor cancelled.
        var blocks: Bool
    }

    static let window = Date(timeIntervalSince1970: 1_795_000_000)..<Date(timeIntervalSince1970: 1_830_000_000)

    static func stamp(_ date: Date) -> String { CalendarDate.utc(date).icsValue }

    static func component(
        _ id: Int, uid: String, start: Date, rule: String?, recurrenceID: Date?, random: inout SeededGenerator
    ) -> Made {
        let classes = [nil, "PUBLIC", "PRIVATE", "CONFIDENTIAL", "X-HUSH"]
        let kind = classes.randomElement(using: &random)!
        let transparent = Int.random(in: 0..<5, using: &random) == 0
        let status = [nil, "CONFIRMED", "TENTATIVE", "CANCELLED", nil, nil].randomElement(using: &random)!
        var lines = [
            "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261101T000000Z", "DTSTART:\(stamp(start))",
            "DTEND:\(stamp(start + 3600))", "SUMMARY:TITLE\(id)X", "LOCATION:PLACE\(id)X",
            "DESCRIPTION:DETAIL\(id)X",
        ]
        if let kind { lines.append("CLASS:\(kind)") }
        if transparent { lines.append("TRANSP:TRANSPARENT") }
        if let status { lines.append("STATUS:\(status)") }
        if let rule { lines.append("RRULE:\(rule)") }
        if let recurrenceID { lines.append("RECURRENCE-ID:\(stamp(recurrenceID))") }
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            lines.append("ATTENDEE;CN=DETAIL\(id)X:mailto:detail\(id)x@example.org")
        }
        if Bool.random(using: &random) { lines.append("ORGANIZER:mailto:detail\(id)x@example.org") }
        if Bool.random(using: &random) { lines.append("X-PRIVATE-NOTE:DETAIL\(id)X") }
        if Bool.random(using: &random) { lines.append("X-ICSKIT-REPEAT-FROM:NEVERSHOWN\(id)X") }
        if Bool.random(using: &random) { lines.append("CATEGORIES:DETAIL\(id)X") }
        if Bool.random(using: &random) {
            lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:NEVERSHOWN\(id)X", "TRIGGER:-PT15M", "END:VALARM"]
        }
        lines.append("END:VEVENT")
        return Made(
            lines: lines, id: id, isPublic: kind == nil || kind == "PUBLIC",
            blocks: !transparent && status != "CANCELLED")
    }

    /// A calendar of a few series and single events, some overridden.
    static func calendar(_ random: inout SeededGenerator) -> (text: String, made: [Made]) {
        var made: [Made] = []
        for series in 0..<Int.random(in: 1...6, using: &random) {
            let start =
                window.lowerBound + Double(Int.random(in: -40...200, using: &random)) * 86_400
                + Double(Int.random(in: 6...18, using: &random)) * 3600
            let rule = [nil, "FREQ=WEEKLY;COUNT=5", "FREQ=DAILY", "FREQ=DAILY;UNTIL=\(stamp(start + 20 * 86_400))"]
                .randomElement(using: &random)!
            let uid = "ORIGINALUID\(series)X"
            made.append(component(made.count, uid: uid, start: start, rule: rule, recurrenceID: nil, random: &random))
            guard rule != nil else { continue }
            for week in Set(
                (0..<Int.random(in: 0...2, using: &random)).map { _ in Int.random(in: 1...3, using: &random) })
            {
                let original = start + Double(week * (rule!.hasPrefix("FREQ=WEEKLY") ? 7 : 1)) * 86_400
                made.append(
                    component(
                        made.count, uid: uid, start: original + 7200, rule: nil, recurrenceID: original, random: &random
                    ))
            }
        }
        let text =
            (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + made.flatMap(\.lines) + ["END:VCALENDAR"])
            .joined(separator: "\r\n") + "\r\n"
        return (text, made)
    }

    func testNoLevelShowsWhatItHides() throws {
        var (random, _, count) = SeededGenerator.start(
            "SharedFeedPropertyTests", seedVariable: "SHARE_SEED", countVariable: "SHARE_CASES", defaultCount: 200,
            unit: "calendars")
        for _ in 0..<count {
            let (text, made) = Self.calendar(&random)
            let calendar = try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first)
            for level in ShareLevel.allCases {
                let options = SharedFeed.Options(level: level, window: Self.window, name: "Shared") {
                    "H" + $0.count.description + "-" + String($0.reversed())
                }
                let feed = SharedFeed.calendar([calendar], options: options)
                let shown = String(decoding: ICS.write([feed]), as: UTF8.self)
                let context = "\(level) of\n\(text)"
                XCTAssertFalse(shown.contains("NEVERSHOWN"), "alarms and X-ICSKIT-: \(context)")
                XCTAssertFalse(shown.contains("BEGIN:VALARM"), context)
                if level != .full {
                    XCTAssertFalse(shown.contains("DETAIL"), "details below full: \(context)")
                    XCTAssertFalse(shown.contains("ORIGINALUID"), "UIDs below full: \(context)")
                }
                for item in made {
                    let mayShowTitle = level != .busy && item.isPublic && item.blocks
                    if !mayShowTitle {
                        XCTAssertFalse(shown.contains("TITLE\(item.id)X"), "title \(item.id): \(context)")
                        XCTAssertFalse(shown.contains("PLACE\(item.id)X"), "place \(item.id): \(context)")
                    }
                    if !item.isPublic || !item.blocks {
                        XCTAssertFalse(shown.contains("DETAIL\(item.id)X"), "hidden item's details: \(context)")
                    }
                }
                // The busy time is the calendar's, within the window.
                let reread = try XCTUnwrap(ICS.read(Array(shown.utf8)).calendars.first)
                let (from, to) = (Self.window.lowerBound, Self.window.upperBound)
                let outside =
                    reread.busyTime(from: from - 3 * 366 * 86_400, to: from).periods.filter {
                        $0.range.upperBound <= from
                    }
                    + reread.busyTime(from: to, to: to + 3 * 366 * 86_400).periods
                XCTAssertEqual(outside, [], "nothing outside the window: \(context)")
                let (got, expected) = (
                    Set(reread.busyTime(from: from, to: to).periods), Set(calendar.busyTime(from: from, to: to).periods)
                )
                XCTAssertEqual(
                    got, expected,
                    "busy time: \(got.subtracting(expected)) shown, \(expected.subtracting(got)) missing: \(context)")
            }
        }
    }

    /// Found by the property test: a private master (shown at busy, its UID hashed) beside a public override shown in
    /// full left the override naming a series the feed did not have, so the instance it moved was busy twice.
    func testASeriesKeepsOneUIDWhenPartsOfItAreShownAtDifferentLevels() throws {
        let text = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//test//EN\r
            BEGIN:VEVENT\r
            UID:series\r
            DTSTAMP:20261101T000000Z\r
            DTSTART:20261217T230000Z\r
            DTEND:20261218T000000Z\r
            SUMMARY:Hidden\r
            CLASS:PRIVATE\r
            RRULE:FREQ=WEEKLY;COUNT=5\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:series\r
            DTSTAMP:20261101T000000Z\r
            RECURRENCE-ID:20261224T230000Z\r
            DTSTART:20261225T010000Z\r
            DTEND:20261225T020000Z\r
            SUMMARY:Shown\r
            CLASS:PUBLIC\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let calendar = try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first)
        let feed = SharedFeed.calendar(
            [calendar], options: SharedFeed.Options(level: .full, window: Self.window, name: "x") { "hashed-" + $0 })
        let uids = Set(feed.components.compactMap { $0.core?.uid })
        XCTAssertEqual(uids, ["hashed-series"])
        XCTAssertTrue(ICS.write([feed]).count > 0)
        let (from, to) = (Self.window.lowerBound, Self.window.upperBound)
        XCTAssertEqual(feed.busyTime(from: from, to: to).periods, calendar.busyTime(from: from, to: to).periods)
        XCTAssertTrue(feed.components.contains { $0.core?.summary == "Shown" })
        XCTAssertFalse(feed.components.contains { $0.core?.summary == "Hidden" })
    }
}
