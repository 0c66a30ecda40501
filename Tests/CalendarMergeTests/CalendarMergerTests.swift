import CalendarMerge
import CalendarModel
import XCTest

/// A storage that keeps one calendar in dictionaries: the merger's contract (plan from the snapshot it is given,
/// write all or nothing, guards before writing) tested without SQLite.
final class DictionaryStorage: MergeStorage {
    var items: [MergeKey: ItemVersion] = [:]
    var base: [MergeKey: String] = [:]
    var tombstones: Set<MergeKey> = []
    var digest: String?
    var writes = 0
    /// Runs inside `updateAtomically`, before the snapshot is taken: another process's edit landing then.
    var beforeSnapshot: ((DictionaryStorage) -> Void)?

    func mergeSnapshot(calendar: String, source: String) throws -> MergeSnapshot {
        MergeSnapshot(items: items, base: base, tombstones: tombstones, digest: digest)
    }

    /// Keeps no content: items both sides changed are decided whole.
    func mergeContents(calendar: String, source: String, keys: Set<MergeKey>) throws -> MergeContents {
        MergeContents()
    }

    func updateAtomically<Outcome>(
        calendar: String, source: String,
        _ decide: (MergeSnapshot, MergeContentReader) throws -> (write: MergeWrite?, outcome: Outcome)
    ) throws -> Outcome {
        beforeSnapshot?(self)
        let (write, outcome) = try decide(try mergeSnapshot(calendar: calendar, source: source)) { _ in
            MergeContents()
        }
        guard let write else { return outcome }
        writes += 1
        for item in write.upserts { items[item.key] = item.version }
        for key in write.deletions { items[key] = nil }
        for (key, entry) in write.baseChanges { base[key] = entry?.fingerprint }
        digest = write.digest
        return outcome
    }
}

final class CalendarMergerTests: XCTestCase {
    func calendar(_ events: [(uid: String, summary: String)], complete: Bool = true) -> [ICalendar] {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
        for event in events {
            text +=
                "BEGIN:VEVENT\r\nUID:\(event.uid)\r\nDTSTAMP:20260101T000000Z\r\n"
                + "DTSTART:20260310T090000Z\r\nSUMMARY:\(event.summary)\r\nEND:VEVENT\r\n"
        }
        if complete { text += "END:VCALENDAR\r\n" }
        return ICS.read(Array(text.utf8)).calendars
    }

    func merge(
        _ calendars: [ICalendar], into storage: DictionaryStorage, truncated: Bool = false,
        force: Bool = false
    ) throws -> MergeResult {
        var options = MergeOptions()
        options.isTruncated = truncated
        options.forceDelete = force
        return try CalendarMerger.merge(calendars, into: "cal", source: "feed", storage: storage, options: options)
    }

    func testAddsThenChangesNothingThenUpdates() throws {
        let storage = DictionaryStorage()
        let first = try merge(calendar([("a", "A"), ("b", "B")]), into: storage)
        XCTAssertEqual(first.added, 2)
        XCTAssertEqual(Set(storage.items.keys), [MergeKey(uid: "a"), MergeKey(uid: "b")])
        XCTAssertEqual(storage.base.count, 2)
        let again = try merge(calendar([("a", "A"), ("b", "B")]), into: storage)
        XCTAssertFalse(again.applied)
        XCTAssertEqual(storage.writes, 1, "an unchanged file writes nothing")
        let changed = try merge(calendar([("a", "A2"), ("b", "B")]), into: storage)
        XCTAssertEqual(changed.updated, 1)
        XCTAssertEqual(storage.items[MergeKey(uid: "a")]?.fingerprint, storage.base[MergeKey(uid: "a")])
    }

    func testGuardsRefuseBeforeAnythingIsWritten() throws {
        let storage = DictionaryStorage()
        let many = (0..<40).map { (uid: "u\($0)", summary: "S\($0)") }
        _ = try merge(calendar(many), into: storage)
        let before = storage.items
        // An empty file, and one that drops 30 of 40: refused, nothing written.
        XCTAssertThrowsError(try merge(calendar([]), into: storage)) { XCTAssertTrue($0 is MergeRefusal) }
        XCTAssertThrowsError(try merge(calendar(Array(many.prefix(10))), into: storage)) {
            XCTAssertTrue("\($0)".contains("would delete 30 of the 40 items"), "\($0)")
        }
        XCTAssertEqual(storage.items, before)
        XCTAssertEqual(storage.writes, 1)
        // Forced, the deletions happen.
        let forced = try merge(calendar(Array(many.prefix(10))), into: storage, force: true)
        XCTAssertEqual(forced.deleted, 30)
        XCTAssertEqual(storage.items.count, 10)
    }

    func testATruncatedFileDeletesNothingAndKeepsTheBaseOfWhatItLacks() throws {
        let storage = DictionaryStorage()
        _ = try merge(calendar([("a", "A"), ("b", "B"), ("c", "C")]), into: storage)
        let baseOfC = storage.base[MergeKey(uid: "c")]
        storage.items[MergeKey(uid: "c")] = ItemVersion(fingerprint: "changed here")
        let cut = calendar([("a", "A2")], complete: false)
        let result = try merge(cut, into: storage, truncated: true)
        XCTAssertEqual(result.deleted, 0)
        XCTAssertEqual(result.withheldDeletions, 1, "b: unchanged here, its deletion withheld")
        XCTAssertEqual(result.updated, 1)
        XCTAssertEqual(storage.items.count, 3)
        // b and c keep their base (the file may have lost them in its cut), c although it was changed here: else
        // deleting c here later would look like deleting an item the source never had.
        XCTAssertEqual(storage.base.count, 3)
        XCTAssertEqual(storage.base[MergeKey(uid: "c")], baseOfC)
        XCTAssertNil(storage.digest, "a cut file's digest does not stand for the base")
    }

    func testTheMergePlansFromWhatTheStorageHoldsWhenItWrites() throws {
        let storage = DictionaryStorage()
        _ = try merge(calendar([("a", "A"), ("b", "B")]), into: storage)
        // A local edit of b lands after the file was read but before the merge's transaction: the merge sees it
        // and keeps it, instead of planning from an older snapshot and overwriting it.
        storage.beforeSnapshot = { $0.items[MergeKey(uid: "b")] = ItemVersion(fingerprint: "edited here") }
        let result = try merge(calendar([("a", "A2"), ("c", "C")]), into: storage)
        XCTAssertEqual(storage.items[MergeKey(uid: "b")]?.fingerprint, "edited here")
        XCTAssertEqual(result.deleted, 0, "b changed here, so its absence from the file does not delete it")
        XCTAssertEqual(result.added, 1)
    }
}
