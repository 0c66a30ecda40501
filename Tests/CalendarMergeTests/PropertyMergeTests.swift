import CalendarMerge
import CalendarModel
import XCTest

/// The merge of one item field by field: one side's change of a field is kept, a field both changed differently
/// goes to the winner and is reported with both values, grouped fields move together, repeating properties merge
/// value by value.
final class PropertyMergeTests: XCTestCase {
    func event(_ lines: [String], alarms: [String] = []) -> Component {
        var text = "BEGIN:VEVENT\r\nUID:w@test\r\n" + lines.map { $0 + "\r\n" }.joined()
        for alarm in alarms {
            text += "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:\(alarm)\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\n"
        }
        return ICS.read(Array((text + "END:VEVENT\r\n").utf8)).components[0]
    }

    let base = [
        "DTSTAMP:20260101T000000Z", "DTSTART;TZID=Europe/Berlin:20261203T090000",
        "DTEND;TZID=Europe/Berlin:20261203T100000", "SUMMARY:Workshop", "CATEGORIES:Work",
    ]

    func replacing(_ lines: [String], _ prefix: String, with line: String?) -> [String] {
        lines.compactMap { $0.hasPrefix(prefix) ? line : $0 }
    }

    func testEachSidesChangesToDifferentFieldsAreKept() {
        let local = event(base + ["LOCATION:Room R", "CATEGORIES:Urgent"], alarms: ["soon"])
        let moved = replacing(
            replacing(base, "DTSTART", with: "DTSTART;TZID=Europe/Berlin:20261203T130000"), "DTEND",
            with: "DTEND;TZID=Europe/Berlin:20261203T140000")
        let external = event(moved + ["SEQUENCE:3", "DTSTAMP:20260105T000000Z"])
        let outcome = PropertyMerge.merge(base: event(base), local: local, external: external, winner: .local)
        let merged = outcome.component
        XCTAssertEqual(merged.property("DTSTART")?.value, "20261203T130000", "their move")
        XCTAssertEqual(merged.property("DTEND")?.value, "20261203T140000")
        XCTAssertEqual(merged.property("LOCATION")?.value, "Room R", "our room")
        XCTAssertEqual(merged.properties(named: "CATEGORIES").map(\.value), ["Work", "Urgent"])
        XCTAssertEqual(merged.components.count, 1, "our alarm")
        XCTAssertEqual(merged.property("SEQUENCE")?.value, "4", "above both sides'")
        XCTAssertEqual(merged.properties(named: "DTSTAMP").map(\.value), ["20260105T000000Z"], "the later stamp")
        XCTAssertEqual(merged.properties.first?.name, "UID")
        XCTAssertFalse(outcome.hasConflict)
        XCTAssertFalse(outcome.equalsLocal || outcome.equalsExternal)
        // A move is told by its start; the end that moved with it is not listed again.
        XCTAssertEqual(
            outcome.changes.filter { $0.name != "VALARM" && $0.name != "CATEGORIES" },
            [
                FieldChange(name: "DTSTART", from: "09:00", to: "13:00", side: .external),
                FieldChange(name: "LOCATION", from: nil, to: "\"Room R\"", side: .local),
            ])
        XCTAssertTrue(
            outcome.changes.contains(FieldChange(name: "CATEGORIES", from: nil, to: "\"Urgent\"", side: .local)))
    }

    func testTheSameFieldChangedDifferentlyGoesToTheWinnerWithBothValuesReported() {
        let local = event(base + ["LOCATION:Room R"])
        let external = event(base + ["LOCATION:Room S", "DESCRIPTION:Bring laptops"])
        for winner in [MergeSide.local, .external] {
            let outcome = PropertyMerge.merge(base: event(base), local: local, external: external, winner: winner)
            XCTAssertTrue(outcome.hasConflict)
            XCTAssertEqual(
                outcome.component.property("LOCATION")?.value, winner == .local ? "Room R" : "Room S")
            XCTAssertEqual(outcome.component.property("DESCRIPTION")?.value, "Bring laptops", "one-sided: kept")
            let conflict = outcome.changes.first { $0.isConflict }
            XCTAssertEqual(conflict?.name, "LOCATION")
            XCTAssertEqual(conflict?.local, "\"Room R\"")
            XCTAssertEqual(conflict?.external, "\"Room S\"")
            XCTAssertEqual(conflict?.side, winner)
        }
        // The same change on both sides is no conflict.
        let same = PropertyMerge.merge(base: event(base), local: local, external: local, winner: .external)
        XCTAssertFalse(same.hasConflict)
        XCTAssertTrue(same.equalsLocal && same.equalsExternal)
        XCTAssertEqual(same.changes.first?.side, .both)
    }

