import CalendarModel
import Foundation
@testable import ICSKitCLI
import XCTest

/// The week view's layout on the hand-made planner week (2026-W47 in Europe/Berlin).
final class WeekLayoutTests: XCTestCase {
    func testOverlapsGetLanesAndLongEventsGetBars() throws {
        let calendar = try XCTUnwrap(try ICS.read(contentsOf: CLI.fixture("hand/week/planner.ics")).calendars.first)
        let zone = try XCTUnwrap(ZoneClock(identifier: "Europe/Berlin"))
        let monday = LocalDateTime(year: 2026, month: 11, day: 16)
        var options = ExpansionOptions()
        options.viewerZone = zone.identifier
        let occurrences = calendar.occurrences(
            from: zone.date(of: monday), to: zone.date(of: monday.adding(days: 7)),
            options: options
        ).occurrences
        let layout = WeekLayout(occurrences: occurrences, weekStart: monday, zone: zone)
        func blocks(_ summary: String) -> [WeekLayout.Block] {
            layout.blocks.filter { layout.entries[$0.entry].occurrence.summary == summary }
        }
        // Design review 10:00–11:30, interview 10:30–12:00 and dentist 11:00–11:45 share Monday in three lanes.
        XCTAssertEqual(blocks("Design review").map { [$0.day, $0.startMinute, $0.lane, $0.lanes] }, [[0, 600, 0, 3]])
        XCTAssertEqual(blocks("Interview: backend role").map { [$0.lane, $0.lanes] }, [[1, 3]])
        XCTAssertEqual(blocks("Dentist").map { [$0.lane, $0.lanes] }, [[2, 3]])
        // The stand-up before them is alone in its group.
        XCTAssertEqual(
            blocks("Stand-up").map { [$0.day, $0.startMinute, $0.lanes] },
            [[0, 555, 1], [1, 555, 1], [3, 555, 1], [4, 555, 1]])
        XCTAssertEqual(blocks("Stand-up (moved)").map { [$0.day, $0.startMinute] }, [[2, 600]])
        // The overnight hackathon (Fri 20:00 – Sat 14:00) is cut at midnight into two pieces.
        let hackathon = blocks("Overnight hackathon")
        XCTAssertEqual(hackathon.map { [$0.day, $0.startMinute, $0.endMinute] }, [[4, 1200, 1440], [5, 0, 840]])
        XCTAssertEqual(hackathon.map(\.continuesAfter), [true, false])
        XCTAssertEqual(hackathon.map(\.continuesBefore), [false, true])
        // The three-day conference is a bar from Wednesday to Friday.
        XCTAssertEqual(layout.bars.map { [$0.firstDay, $0.lastDay, $0.row] }, [[2, 4, 0]])
        XCTAssertEqual(
            layout.gantt.map { layout.entries[$0].occurrence.summary },
            ["Design review", "Interview: backend role", "Dentist", "SwiftConf Lisbon"])
        // The grid follows where events begin and end (08:00 run to the 21:30 dinner), not the hackathon's midnight.
        XCTAssertEqual([layout.firstHour, layout.lastHour], [8, 22])
    }
}
