import CalendarModel
import Foundation
import XCTest

/// `--repair` writes what strict readers accept where the meaning is recoverable: over the whole corpus, a repaired
/// calendar (time zones normalized, as `convert --repair` writes it) has the instances of the calendar as ICSKit
/// reads it, each with its start and end, but for the repairs that change them on purpose, named here with why.
final class RepairMeaningTests: XCTestCase {
    static let changedOnPurpose: [String: String] = [
        "ical-net/ProdID1.ics":
            "a DTEND equal to its date DTSTART becomes the day after (an all-day event of no length)",
        "node-ical/tv-show-episode.ics": RepairMeaningTests.sharedUID,
        "ha-ical/todo-invalid-dtstart-tzid.ics": RepairMeaningTests.sharedUID,
    ]
    /// A repair that adds instances and keeps every other one.
    static let sharedUID =
        "two items of one UID and one version are both kept, the second under a UID of its own (read as it is, one "
        + "UID is one item): the repaired file has its instances too"

    func testRepairKeepsEveryInstance() throws {
        let iso = ISO8601DateFormatter()
        let window = (iso.date(from: "2000-01-01T00:00:00Z")!, iso.date(from: "2031-01-01T00:00:00Z")!)
        var options = ExpansionOptions()
        options.components = Set(ItemKind.allCases)
        func instants(_ calendar: ICalendar) -> [String] {
            calendar.occurrences(from: window.0, to: window.1, options: options).occurrences.map {
                "\(iso.string(from: $0.startDate)) \(iso.string(from: $0.endDate))"
            }.sorted()
        }
        var changed: [String: String] = [:]
        var compared = 0
        for file in try Oracle.load().files {
            let (_, read) = try readCorpus(file.path)
            for calendar in read.calendars {
                let repaired = calendar.repairedForPeers(file: file.path).calendar.normalizingTimeZones().calendar
                let (before, after) = (instants(calendar), instants(repaired))
                compared += before.count
                guard before != after else { continue }
                if Self.changedOnPurpose[file.path] == Self.sharedUID {
                    var more = after
                    for instance in before {
                        guard let index = more.firstIndex(of: instance) else {
                            XCTFail("\(file.path): \(instance) is gone: \(before) became \(after)")
                            break
                        }
                        more.remove(at: index)
                    }
                }
                let first = zip(before, after).first { $0.0 != $0.1 }
                changed[file.path] =
                    "\(before.count) instances, \(after.count) repaired; first difference: "
                    + (first.map { "\($0.0) became \($0.1)" } ?? "an instance more or less")
            }
        }
        XCTAssertEqual(Set(changed.keys), Set(Self.changedOnPurpose.keys), "\(changed)")
        XCTAssertGreaterThan(compared, 10_000, "the corpus's instances were compared")
    }
}
