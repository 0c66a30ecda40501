import CalendarMerge
import CalendarModel
import XCTest

/// One order of versions (`Revision`: SEQUENCE, then DTSTAMP), and merge's question built on it: whose change came
/// later (LAST-MODIFIED, else DTSTAMP), then the newer version.
final class RevisionTests: XCTestCase {
    func testSequenceThenStamp() {
        // A higher SEQUENCE wins over a later DTSTAMP (RFC 5546 §2.1.5, as recurring-ical-events reads it).
        XCTAssertLessThan(Revision(sequence: 1, stamp: 900), Revision(sequence: 2, stamp: 10))
        XCTAssertLessThan(Revision(sequence: 1, stamp: 10), Revision(sequence: 1, stamp: 20))
        // No DTSTAMP is the oldest of its SEQUENCE.
        XCTAssertLessThan(Revision(sequence: 3), Revision(sequence: 3, stamp: .min + 1))
        XCTAssertEqual(Revision(sequence: 3), Revision(sequence: 3, stamp: .min))
        XCTAssertEqual(Set([Revision(sequence: 3), Revision(sequence: 3, stamp: .min)]).count, 1)
    }

    /// An item's revision reads its SEQUENCE and DTSTAMP; merge asks first whose change came later, so a peer that
    /// never raises SEQUENCE is not outvoted by an older edit that did.
    func testItemsAndMergeShareTheOrder() throws {
        func core(_ extra: String) throws -> ItemCore {
            let text =
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:r@t\r\n"
                + "DTSTART:20260101T090000Z\r\n\(extra)END:VEVENT\r\nEND:VCALENDAR\r\n"
            return try XCTUnwrap(ICS.read(Array(text.utf8)).calendars.first?.events.first?.core)
        }
        let rescheduled = try core("SEQUENCE:2\r\nDTSTAMP:20260101T000000Z\r\n")
        let resent = try core("SEQUENCE:1\r\nDTSTAMP:20260301T000000Z\r\n")
        XCTAssertGreaterThan(rescheduled.revision, resent.revision)

        let older = ItemVersion(fingerprint: "l", revision: rescheduled.revision, lastModified: 100)
        let later = ItemVersion(fingerprint: "e", revision: resent.revision, lastModified: 200)
        XCTAssertTrue(later.isNewer(than: older), "the later change")
        XCTAssertFalse(older.isNewer(than: later))
        // At the same time of change, the newer version.
        let same = ItemVersion(fingerprint: "e", revision: resent.revision, lastModified: 100)
        XCTAssertTrue(older.isNewer(than: same))
        // Without LAST-MODIFIED, DTSTAMP is the time of the change.
        XCTAssertTrue(
            ItemVersion(fingerprint: "e", sequence: 0, stamp: 20).isNewer(
                than: ItemVersion(fingerprint: "l", sequence: 5, stamp: 10)))
    }
}