    func testStartAndEndMoveTogether() {
        // Here the meeting was made longer; there it was moved. Taking the end from here and the start from there
        // would make a four-hour meeting: the time is one field, and the winner's start and end stand together.
        let longer = event(replacing(base, "DTEND", with: "DTEND;TZID=Europe/Berlin:20261203T110000"))
        let moved = event(
            replacing(
                replacing(base, "DTSTART", with: "DTSTART;TZID=Europe/Berlin:20261203T130000"), "DTEND",
                with: "DTEND;TZID=Europe/Berlin:20261203T140000"))
        let outcome = PropertyMerge.merge(base: event(base), local: longer, external: moved, winner: .external)
        XCTAssertTrue(outcome.hasConflict)
        XCTAssertEqual(outcome.component.property("DTSTART")?.value, "20261203T130000")
        XCTAssertEqual(outcome.component.property("DTEND")?.value, "20261203T140000")
        let local = PropertyMerge.merge(base: event(base), local: longer, external: moved, winner: .local)
        XCTAssertEqual(local.component.property("DTSTART")?.value, "20261203T090000")
        XCTAssertEqual(local.component.property("DTEND")?.value, "20261203T110000")
    }

    func testARuleAndItsExceptionsChangeTogether() {
        let series = base + ["RRULE:FREQ=WEEKLY;COUNT=10"]
        let skipped = event(series + ["EXDATE;TZID=Europe/Berlin:20261210T090000"])
        let daily = event(replacing(series, "RRULE", with: "RRULE:FREQ=DAILY;COUNT=5"))
        let outcome = PropertyMerge.merge(base: event(series), local: skipped, external: daily, winner: .external)
        XCTAssertTrue(outcome.hasConflict, "an exception of one rule does not belong beside another")
        XCTAssertEqual(outcome.component.property("RRULE")?.value, "FREQ=DAILY;COUNT=5")
        XCTAssertNil(outcome.component.property("EXDATE"))
    }

    func testAttendeesAreKnownByAddressAndAlarmsOneByOne() {
        let withAna = base + ["ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:ana@example.com"]
        let accepted = event(
            replacing(withAna, "ATTENDEE", with: "ATTENDEE;PARTSTAT=ACCEPTED:mailto:ana@example.com"), alarms: ["a"])
        let invited = event(withAna + ["ATTENDEE:mailto:bo@example.com"], alarms: ["a", "b"])
        let outcome = PropertyMerge.merge(
            base: event(withAna, alarms: ["a"]), local: accepted, external: invited, winner: .external)
        XCTAssertFalse(outcome.hasConflict)
        XCTAssertEqual(
            outcome.component.properties(named: "ATTENDEE").map(\.canonicalContentLine),
            ["ATTENDEE;PARTSTAT=ACCEPTED:mailto:ana@example.com", "ATTENDEE:mailto:bo@example.com"])
        XCTAssertEqual(outcome.component.components.compactMap { $0.property("DESCRIPTION")?.value }, ["a", "b"])
        XCTAssertTrue(
            outcome.changes.contains(
                FieldChange(
                    name: "ATTENDEE", from: "mailto:ana@example.com (NEEDS-ACTION)",
                    to: "mailto:ana@example.com (ACCEPTED)", side: .local)))
    }

    func testAnUpdateNamesWhatItChanges() {
        let newer = event(replacing(base, "SUMMARY", with: "SUMMARY:Workshop (room change)") + ["LOCATION:Hall"])
        XCTAssertEqual(
            PropertyMerge.changes(from: event(base), to: newer, side: .external),
            [
                FieldChange(name: "SUMMARY", from: "\"Workshop\"", to: "\"Workshop (room change)\"", side: .external),
                FieldChange(name: "LOCATION", from: nil, to: "\"Hall\"", side: .external),
            ])
        // A move to another day is told with its date.
        let later = event(replacing(base, "DTSTART", with: "DTSTART;TZID=Europe/Berlin:20261204T090000"))
        XCTAssertEqual(
            PropertyMerge.changes(from: event(base), to: later, side: .external).first,
            FieldChange(
                name: "DTSTART", from: "2026-12-03 09:00 Europe/Berlin", to: "2026-12-04 09:00 Europe/Berlin",
                side: .external))
    }
}
