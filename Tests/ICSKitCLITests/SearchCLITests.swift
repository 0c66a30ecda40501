import Foundation
import XCTest

/// `icskit search`: words in summaries, places, descriptions, people and categories of real exports, case and
/// accents ignored, the index kept as items change.
final class SearchCLITests: StoreCLITestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        let own = path("own.ics")
        try """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:reunion@own\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20261201T100000Z\r
        DURATION:PT1H\r
        SUMMARY:Réunion au café\r
        DESCRIPTION:Bring the Q4 numbers\\, and the budget draft to the meeting\r
        CATEGORIES:Privé,Finance\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:standup@own\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20261130T090000Z\r
        DURATION:PT15M\r
        RRULE:FREQ=DAILY;COUNT=5\r
        SUMMARY:Standup\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:standup@own\r
        DTSTAMP:20260101T000000Z\r
        RECURRENCE-ID:20261202T090000Z\r
        DTSTART:20261202T093000Z\r
        DURATION:PT15M\r
        SUMMARY:Retro instead\r
        END:VEVENT\r
        END:VCALENDAR\r

        """.write(toFile: own, atomically: true, encoding: .utf8)
        try icskit(["import", CLI.fixture("corpus-copies/outlook-2010.ics"), "--calendar", "Work", "-q"])
        try icskit(["import", CLI.fixture("hand/apple-structured-location.ics"), "--calendar", "Trips", "-q"])
        try icskit(["import", own, "--calendar", "Own", "-q"])
    }

    func search(_ arguments: [String]) throws -> String {
        try icskit(["search"] + arguments + ["--tz", "UTC", "--no-ids"]).stdout
    }

    func testWordsAreFoundInEveryFieldWhateverTheirCaseAndAccents() throws {
        // Outlook's meeting: by its place, its organizer's address, an attendee's name ("Doe, Jane").
        for words in ["auditorium", "bobsmith", "jane doe", "TEAM meet"] {
            let found = try search([words])
            XCTAssertTrue(found.contains("2013-06-10 16:00  Team Meeting  (Work)"), "\(words): \(found)")
        }
        for words in ["cafe", "CAFÉ", "reunion", "prive", "q4 budget"] {
            XCTAssertEqual(try search([words]), "2026-12-01 10:00  Réunion au café  (Own)\n", words)
        }
        // Apple's location over two lines; ß as written.
        XCTAssertTrue(try search(["hauptstraße", "linz"]).contains("Linz  (Trips)"))
        // Every word must match: a word no item holds finds nothing, and says so.
        let none = try search(["cafe", "auditorium"])
        XCTAssertEqual(none, "no item holds \"cafe auditorium\"\n")
        // Query syntax is text: quotes, stars, NEAR and a colon do not break the search.
        XCTAssertEqual(try search(["\"cafe*\" NEAR: -"]), "no item holds \"\\\"cafe*\\\" NEAR: -\"\n")
    }

    func testTheSeriesAndItsOverrideAreFoundEachByItsOwnText() throws {
        XCTAssertEqual(try search(["standup"]), "2026-11-30 09:00  Standup ⟳  (Own)\n")
        XCTAssertEqual(try search(["retro"]), "2026-12-02 09:30  Retro instead ⟳ changed  (Own)\n")
        // In a window: the series' instances, not the one the override renamed.
        let week = try search(["standup", "--from", "2026-11-30", "--to", "+7d"])
        XCTAssertEqual(week.components(separatedBy: "Standup").count - 1, 4, week)
        XCTAssertFalse(week.contains("Retro"), week)
        XCTAssertFalse(week.contains("Wed 2026-12-02"), week)
        let retro = try search(["retro", "--week", "2026-W49"])
        XCTAssertTrue(retro.contains("Wed 2026-12-02\n  09:30–09:45  Retro instead ⟳ changed  (Own)"), retro)
    }

    func testCalendarsAndComponentsNarrowTheSearchAndJSONSaysWhatMatched() throws {
        XCTAssertEqual(try search(["doe", "--calendar", "Own"]), "no item holds \"doe\"\n")
        let both = try search(["meeting", "--calendar", "Own", "--calendar", "Work"])
        XCTAssertTrue(both.contains("Team Meeting  (Work)") && both.contains("Réunion au café  (Own)"), both)
        XCTAssertEqual(try search(["linz", "--calendar", "Own", "--calendar", "Work"]), "no item holds \"linz\"\n")
        XCTAssertEqual(try search(["linz"]), "2026-01-15 09:00  Linz  (Trips)\n")
        XCTAssertEqual(try search(["linz", "--component", "todo"]), "no item holds \"linz\"\n")
        let unknown = try icskit(["search", "x", "--calendar", "Nope"], status: 1)
        XCTAssertTrue(unknown.stderr.contains("no calendar \"Nope\""), unknown.stderr)
        XCTAssertEqual(try icskit(["search", "  "], status: 2).status, 2)

        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(try search(["retro", "--json"]).utf8)) as? [[String: Any]])
        XCTAssertEqual(json.count, 1)
        XCTAssertEqual(json[0]["uid"] as? String, "standup@own")
        XCTAssertEqual(json[0]["recurrence_id"] as? String, "20261202T090000Z")
        XCTAssertEqual(json[0]["calendar"] as? String, "Own")
        XCTAssertEqual(json[0]["component"] as? String, "VEVENT")
        XCTAssertEqual(json[0]["start"] as? String, "2026-12-02 09:30")
        XCTAssertEqual(json[0]["recurring"] as? Bool, false)
    }

    func testTheIndexFollowsEditsDeletionsAndNewItems() throws {
        XCTAssertTrue(try search(["cafe"]).contains("Réunion"))
        try icskit(["edit", "reunion@own", "--summary", "Quarterly review"])
        XCTAssertEqual(try search(["cafe"]), "no item holds \"cafe\"\n")
        XCTAssertEqual(try search(["quarterly"]), "2026-12-01 10:00  Quarterly review  (Own)\n")
        try icskit(["rm", "Quarterly review"])
        XCTAssertEqual(try search(["quarterly"]), "no item holds \"quarterly\"\n")
        // The highest id gone and a new item given it again: the new item is indexed.
        try icskit([
            "add", "event", "Quarterly planning", "--calendar", "Own", "--start", "2026-12-03 10:00", "--tz", "UTC",
        ])
        XCTAssertEqual(try search(["quarterly"]), "2026-12-03 10:00  Quarterly planning  (Own)\n")
        let count = try CLI.sqlite(
            store, "SELECT (SELECT count(*) FROM itemSearch) = (SELECT count(*) FROM item);")
        XCTAssertEqual(count.trimmingCharacters(in: .whitespacesAndNewlines), "1")
    }

    func testAStoreThatDoesNotExistFindsNothingAndIsNotCreated() throws {
        let missing = path("none.sqlite")
        let run = try CLI.run(["search", "anything", "--store", missing])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "no item holds \"anything\"\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
    }
}
