import CalendarModel
import Foundation
import XCTest

/// Instances 2000–2030 against recurring-ical-events 3.8 (oracle.json) for every corpus file with recurring series.
final class RecurrenceOracleTests: XCTestCase {
    /// Files where ICSKit knowingly gives other instance starts than recurring-ical-events, and why.
    static let deviations: [String: String] = [
        "ical4j/google_aus_holidays.ics": "an all-day DATE series (DTSTART:20020101) whose overrides carry zoned "
            + "midnights: recurring-ical-events turns the series' own instances into midnights in the overrides' "
            + "zone; ICSKit keeps them all-day dates, as the master writes them"
    ]

    func testInstancesMatchTheOracle() throws {
        let all = try Oracle.load().files.filter { !$0.recurringUIDs.isEmpty }
        // Where python failed on the whole file, the oracle has no instances to compare with.
        let files = all.filter { $0.recurrenceMode != nil }
        XCTAssertEqual(
            Set(all.filter { $0.recurrenceMode == nil }.map(\.path)),
            ["libical/2446.ics", "libical/rfc2446.ics"], "files python could not expand at all")
        var mismatches: [String: String] = [:]
        for file in files {
            let (_, result) = try readCorpus(file.path)
            // With skip_bad_series python dropped the series it could not read: compare the series it kept.
            let uids =
                file.recurrenceMode == "skip_bad_series"
                ? Set(file.occurrences.map(\.uid))
                : Set(file.recurringUIDs)
            let ours = Self.instances(result.calendars, recurring: uids)
            let expected = file.occurrences.map { "\($0.start) \($0.uid)" }
            let compared = file.truncated ? Array(ours.prefix(expected.count)) : ours
            if compared != expected {
                let index =
                    zip(compared, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(compared.count, expected.count)
                mismatches[file.path] =
                    "\(compared.count) vs \(expected.count) instances; first difference at \(index): "
                    + "\(compared.dropFirst(index).first ?? "none") ≠ \(expected.dropFirst(index).first ?? "none")"
            }
        }
        let unexpected = mismatches.filter { Self.deviations[$0.key] == nil }
        XCTAssertEqual(unexpected, [:])
        for path in Self.deviations.keys { XCTAssertNotNil(mismatches[path], "\(path) matches now: drop it") }
        let rate = Double(files.count - mismatches.count) / Double(files.count)
        XCTAssertGreaterThanOrEqual(rate, 0.98, "\(files.count - mismatches.count) of \(files.count) files match")
        print("recurrence oracle: \(files.count - mismatches.count)/\(files.count) files give the same instance starts")
    }

    /// Instance starts formatted as the oracle does: UTC `…Z` for zoned times, as written for floating, dates bare.
    static func instances(_ calendars: [ICalendar], recurring: Set<String>) -> [String] {
        var options = ExpansionOptions()
        options.components = Set(ItemKind.allCases)
        let from = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01
        let to = Date(timeIntervalSince1970: 1_924_992_000)  // 2031-01-01
        var rows: [(key: Date, uid: String, name: String, text: String)] = []
        for calendar in calendars {
            for occurrence in calendar.occurrences(from: from, to: to, options: options).occurrences {
                guard let uid = occurrence.uid, recurring.contains(uid),
                    occurrence.startDate >= from, occurrence.startDate < to,
                    inOracleWindow(occurrence)
                else { continue }
                rows.append((occurrence.startDate, uid, occurrence.kind.componentName, format(occurrence)))
            }
        }
        rows.sort { ($0.key, $0.uid, $0.name, $0.text) < ($1.key, $1.uid, $1.name, $1.text) }
        return rows.prefix(500).map { "\($0.text) \($0.uid)" }
    }

    /// The oracle asks year by year with naive windows, which recurring-ical-events reads in the series' zone,
    /// and keeps an instance only in the window of its UTC start. So an instance must overlap its UTC year read
    /// as wall-clock time in its own zone: one in the first hours of a year east of UTC falls between windows.
    static func inOracleWindow(_ occurrence: Occurrence) -> Bool {
        guard !occurrence.start.isDate, occurrence.start.form != .floating else { return true }
        let startInstant = Int64(occurrence.startDate.timeIntervalSince1970)
        let offset = LocalDateTime(occurrence.start).wallSeconds - startInstant
        let year = LocalDateTime(wallSeconds: startInstant).year
        let windowStart = LocalDateTime(year: year, month: 1, day: 1).wallSeconds - offset
        let windowEnd = LocalDateTime(year: year + 1, month: 1, day: 1).wallSeconds - offset
        let endInstant = Int64(occurrence.endDate.timeIntervalSince1970)
        return endInstant > startInstant
            ? startInstant < windowEnd && endInstant > windowStart
            : startInstant >= windowStart && startInstant < windowEnd
    }

    static func format(_ occurrence: Occurrence) -> String {
        let start = occurrence.start
        func pad(_ n: Int, _ w: Int) -> String {
            String(repeating: "0", count: max(0, w - String(n).count)) + String(n)
        }
        if start.isDate { return "\(pad(start.year, 4))-\(pad(start.month, 2))-\(pad(start.day, 2))" }
        if start.form == .floating {
            return "\(pad(start.year, 4))-\(pad(start.month, 2))-\(pad(start.day, 2))T\(pad(start.hour, 2)):"
                + "\(pad(start.minute, 2)):\(pad(start.second, 2))"
        }
        let utc = Calendar(identifier: .gregorian).dateComponents(
            in: TimeZone(identifier: "UTC")!,
            from: occurrence.startDate)
        return "\(pad(utc.year!, 4))-\(pad(utc.month!, 2))-\(pad(utc.day!, 2))T\(pad(utc.hour!, 2)):"
            + "\(pad(utc.minute!, 2)):\(pad(utc.second!, 2))Z"
    }
}
