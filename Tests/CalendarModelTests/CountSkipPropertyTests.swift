import Foundation
import ICSKitTestSupport
import XCTest

@testable import CalendarModel

/// A rule with COUNT skips to a window by counting the instances of the periods it passes (issue 62: a week of a
/// long COUNT series cost as much as its year, walked from DTSTART). Over generated rules — uniform ones that skip
/// and every other shape that must not — the instances at or after a target are the same whether the walk skipped
/// there or went through every instance from DTSTART, COUNT's last instance included.
final class CountSkipPropertyTests: XCTestCase {
    static func rule(_ random: inout SeededGenerator) -> String {
        let frequencies = ["YEARLY", "MONTHLY", "WEEKLY", "WEEKLY", "DAILY", "HOURLY", "MINUTELY"]
        var parts = ["FREQ=" + frequencies.randomElement(using: &random)!]
        if Bool.random(using: &random) { parts.append("INTERVAL=\(Int.random(in: 1...4, using: &random))") }
        parts.append("COUNT=\(Int.random(in: 1...1_000, using: &random))")
        func some<T>(_ pool: [T], _ most: Int) -> [T] {
            Array(pool.shuffled(using: &random).prefix(Int.random(in: 1...most, using: &random)))
        }
        let weekdays = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        if Int.random(in: 0..<3, using: &random) == 0 {
            let ordinals = ["", "", "", "1", "-1", "2", "4", "-4", "5", "-3"]
            let days = some(weekdays, 4).map { ordinals.randomElement(using: &random)! + $0 }
            parts.append("BYDAY=" + days.joined(separator: ","))
        }
        if Int.random(in: 0..<3, using: &random) == 0 {
            let pool = [1, 2, 15, 28, 28, 29, 30, 31, -1, -2, -28, -31]
            parts.append("BYMONTHDAY=" + some(pool, 3).map(String.init).joined(separator: ","))
        }
        if Int.random(in: 0..<5, using: &random) == 0 {
            parts.append("BYMONTH=" + some(Array(1...12), 3).map(String.init).joined(separator: ","))
        }
        if Int.random(in: 0..<4, using: &random) == 0 {
            parts.append("BYHOUR=" + some([0, 9, 9, 13, 23], 3).map(String.init).joined(separator: ","))
        }
        if Int.random(in: 0..<6, using: &random) == 0 {
            parts.append("BYMINUTE=" + some([0, 15, 30, 45], 2).map(String.init).joined(separator: ","))
        }
        if Int.random(in: 0..<8, using: &random) == 0 {
            parts.append("BYSETPOS=" + ["1", "-1", "2"].randomElement(using: &random)!)
        }
        if Int.random(in: 0..<6, using: &random) == 0 {
            parts.append("WKST=" + weekdays.randomElement(using: &random)!)
        }
        return parts.joined(separator: ";")
    }

    /// Every instance of a fresh engine, up to `limit`.
    static func all(_ rule: RecurrenceRule, _ start: LocalDateTime, isDate: Bool, limit: Int) -> [LocalDateTime] {
        guard var engine = RecurrenceEngine(rule, start: start, isDate: isDate) else { return [] }
        var instances: [LocalDateTime] = []
        while instances.count < limit, let next = engine.next() { instances.append(next) }
        return instances
    }

    func testSkippingACountedRuleGivesTheInstancesOfAFullWalk() throws {
        let seed = SeededGenerator.seed(from: "ICSKIT_COUNT_SKIP_SEED")
        print("CountSkipPropertyTests seed \(seed) (ICSKIT_COUNT_SKIP_SEED replays it)")
        var random = SeededGenerator(seed: seed)
        var skippedUniform = 0
        for _ in 0..<300 {
            let text = Self.rule(&random)
            guard case .success(let rule) = RecurrenceRule.parse(text) else { continue }
            let isDate = Int.random(in: 0..<5, using: &random) == 0
            let start = LocalDateTime(
                year: Int.random(in: 2000...2030, using: &random), month: Int.random(in: 1...12, using: &random),
                day: Int.random(in: 1...31, using: &random) > 28 ? 28 : Int.random(in: 1...28, using: &random),
                hour: isDate ? 0 : Int.random(in: 0...23, using: &random),
                minute: isDate ? 0 : [0, 15, 30].randomElement(using: &random)!, second: 0)
            let full = Self.all(rule, start, isDate: isDate, limit: 5_000)
            guard full.count >= 2 else { continue }
            // A target at an instance, or just after one, anywhere in the series.
            let pick = full[Int.random(in: 1..<full.count, using: &random)]
            let target = Bool.random(using: &random) ? pick : pick.adding(seconds: 1)
            guard var engine = RecurrenceEngine(rule, start: start, isDate: isDate) else { continue }
            let skipped = engine.skip(to: target)
            var walked: [LocalDateTime] = []
            var before = 0
            while walked.count < 5_000, let next = engine.next() {
                if next >= target { walked.append(next) } else { before += 1 }
            }
            let expected = full.filter { $0 >= target }
            XCTAssertEqual(walked, expected, "\(text) from \(start) (date: \(isDate)) skipping to \(target)")
            if skipped, before < full.count - expected.count - 1, full.count - expected.count > 100 {
                skippedUniform += 1
            }
        }
        XCTAssertGreaterThan(skippedUniform, 15, "counted rules do skip")
    }

    /// The shapes whose periods hold the same number of instances skip; the others walk.
    func testWhichCountedRulesSkip() throws {
        let start = LocalDateTime(year: 2026, month: 1, day: 5, hour: 9)
        let target = LocalDateTime(year: 2030, month: 6, day: 1)
        for (text, skips) in [
            ("FREQ=WEEKLY;BYDAY=MO,WE;COUNT=2000", true), ("FREQ=DAILY;BYHOUR=9,17;COUNT=5000", true),
            ("FREQ=MONTHLY;BYMONTHDAY=1,15;COUNT=200", true), ("FREQ=YEARLY;COUNT=50", true),
            ("FREQ=HOURLY;INTERVAL=5;COUNT=99999", true), ("FREQ=MONTHLY;BYMONTHDAY=31;COUNT=200", false),
            ("FREQ=MONTHLY;BYDAY=1MO,-1FR;COUNT=200", true), ("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH;COUNT=80", true),
            ("FREQ=MONTHLY;BYDAY=MO;COUNT=200", false), ("FREQ=MONTHLY;BYDAY=1MO,-4MO;COUNT=200", false),
            ("FREQ=MONTHLY;BYDAY=5MO;COUNT=200", false), ("FREQ=YEARLY;BYDAY=20MO;COUNT=20", false),
            ("FREQ=WEEKLY;BYDAY=MO;BYMONTH=1;COUNT=200", false),
            ("FREQ=WEEKLY;BYDAY=MO,TU;BYSETPOS=1;COUNT=200", false), ("FREQ=DAILY;BYDAY=MO;COUNT=900", false),
            ("FREQ=MONTHLY;BYMONTHDAY=28,-1;COUNT=200", false),
        ] {
            var engine = try XCTUnwrap(
                RecurrenceEngine(try RecurrenceRule.parse(text).get(), start: start, isDate: false))
            XCTAssertEqual(engine.skip(to: target), skips, text)
        }
    }
}
