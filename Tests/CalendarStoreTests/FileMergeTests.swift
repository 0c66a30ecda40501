import CalendarMerge
import CalendarModel
@testable import CalendarStore
import ICSKitTestSupport
import XCTest

/// `CalendarMerger.merge(icsBytes:)` leaves out of decoding what the merge base already has; the store it leaves
/// must be the one a merge of the whole file leaves, on real files and on the cases built for it.
final class FileMergeTests: XCTestCase {
    /// Each corpus and fixture file merged into two stores, one reading all and one reading less, then a changed
    /// version of it (a third of the items retitled, a seventh gone, one series deleted here meanwhile): the same
    /// decisions, labels included, and the same store.
    func testReadingLessLeavesTheStoreReadingAllLeaves() throws {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let corpus = package.deletingLastPathComponent().appendingPathComponent("shared/fixtures/corpus")
        guard FileManager.default.fileExists(atPath: corpus.path) else {
            throw Requirement.missing("../shared/fixtures/corpus is not beside this checkout (CI puts it there)")
        }
        var files: [URL] = []
        for root in [corpus, package.appendingPathComponent("Fixtures")] {
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                if url.pathExtension == "ics" { files.append(url) }
            }
        }
        var leftOut = 0, compared = 0
        for url in files.sorted(by: { $0.path < $1.path }) {
            let first = try [UInt8](Data(contentsOf: url))
            guard let second = Self.changed(first) else { continue }
            let all = try CalendarStore.inMemory(), less = try CalendarStore.inMemory()
            for (step, bytes) in [first, second].enumerated() {
                if step == 1, let uid = Self.seriesUID(in: first) {
                    _ = try all.delete(uid: uid, calendar: "cal")
                    _ = try less.delete(uid: uid, calendar: "cal")
                }
                let base = try less.mergeSnapshot(calendar: "cal", source: "src").base
                let wholly = try outcome {
                    try CalendarMerger.merge(
                        ICS.read(bytes, file: "f.ics").calendars, into: "cal", source: "src", storage: all)
                }
                let partly = try outcome {
                    try CalendarMerger.merge(icsBytes: bytes, file: "f.ics", into: "cal", source: "src", storage: less)
                        .result
                }
                XCTAssertEqual(partly, wholly, "\(url.lastPathComponent), merge \(step + 1)")
                if step == 1 {
                    leftOut +=
                        ICS.read(bytes, file: nil) { component, _ in
                            component.keyAsRead(wrTimeZone: false).flatMap { key in
                                base[MergeKey(uid: key.uid, recurrenceID: key.recurrenceID)] == component.fingerprint
                                    ? true : nil
                            }
                        }.unread.count
                }
            }
            XCTAssertEqual(try state(of: less), try state(of: all), url.lastPathComponent)
            compared += 1
        }
        print("reading less: \(compared) files merged both ways, \(leftOut) items left out of the second merges")
        XCTAssertGreaterThan(compared, 100)
        XCTAssertGreaterThan(leftOut, 1000)
    }

    /// A series deleted here whose master then changes externally comes back whole: its overrides, left out of
    /// decoding because the source did not change them, are read when the restore needs them.
    func testARestoredSeriesReadsTheOverridesItLeftOut() throws {
        func file(_ title: String) -> [UInt8] {
            var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
            text += "BEGIN:VEVENT\r\nUID:s\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260302T090000Z\r\n"
            text += "RRULE:FREQ=WEEKLY;COUNT=5\r\nSUMMARY:\(title)\r\nEND:VEVENT\r\n"
            for week in ["09", "16"] {
                text += "BEGIN:VEVENT\r\nUID:s\r\nDTSTAMP:20260101T000000Z\r\nRECURRENCE-ID:202603\(week)T090000Z\r\n"
                text += "DTSTART:202603\(week)T110000Z\r\nSUMMARY:Moved \(week)\r\nEND:VEVENT\r\n"
            }
            text += "BEGIN:VEVENT\r\nUID:other\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260305T090000Z\r\n"
            return Array((text + "SUMMARY:Other\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").utf8)
        }
        let store = try CalendarStore.inMemory()
        _ = try CalendarMerger.merge(icsBytes: file("Weekly"), file: nil, into: "cal", source: "src", storage: store)
        XCTAssertEqual(try store.delete(uid: "s", calendar: "cal"), 3)
        let (result, read) = try CalendarMerger.merge(
            icsBytes: file("Weekly, new title"), file: nil, into: "cal", source: "src", storage: store)
        // Only the changed master was decoded; both overrides came back from the lines left out.
        XCTAssertEqual(read?.calendars.first?.components.count, 1)
        XCTAssertEqual(result.updated, 3)
        let events = try store.loadCalendars(named: "cal").flatMap(\.calendar.events)
        XCTAssertEqual(
            Set(events.map { $0.summary ?? "" }), ["Weekly, new title", "Moved 09", "Moved 16", "Other"])
        XCTAssertEqual(
            Set(result.actions.filter { $0.kind == .update }.map { $0.title ?? "" }),
            ["Weekly, new title", "Moved 09", "Moved 16"])
    }

    /// Google writes X-WR-TIMEZONE and single events in UTC, which a read moves into that zone: a second merge
    /// knows them by what they said as they stood, and leaves them out too, decided and labelled as a full read
    /// decides; a file naming another zone (or a tzdata with other rules) reads them again.
    func testEventsXWRTimeZoneMovesAreLeftOutWhenTheyStandAsBefore() throws {
        func file(zone: String, retitled: Int) -> [UInt8] {
            var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Google Inc//Google Calendar 70.9054//EN\r\n"
            text += "X-WR-TIMEZONE:\(zone)\r\n"
            for index in 0..<10 {
                text += "BEGIN:VEVENT\r\nUID:e\(index)@google.com\r\nDTSTAMP:20260101T000000Z\r\n"
                text += "DTSTART:202603\(10 + index)T090000Z\r\nDTEND:202603\(10 + index)T100000Z\r\n"
                text += "SUMMARY:Event \(index)\(index == retitled ? " (moved)" : "")\r\nEND:VEVENT\r\n"
            }
            return Array((text + "END:VCALENDAR\r\n").utf8)
        }
        let all = try CalendarStore.inMemory(), less = try CalendarStore.inMemory()
        for (step, bytes) in [
            file(zone: "Europe/Berlin", retitled: -1), file(zone: "Europe/Berlin", retitled: 3),
            file(zone: "America/New_York", retitled: 3),
        ].enumerated() {
            let wholly = try outcome {
                try CalendarMerger.merge(
                    ICS.read(bytes, file: nil).calendars, into: "cal", source: "src", storage: all)
            }
            let (result, read) = try CalendarMerger.merge(
                icsBytes: bytes, file: nil, into: "cal", source: "src", storage: less)
            XCTAssertEqual(try outcome { result }, wholly, "merge \(step + 1)")
            XCTAssertEqual(try state(of: less), try state(of: all), "merge \(step + 1)")
            let decoded = read?.calendars.first?.components.count
            switch step {
            case 0: XCTAssertEqual(decoded, 10)
            case 1:
                // Only the retitled event was read; the others kept their Berlin label.
                XCTAssertEqual(decoded, 1)
                XCTAssertEqual(result.count(.update), 1)
                XCTAssertEqual(result.actions.first?.start, "2026-03-10 10:00 Europe/Berlin")
            default:
                XCTAssertEqual(decoded, 10)
                XCTAssertEqual(result.count(.update), 10)
            }
        }
    }

    /// What a full read would change or key otherwise is never left out: no UID, an escaped UID, a RECURRENCE-ID
    /// spelled unusually, a time X-WR-TIMEZONE moves, a component cut short.
    func testOnlyItemsAFullReadKeepsAsTheyStandAreKeyedFromTheirLines() {
        func key(_ lines: String, wrTimeZone: Bool = false, complete: Bool = true) -> String? {
            let text =
                "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n\(lines)" + (complete ? "END:VEVENT\r\nEND:VCALENDAR\r\n" : "")
            let (_, unread) = ICS.read(Array(text.utf8), file: nil) { event, _ in
                event.keyAsRead(wrTimeZone: wrTimeZone).map {
                    $0.uid + "|" + $0.recurrenceID + ($0.moves ? " moves" : "")
                }
            }
            return unread.first?.note
        }
        XCTAssertEqual(key("UID:a\r\nDTSTART:20260101T090000Z\r\n"), "a|")
        XCTAssertEqual(key("UID:a\r\nRECURRENCE-ID;TZID=Europe/Berlin:20260101T090000\r\n"), "a|20260101T090000")
        XCTAssertEqual(key("UID:a\r\nRECURRENCE-ID;VALUE=DATE:20260101\r\n"), "a|20260101")
        XCTAssertNil(key("DTSTART:20260101T090000Z\r\n"))
        XCTAssertNil(key("UID:a\\,b\r\n"))
        XCTAssertNil(key("UID:a\r\nUID:b\r\n"))
        XCTAssertNil(key("UID:a\r\nRECURRENCE-ID:2026-01-01\r\n"))
        XCTAssertNil(key("UID:a\r\nDTSTART:20260101T090000Z\r\n", complete: false))
        // X-WR-TIMEZONE moves UTC and floating times (a Z wins over a TZID), not dates or zoned times; a moved
        // RECURRENCE-ID would change the key.
        XCTAssertEqual(key("UID:a\r\nDTSTART:20260101T090000Z\r\n", wrTimeZone: true), "a| moves")
        XCTAssertEqual(key("UID:a\r\nDTSTART:20260101T090000\r\n", wrTimeZone: true), "a| moves")
        XCTAssertEqual(
            key("UID:a\r\nDTSTART;TZID=Europe/Berlin:20260101T090000Z\r\n", wrTimeZone: true), "a| moves")
        XCTAssertEqual(
            key("UID:a\r\nDTSTART;VALUE=DATE:20260101\r\nEXDATE:20260108T090000Z\r\n", wrTimeZone: true),
            "a| moves")
        XCTAssertEqual(key("UID:a\r\nDTSTART;VALUE=DATE:20260101\r\n", wrTimeZone: true), "a|")
        XCTAssertEqual(key("UID:a\r\nDTSTART;TZID=Europe/Berlin:20260101T090000\r\n", wrTimeZone: true), "a|")
        XCTAssertEqual(key("UID:a\r\nDTSTART:20260101T090000Z\r\n", wrTimeZone: false), "a|")
        XCTAssertNil(key("UID:a\r\nRECURRENCE-ID:20260101T090000Z\r\n", wrTimeZone: true))
    }

    // MARK: Helpers

    /// The file with a third of its items retitled and a seventh of them gone (nil when it has no items).
    static func changed(_ bytes: [UInt8]) -> [UInt8]? {
        var calendars = ICS.read(bytes, file: nil).calendars
        var index = 0
        for c in calendars.indices {
            calendars[c].components = calendars[c].components.compactMap { component in
                guard component.isItem else { return component }
                defer { index += 1 }
                if index % 7 == 3 { return nil }
                guard index % 3 == 1, case .event(var event) = component else { return component }
                event.core.summary = (event.summary ?? "") + " (changed)"
                return .event(event)
            }
        }
        return index == 0 ? nil : ICS.write(calendars)
    }

    /// The UID of a series with overrides, if the file has one, else of any recurring item.
    static func seriesUID(in bytes: [UInt8]) -> String? {
        let items = ICS.read(bytes, file: nil).calendars.flatMap(\.components).compactMap(\.core)
        let overridden = Set(items.filter { $0.recurrenceID != nil }.map(\.uid))
        return items.first { $0.isRecurring && overridden.contains($0.uid) }?.uid
            ?? items.first(where: \.isRecurring)?.uid
    }

    func outcome(_ merge: () throws -> MergeResult) throws -> String { try mergeOutcome(merge) }

    func state(of store: CalendarStore) throws -> String {
        let snapshot = try store.mergeSnapshot(calendar: "cal", source: "src")
        let text = String(decoding: ICS.write(try store.loadCalendars(named: "cal").map(\.calendar)), as: UTF8.self)
        return "\(snapshot.items.sorted { $0.key < $1.key }.map { "\($0)" })\n"
            + "\(snapshot.base.sorted { $0.key < $1.key }.map { "\($0)" })\n"
            + "\(snapshot.readBase.sorted { $0.key < $1.key }.map { "\($0)" })\n"
            + "\(snapshot.tombstones.sorted())\n\(snapshot.digest ?? "")\n" + text
    }
}

/// A merge's decisions (labels included) or its refusal, as text: what two ways of merging must agree on.
func mergeOutcome(_ merge: () throws -> MergeResult) throws -> String {
    do {
        let result = try merge()
        return result.actions.map { "\($0)" }.joined(separator: "\n") + "\nwithheld \(result.withheldDeletions)"
    } catch let refusal as MergeRefusal {
        return "refused: \(refusal)"
    }
}
