import CalendarModel
import Foundation
@testable import ICSKitCLI
import XCTest

/// The week view's layout on the hand-made planner week (2026-W47 in Europe/Berlin).
final class WeekLayoutTests: XCTestCase {
    func testOverlapsGetLanesAndTimedEventsStayInTheGrid() throws {
        let calendar = try XCTUnwrap(try ICS.read(contentsOf: CLI.fixture("hand/week/planner.ics")).calendars.first)
        let zone = try XCTUnwrap(ZoneClock(identifier: "Europe/Berlin"))
        let monday = LocalDateTime(year: 2026, month: 11, day: 16)
        var options = ExpansionOptions()
        options.viewerZoneName = zone.identifier
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
        // The moved one shares Wednesday with the on-call shift that started on Tuesday.
        XCTAssertEqual(
            blocks("Stand-up (moved)").map { [$0.day, $0.startMinute, $0.lane, $0.lanes] }, [[2, 600, 1, 2]])
        // A timed event of 34 hours (Tue 13:00 – Wed 23:00) is drawn in the grid on both days, not as a bar.
        let onCall = blocks("Release on-call")
        XCTAssertEqual(onCall.map { [$0.day, $0.startMinute, $0.endMinute] }, [[1, 780, 1440], [2, 0, 1380]])
        XCTAssertEqual(onCall.map(\.continuesAfter), [true, false])
        // The overnight hackathon (Fri 20:00 – Sat 14:00) is cut at midnight into two pieces.
        let hackathon = blocks("Overnight hackathon")
        XCTAssertEqual(hackathon.map { [$0.day, $0.startMinute, $0.endMinute] }, [[4, 1200, 1440], [5, 0, 840]])
        XCTAssertEqual(hackathon.map(\.continuesAfter), [true, false])
        XCTAssertEqual(hackathon.map(\.continuesBefore), [false, true])
        // The three-day conference, all-day, is the only bar: Wednesday to Friday.
        XCTAssertEqual(layout.bars.map { [$0.firstDay, $0.lastDay, $0.row] }, [[2, 4, 0]])
        // The Gantt: what covers several days (the on-call shift, the conference, the overnight hackathon), and the
        // one group that really overlaps (Monday morning); the flight, the stand-ups and the 30-minute call do not.
        XCTAssertEqual(
            layout.multiDay.map { layout.entries[$0].occurrence.summary },
            ["Release on-call", "SwiftConf Lisbon", "Overnight hackathon"])
        XCTAssertEqual(
            layout.overlapGroups.map { $0.map { layout.entries[$0].occurrence.summary } },
            [["Design review", "Interview: backend role", "Dentist"]])
        // The grid follows where events begin and end (08:00 run to the on-call's 23:00), not the hackathon's
        // midnight.
        XCTAssertEqual([layout.firstHour, layout.lastHour], [8, 23])
    }
}

/// The Gantt's overlap groups on hand-made instances: touching is not overlapping, a chain is one group.
final class OverlapGroupTests: XCTestCase {
    func testTouchingEventsAreNotAGroupAndAChainIsOne() throws {
        let zone = try XCTUnwrap(ZoneClock(identifier: "UTC"))
        let monday = LocalDateTime(year: 2026, month: 11, day: 16)
        func event(_ name: String, _ from: String, _ until: String) -> String {
            "BEGIN:VEVENT\r\nUID:\(name)\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261116T\(from)00Z\r\n"
                + "DTEND:20261116T\(until)00Z\r\nSUMMARY:\(name)\r\nEND:VEVENT\r\n"
        }
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
            + event("a", "0900", "1000") + event("b", "1000", "1100")  // back to back
            + event("c", "1200", "1300") + event("d", "1245", "1330") + event("e", "1320", "1400")  // a chain
            + event("f", "1500", "1500") + event("g", "1500", "1530")  // a moment at a start
            + "END:VCALENDAR\r\n"
        let calendar = try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first)
        let occurrences = calendar.occurrences(
            from: zone.date(of: monday), to: zone.date(of: monday.adding(days: 7)), options: ExpansionOptions()
        ).occurrences
        let layout = WeekLayout(occurrences: occurrences, weekStart: monday, zone: zone)
        XCTAssertEqual(
            layout.overlapGroups.map { $0.map { layout.entries[$0].occurrence.summary ?? "" } }, [["c", "d", "e"]])
        XCTAssertEqual(layout.multiDay, [])
    }
}
