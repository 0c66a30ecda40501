import Foundation
import XCTest

/// `icskit calendars`: what each calendar holds and where it comes from, colours distinct within a store, and a
/// colour, name or removal changed from the command line.
final class CalendarsCLITests: StoreCLITestCase {
    /// A calendar file of one event on 2026-11-30 (UTC) called `summary`.
    func oneEvent(_ name: String, _ summary: String, day: String = "20261130") throws -> String {
        let file = path(name + ".ics")
        try """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:\(name)@test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:\(day)T090000Z\r
        DURATION:PT1H\r
        SUMMARY:\(summary)\r
        END:VEVENT\r
        END:VCALENDAR\r

        """.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    func testTheListSaysWhatEachHoldsWhereItComesFromAndGivesDistinctColours() throws {
        try icskit(["import", CLI.fixture("demo/work.ics"), "--calendar", "Work", "-q"])
        try icskit(["import", CLI.fixture("demo/family.ics"), "--calendar", "Family", "-q"])
        // Seven calendars without a colour of their own (the case where two shared one by hash).
        for index in 1...7 {
            try icskit(["import", try oneEvent("c\(index)", "Event \(index)"), "--calendar", "C\(index)", "-q"])
        }
        let listed = try icskit(["calendars"]).stdout
        try icskit(["import", try oneEvent("later", "Far away", day: "20270301"), "--calendar", "Later", "-q"])
        let work = try XCTUnwrap(listed.split(separator: "\n").first { $0.hasPrefix("Work ") })
        XCTAssertTrue(work.contains("10 items"), String(work))
        XCTAssertTrue(work.contains("from \(CLI.fixture("demo/work.ics"))"), String(work))

        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(try icskit(["calendars", "--json"]).stdout.utf8))
                as? [[String: Any]])
        XCTAssertEqual(json.count, 10)
        // Family brings its own colour (seagreen); the nine others get one each, none the same.
        let defaults = json.filter { $0["color_is_default"] as? Bool == true }
        let given = defaults.compactMap { ($0["color"] as? String)?.uppercased() }
        XCTAssertEqual(given.count, 9)
        XCTAssertEqual(Set(given).count, given.count, "colours repeat: \(given)")

        // The page agrees with the list, and names only the calendars it shows.
        let page = path("week.html")
        try icskit(["export", "--format", "html", "--from", "2026-11-30", "--to", "+1d", "--tz", "UTC", "-o", page])
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let c3 = try XCTUnwrap(json.first { $0["name"] as? String == "C3" }?["color"] as? String)
        XCTAssertTrue(html.contains("style=\"background:\(c3)\"></span>C3</li>"), html)
        let title = try XCTUnwrap(
            html.components(separatedBy: "<h1>").dropFirst().first?.components(separatedBy: "</h1>").first)
        XCTAssertTrue(title.contains("C1") && title.contains("Work"), title)
        XCTAssertFalse(title.contains("Later"), "Later has nothing in that week: \(title)")
    }

    func testAColourANameAndARemovalAreChangedAndARemovalNeedsYes() throws {
        try icskit(["import", try oneEvent("a", "Dentist"), "--calendar", "Home", "-q"])
        try icskit(["import", try oneEvent("b", "Standup"), "--calendar", "Work", "-q"])
        XCTAssertEqual(try icskit(["calendars", "Home", "--set-color", "#3366ff"]).stdout, "Home: colour #3366FF\n")
        XCTAssertTrue(try icskit(["calendars"]).stdout.contains("Home  1 item  #3366FF "))
        XCTAssertEqual(try icskit(["calendars", "Home", "--set-color", "blue"], status: 2).status, 2)

        XCTAssertEqual(try icskit(["calendars", "Home", "--rename", "Family"]).stdout, "renamed: Home → Family\n")
        let taken = try icskit(["calendars", "Family", "--rename", "Work"], status: 1)
        XCTAssertTrue(taken.stderr.contains("already has a calendar \"Work\""), taken.stderr)
        // What the calendar held goes with the name: its items, and its merge base (a merge of the same file
        // changes nothing).
        XCTAssertTrue(
            try icskit(["search", "dentist", "--calendar", "Family", "--no-ids"]).stdout.contains("(Family)"))

        let refused = try icskit(["calendars", "Work", "--remove"], status: 1)
        XCTAssertTrue(refused.stderr.contains("add --yes"), refused.stderr)
        XCTAssertTrue(try icskit(["calendars"]).stdout.contains("Work "))
        XCTAssertEqual(
            try icskit(["calendars", "Work", "--remove", "--yes"]).stdout, "removed: the calendar Work with 1 item\n")
        XCTAssertFalse(try icskit(["calendars"]).stdout.contains("Work"))
        XCTAssertEqual(try icskit(["search", "standup"]).stdout, "no item holds \"standup\"\n")
        XCTAssertTrue(try icskit(["calendars", "Nope", "--remove", "--yes"], status: 1).stderr.contains("no calendar"))
        XCTAssertEqual(try icskit(["calendars", "Family"], status: 2).status, 2)
    }

    func testAnEmptyStoreSaysHowToFillIt() throws {
        XCTAssertTrue(try icskit(["calendars"]).stdout.contains("holds no items yet"))
    }
}
