import CalendarMerge
import XCTest

/// The merge decision table, row by row: external (E), local (L), merge base (B), local deletion.
final class MergePlannerTests: XCTestCase {
    let key = MergeKey(uid: "u")

    func decide(
        external: String?, local: String?, base: String?, deleted: Bool = false,
        prefer: MergePreference = .newest, onConflict: ConflictHandling? = nil,
        externalSequence: Int = 0, localSequence: Int = 0
    ) -> MergeAction.Kind? {
        let state = MergeState(
            external: external.map { [key: ItemVersion(fingerprint: $0, sequence: externalSequence)] } ?? [:],
            local: local.map { [key: ItemVersion(fingerprint: $0, sequence: localSequence)] } ?? [:],
            base: base.map { [key: $0] } ?? [:], tombstones: deleted ? [key] : [])
        return MergePlanner.plan(state, prefer: prefer, onConflict: onConflict).first?.kind
    }

    func testTheDecisionTable() {
        // New external → add.
        XCTAssertEqual(decide(external: "e", local: nil, base: nil), .add)
        // External changed, local not → update.
        XCTAssertEqual(decide(external: "e2", local: "e1", base: "e1"), .update)
        // Local changed, external not → keep local.
        XCTAssertEqual(decide(external: "e1", local: "l", base: "e1"), .keepLocal)
        // The same on both sides → unchanged (also when both made the same change).
        XCTAssertEqual(decide(external: "x", local: "x", base: "e1"), .unchanged)
        XCTAssertEqual(decide(external: "x", local: "x", base: nil), .unchanged)
        // Gone externally and unchanged locally → delete.
        XCTAssertEqual(decide(external: nil, local: "e1", base: "e1"), .delete)
        // Changed locally but gone externally → keep (a change beats a delete).
        XCTAssertEqual(decide(external: nil, local: "l", base: "e1"), .keepLocal)
        // Only in the store, never from this source → keep.
        XCTAssertEqual(decide(external: nil, local: "l", base: nil), .keepLocal)
        // Deleted locally and unchanged externally → stays deleted; changed externally since → back (update).
        XCTAssertEqual(decide(external: "e1", local: nil, base: "e1", deleted: true), .stayDeleted)
        XCTAssertEqual(decide(external: "e2", local: nil, base: "e1", deleted: true), .update)
        XCTAssertEqual(decide(external: "e1", local: nil, base: nil, deleted: true), .stayDeleted)
        // Gone on both sides → nothing to do but forget the base.
        XCTAssertEqual(decide(external: nil, local: nil, base: "e1"), .unchanged)
        XCTAssertNil(decide(external: nil, local: nil, base: nil))
    }

    /// A series (one UID: its master and its overrides) is one unit when a deletion meets a change, as vdirsyncer
    /// treats one item: a series deleted here whose master changed externally comes back with its overrides, and a
    /// series deleted externally whose master changed here keeps its overrides.
    func testASeriesIsOneUnitWhenADeletionMeetsAChange() {
        let master = MergeKey(uid: "s"), moved = MergeKey(uid: "s", recurrenceID: "20260107T090000Z")
        let other = MergeKey(uid: "t", recurrenceID: "20260107T090000Z")
        func version(_ fingerprint: String) -> ItemVersion { ItemVersion(fingerprint: fingerprint) }
        // Deleted here (the master and its moved instance); externally only the master changed.
        let revived = MergePlanner.plan(
            MergeState(
                external: [master: version("m2"), moved: version("o1"), other: version("x1")], local: [:],
                base: [master: "m1", moved: "o1", other: "x1"], tombstones: [master, moved, other]))
        XCTAssertEqual(revived.first { $0.key == master }?.kind, .update)
        XCTAssertEqual(revived.first { $0.key == moved }?.kind, .update, "the override comes back with its series")
        XCTAssertEqual(revived.first { $0.key == other }?.kind, .stayDeleted, "another UID is not affected")
        // Deleted externally; here only the master changed.
        let kept = MergePlanner.plan(
            MergeState(
                external: [:], local: [master: version("m2"), moved: version("o1"), other: version("x1")],
                base: [master: "m1", moved: "o1", other: "x1"]))
        XCTAssertEqual(kept.first { $0.key == master }?.kind, .keepLocal)
        XCTAssertEqual(kept.first { $0.key == moved }?.kind, .keepLocal, "the override stays with its series")
        XCTAssertEqual(kept.first { $0.key == other }?.kind, .delete)
    }

    func testConflictsFollowThePolicy() {
        // Both changed: newest by SEQUENCE.
        XCTAssertEqual(decide(external: "e2", local: "l", base: "e1", externalSequence: 3, localSequence: 2), .update)
        XCTAssertEqual(
            decide(external: "e2", local: "l", base: "e1", externalSequence: 2, localSequence: 3), .keepLocal)
        XCTAssertEqual(decide(external: "e2", local: "l", base: "e1"), .keepLocal, "a tie keeps the local version")
        XCTAssertEqual(decide(external: "e2", local: "l", base: "e1", prefer: .external), .update)
        XCTAssertEqual(decide(external: "e2", local: "l", base: "e1", prefer: .local), .keepLocal)
        XCTAssertEqual(decide(external: "e2", local: "l", base: "e1", onConflict: .fail), .conflict)
        XCTAssertEqual(decide(external: "e2", local: "l", base: "e1", onConflict: .keepBoth), .keepBoth)
        // Different on both sides with no base yet is a conflict too.
        XCTAssertEqual(decide(external: "e", local: "l", base: nil, onConflict: .fail), .conflict)
    }

    func testNewestUsesLastModifiedThenStamp() {
        let older = ItemVersion(fingerprint: "l", sequence: 1, lastModified: 100, stamp: 500)
        let newer = ItemVersion(fingerprint: "e", sequence: 1, lastModified: 200, stamp: 10)
        let state = MergeState(external: [key: newer], local: [key: older], base: [key: "b"])
        XCTAssertEqual(MergePlanner.plan(state).first?.kind, .update)
        let byStamp = MergeState(
            external: [key: ItemVersion(fingerprint: "e", stamp: 20)],
            local: [key: ItemVersion(fingerprint: "l", stamp: 10)], base: [key: "b"])
        XCTAssertEqual(MergePlanner.plan(byStamp).first?.kind, .update)
        XCTAssertTrue(MergePlanner.plan(byStamp).first?.wasConflict ?? false)
    }

    /// Every combination of the three sides gets exactly one, sensible, decision.
    func testEveryCombinationIsDecided() {
        let values: [String?] = [nil, "a", "b", "c"]
        for external in values {
            for local in values {
                for base in values {
                    for deleted in [false, true] where !(deleted && local != nil) {
                        let kind = decide(external: external, local: local, base: base, deleted: deleted)
                        if external == nil, local == nil, base == nil { XCTAssertNil(kind); continue }
                        XCTAssertNotNil(kind, "E=\(external ?? "-") L=\(local ?? "-") B=\(base ?? "-")")
                        if external == nil { XCTAssertNotEqual(kind, .add) }
                        if local == nil { XCTAssertNotEqual(kind, .delete) }
                        if external != nil, external == local { XCTAssertEqual(kind, .unchanged) }
                    }
                }
            }
        }
    }
}
