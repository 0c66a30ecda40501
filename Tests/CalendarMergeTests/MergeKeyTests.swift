import ICSKitTestSupport
import XCTest

@testable import CalendarMerge

/// MergeKey's own equality, hash and order, which the planner's dictionaries and sort rely on.
final class MergeKeyTests: XCTestCase {
    /// Random keys, many sharing long prefixes (as `evt-000123@host` UIDs do), some non-ASCII, some overrides.
    func randomKeys(_ count: Int, _ generator: inout SeededGenerator) -> [MergeKey] {
        let pieces = ["evt-", "evt-0001", "Évé", "ü", "a", "", "0", "z", "🎉", "040000008200E00074C5B7101A82E008"]
        return (0..<count).map { _ in
            let uid = (0..<Int.random(in: 1...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)!
            }
            .joined()
            let recurrenceID =
                Bool.random(using: &generator) ? "" : "2026110\(Int.random(in: 1...3, using: &generator))"
            return MergeKey(uid: uid, recurrenceID: recurrenceID)
        }
    }

    func testSortingAgreesWithTheBytesOfUIDThenRecurrenceID() {
        let seed = SeededGenerator.seed(from: "ICSKIT_MERGEKEY_SEED")
        print("MergeKeyTests seed \(seed) (ICSKIT_MERGEKEY_SEED replays it)")
        var generator = SeededGenerator(seed: seed)
        let keys = randomKeys(3000, &generator)
        let expected = keys.sorted {
            let (a, b) = (Array($0.uid.utf8), Array($1.uid.utf8))
            if a != b { return a.lexicographicallyPrecedes(b) }
            return Array($0.recurrenceID.utf8).lexicographicallyPrecedes(Array($1.recurrenceID.utf8))
        }
        XCTAssertEqual(MergeKey.sorted(keys), expected, "seed \(seed)")
        XCTAssertEqual(keys.sorted(), expected, "seed \(seed)")
    }

    func testEqualKeysHashEquallyAndTheDigestFollowsEdits() {
        var key = MergeKey(uid: "a", recurrenceID: "20261101")
        XCTAssertNotEqual(key, MergeKey(uid: "a"))
        key.recurrenceID = ""
        XCTAssertEqual(key, MergeKey(uid: "a"))
        XCTAssertEqual(Set([key, MergeKey(uid: "a")]).count, 1)
        key.uid = "b"
        XCTAssertEqual([MergeKey(uid: "b"): 1][key], 1)
        // A UID and a recurrence ID are not run together: ("ab", "") and ("a", "b") are different keys.
        XCTAssertNotEqual(MergeKey(uid: "ab"), MergeKey(uid: "a", recurrenceID: "b"))
        // Keys are their bytes: a composed and a decomposed é are two UIDs, as the store keeps them.
        XCTAssertNotEqual(MergeKey(uid: "caf\u{E9}"), MergeKey(uid: "cafe\u{301}"))
    }
}
