import CalendarMerge
import CalendarModel
import XCTest

@testable import CalendarSync

final class ResourceWriterTests: XCTestCase {
    let text = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VTIMEZONE\r
        TZID:Europe/Vienna\r
        BEGIN:STANDARD\r
        DTSTART:19701025T030000\r
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r
        TZOFFSETFROM:+0200\r
        TZOFFSETTO:+0100\r
        END:STANDARD\r
        BEGIN:DAYLIGHT\r
        DTSTART:19700329T020000\r
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r
        TZOFFSETFROM:+0100\r
        TZOFFSETTO:+0200\r
        END:DAYLIGHT\r
        END:VTIMEZONE\r
        BEGIN:VTIMEZONE\r
        TZID:Asia/Tokyo\r
        BEGIN:STANDARD\r
        DTSTART:19700101T000000\r
        TZOFFSETFROM:+0900\r
        TZOFFSETTO:+0900\r
        END:STANDARD\r
        END:VTIMEZONE\r
        BEGIN:VEVENT\r
        UID:weekly@test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;TZID=Europe/Vienna:20260105T090000\r
        RRULE:FREQ=WEEKLY\r
        SUMMARY:Stand-up with a summary long enough to be folded when it is written out again\\, comma\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:weekly@test\r
        RECURRENCE-ID;TZID=Europe/Vienna:20260112T090000\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;TZID=Asia/Tokyo:20260112T170000\r
        SUMMARY:Moved\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:once@test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20260110T100000Z\r
        SUMMARY:UTC only\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    func testEachResourceIsTheCalendarOfItsItemsAndTheZonesTheyUse() throws {
        let read = ICS.read(Array(text.utf8))
        XCTAssertTrue(read.diagnostics.filter { $0.severity == .error }.isEmpty)
        let (items, _) = CalendarMerger.items(of: read.calendars)
        let zones = Dictionary(
            read.calendars[0].timeZones.compactMap { zone in zone.tzid.map { ($0, zone) } },
            uniquingKeysWith: { a, _ in a })
        var byUID: [String: [MergeItem]] = [:]
        for item in items.values { byUID[item.key.uid, default: []].append(item) }
        var writer = ResourceWriter(zones: zones)
        // Twice each: the second time the zones' lines come from what the first wrote.
        for _ in 0..<2 {
            for (uid, group) in byUID {
                let bytes = writer.write(group)
                // What writing the whole VCALENDAR gives.
                var calendar = Component("VCALENDAR")
                calendar.properties = [Property("VERSION", value: "2.0"), Property("PRODID", value: ICS.productID)]
                let used = uid == "weekly@test" ? ["Europe/Vienna", "Asia/Tokyo"] : []
                calendar.components = used.compactMap { zones[$0]?.component }
                calendar.components += group.sorted { $0.key < $1.key }.map(\.component)
                XCTAssertEqual(
                    String(decoding: bytes, as: UTF8.self),
                    String(decoding: ICS.write(components: [calendar]), as: UTF8.self), uid)
                let again = ICS.read(bytes)
                XCTAssertTrue(again.diagnostics.filter { $0.severity == .error }.isEmpty, uid)
                XCTAssertEqual(again.calendars.first?.timeZones.compactMap(\.tzid), used, uid)
                XCTAssertEqual(again.calendars.first?.components.filter(\.isItem).count, group.count, uid)
            }
        }
    }
}
