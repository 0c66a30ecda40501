import CalendarMerge
import CalendarModel
import CalendarStore
import ICSKitTestSupport
import XCTest

/// The store's own behaviour on an in-memory database: import, local edits, tombstones, reading back.
final class CalendarStoreTests: XCTestCase {
    func read(_ body: String) -> ICS.ReadResult {
        ICS.read(Array(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + body + "END:VCALENDAR\r\n").utf8))
    }

    func todo(_ uid: String, _ summary: String) -> String {
        "BEGIN:VTODO\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:\(summary)\r\nDUE:20260310T170000Z\r\n"
            + "END:VTODO\r\n"
    }

    func testImportTwiceAddsOnceAndUIDlessItemsGetTheSameDerivedUID() throws {
        let store = try CalendarStore.inMemory()
        let file = read(
            todo("t1", "Water the plants") + "BEGIN:VEVENT\r\nDTSTAMP:20260101T000000Z\r\n"
                + "DTSTART:20260310T090000Z\r\nSUMMARY:No UID\r\nEND:VEVENT\r\n")
        let first = try store.importCalendars(file.calendars, into: "Home", file: "home.ics")
        XCTAssertEqual(first.added, 2)
        let second = try store.importCalendars(file.calendars, into: "Home", file: "home.ics")
        XCTAssertEqual([second.added, second.updated, second.unchanged], [0, 0, 2])
        let loaded = try store.loadCalendars(named: "Home")
        XCTAssertEqual(loaded.count, 1)
        let uids = loaded[0].calendar.components.compactMap { $0.core?.uid }.sorted()
        XCTAssertEqual(uids.count, 2)
        XCTAssertTrue(uids.contains("t1"))
        XCTAssertTrue(uids.contains { $0.hasSuffix("@derived") })
        XCTAssertEqual(try store.calendars().map(\.name), ["Home"])
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
    }

    func testAnImportKeepsEveryCategoryOfEveryItemOnce() throws {
        // Twenty items with up to 57 categories each (an import writes them many to a statement, the statements
        // ending inside an item's list), each but the first naming "c0" again beside "C0" (one category: names
        // compare without case).
        let store = try CalendarStore.inMemory()
        let items = (0..<20).map { index in
            let names = (0..<(index * 3)).map { "C\($0)" } + (index > 0 ? ["c0"] : [])
            return "BEGIN:VTODO\r\nUID:t\(index)\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:T\r\n"
                + (names.isEmpty ? "" : "CATEGORIES:" + names.joined(separator: ",") + "\r\n") + "END:VTODO\r\n"
        }
        XCTAssertEqual(try store.importCalendars(read(items.joined()).calendars, into: "Home", file: nil).added, 20)
        let counts = Dictionary(uniqueKeysWithValues: try store.categories().map { ($0.category.name, $0.items) })
        // Item i names C0 … C(3i-1): Cj is named by the items above j/3.
        XCTAssertEqual(counts.count, 57)
        for j in 0..<57 { XCTAssertEqual(counts["C\(j)"], 19 - j / 3, "C\(j)") }
    }

    func testHandlesOfSomeUIDsAreTheHandlesTheWholeStoreGivesThem() throws {
        let store = try CalendarStore.inMemory()
        // UIDs that share long prefixes (as Google's and Outlook's do), and short ones.
        let seed = SeededGenerator.seed(from: "ICSKIT_SEED")
        var generator = SeededGenerator(seed: seed)
        let alphabet = Array("0123456789abcdef")
        var uids = Set(["a", "ab", "abc1234567@x", "abc1234568@x", "abc12@x"])
        while uids.count < 300 {
            let length = Int.random(in: 3...14, using: &generator)
            uids.insert("abc" + String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        _ = try store.importCalendars(
            read(uids.sorted().map { todo($0, "T") }.joined()).calendars, into: "Home", file: nil)
        let all = try store.shortHandles()
        XCTAssertEqual(all.count, uids.count)
        for _ in 0..<20 {
            let some = Set(uids.shuffled(using: &generator).prefix(Int.random(in: 1...40, using: &generator)))
            let handles = try store.shortHandles(for: some)
            XCTAssertEqual(handles, all.filter { some.contains($0.key) }, "seed \(seed)")
        }
        XCTAssertEqual(Set(all.values).count, all.count, "handles are unique")
    }

    func testCompleteChangesOnlyTheTodoAndMovesItsSequenceOn() throws {
        let store = try CalendarStore.inMemory()
        _ = try store.importCalendars(read(todo("t1", "One") + todo("t2", "Two")).calendars, into: "Home", file: nil)
        let done = Date(timeIntervalSince1970: 1_767_225_600)
        XCTAssertEqual(try store.complete(uid: "t1", at: done), 1)
        XCTAssertEqual(try store.complete(uid: "missing"), 0)
        guard case .todo(let todo)? = try store.item(uid: "t1")?.component else { return XCTFail("t1 is gone") }
        XCTAssertEqual(todo.status, .completed)
        XCTAssertEqual(todo.percentComplete, 100)
        XCTAssertEqual(todo.sequence, 1)
        XCTAssertEqual(todo.summary, "One")
        guard case .todo(let other)? = try store.item(uid: "t2")?.component else { return XCTFail("t2 is gone") }
        XCTAssertNil(other.status)
    }

    func testADeletionLeavesATombstoneThatAMergeRespects() throws {
        let store = try CalendarStore.inMemory()
        let file = read(todo("t1", "One") + todo("t2", "Two")).calendars
        _ = try CalendarMerger.merge(file, into: "Home", source: "feed", storage: store)
        XCTAssertEqual(try store.delete(uid: "t1"), 1)
        let snapshot = try store.mergeSnapshot(calendar: "Home", source: "feed")
        XCTAssertEqual(snapshot.tombstones, [MergeKey(uid: "t1")])
        XCTAssertEqual(Set(snapshot.items.keys), [MergeKey(uid: "t2")])
        // The same file again: t1 stays deleted.
        let again = try CalendarMerger.merge(file, into: "Home", source: "feed", storage: store)
        XCTAssertEqual(again.count(.stayDeleted), 1)
        XCTAssertNil(try store.item(uid: "t1"))
    }

    /// Importing an item the calendar deleted (`rm`) keeps it deleted while the file says what it said when it was
    /// deleted, as a merge does; a version changed since brings it back with its categories and lifts its
    /// tombstone (an edit beats a deletion). A deleted item of another calendar keeps its tombstone.
    func testImportingADeletedItemAgainKeepsItDeletedUntilItChanges() throws {
        let store = try CalendarStore.inMemory()
        func todo(_ summary: String) -> [ICalendar] {
            read(
                "BEGIN:VTODO\r\nUID:t1\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:\(summary)\r\nCATEGORIES:Garden,Home\r\n"
                    + "END:VTODO\r\n"
            ).calendars
        }
        _ = try store.importCalendars(todo("One"), into: "Home", file: nil)
        _ = try store.importCalendars(todo("One"), into: "Work", file: nil)
        XCTAssertEqual(try store.delete(uid: "t1"), 2)
        XCTAssertEqual(try store.mergeSnapshot(calendar: "Home", source: "feed").tombstones, [MergeKey(uid: "t1")])
        let same = try store.importCalendars(todo("One"), into: "Home", file: nil)
        XCTAssertEqual(same.added, 0)
        XCTAssertTrue(same.diagnostics.contains { $0.message.contains("not imported") }, "\(same.diagnostics)")
        XCTAssertNil(try store.item(uid: "t1"))
        let back = try store.importCalendars(todo("One, changed"), into: "Home", file: nil)
        XCTAssertEqual(back.updated + back.added, 1)
        XCTAssertEqual(try store.mergeSnapshot(calendar: "Home", source: "feed").tombstones, [])
        XCTAssertEqual(try store.mergeSnapshot(calendar: "Work", source: "feed").tombstones, [MergeKey(uid: "t1")])
        XCTAssertEqual(
            try store.categories().filter { $0.items == 1 }.map(\.category.name).sorted(), ["Garden", "Home"])
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
    }

    /// A merge's transaction takes the snapshot read before it only when nothing changed since: a change by
    /// another process (another connection to the file) or by this one is seen.
    func testAMergeTransactionSeesWhatChangedSinceTheSnapshotBefore() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("icskit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite").path
        let store = try CalendarStore(path: path), other = try CalendarStore(path: path)
        let file = read(todo("t1", "One") + todo("t2", "Two") + todo("t3", "Three")).calendars
        _ = try CalendarMerger.merge(file, into: "Home", source: "feed", storage: store)
        func transactionSnapshot(after edit: () throws -> Void) throws -> MergeSnapshot {
            let before = try store.mergeSnapshot(calendar: "Home", source: "feed")
            try edit()
            let during = try store.updateAtomically(calendar: "Home", source: "feed") { snapshot, _ in (nil, snapshot) }
            XCTAssertEqual(during.base, before.base)
            return during
        }
        XCTAssertEqual(try transactionSnapshot {}.items.count, 3)
        XCTAssertEqual(try transactionSnapshot { XCTAssertEqual(try other.delete(uid: "t2"), 1) }.items.count, 2)
        XCTAssertEqual(try transactionSnapshot { XCTAssertEqual(try store.delete(uid: "t3"), 1) }.items.count, 1)
        XCTAssertEqual(try transactionSnapshot {}.tombstones.count, 2)
    }

    func testCategoryColoursAndLocalAddsAreOneTransaction() throws {
        let store = try CalendarStore.inMemory()
        let item = try XCTUnwrap(read(todo("t1", "One")).calendars.first?.components.first)
        try store.add(item, to: "Home", categoryColors: [("Garden", "#00AA00")])
        XCTAssertEqual(try store.categoryColors()["Garden"], "#00AA00")
        XCTAssertEqual(try store.item(uid: "t1")?.calendar, "Home")
        // An item without a UID is refused, and the colour given with it is not set either.
        let noUID = try XCTUnwrap(
            read("BEGIN:VTODO\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:x\r\nEND:VTODO\r\n").calendars.first?.components
                .first)
        XCTAssertThrowsError(try store.add(noUID, to: "Home", categoryColors: [("Kitchen", "#AA0000")]))
        XCTAssertNil(try store.categoryColors()["Kitchen"])
    }

    func testABaseEntrysContentIsTheItemsWhileTheyAgreeAndIsKeptAsideWhenTheItemChanges() throws {
        let store = try CalendarStore.inMemory()
        _ = try store.importCalendars(read(todo("t1", "One") + todo("t2", "Two")).calendars, into: "Home", file: nil)
        let written = try store.mergeSnapshot(calendar: "Home", source: "vdir:/x").items
        let key1 = MergeKey(uid: "t1", recurrenceID: ""), key2 = MergeKey(uid: "t2", recurrenceID: "")
        // t2 changed here after its write: its base keeps the written fingerprint, but no content.
        guard case .todo(var changed)? = try store.item(uid: "t2")?.component else { return XCTFail("t2 is gone") }
        changed.summary = "Two, changed here"
        try store.add(.todo(changed), to: "Home")
        try store.recordSyncRecords(
            calendar: "Home", partner: "vdir:/x",
            resources: [
                (href: "t1.ics", etag: "1", uids: ["t1"]),
                (href: "t2.ics", etag: "1", uids: ["t2"]),
            ], forgetting: [], base: [key1: written[key1]?.fingerprint, key2: written[key2]?.fingerprint])
        let base = try store.mergeSnapshot(calendar: "Home", source: "vdir:/x").base
        XCTAssertEqual(base[key1], written[key1]?.fingerprint)
        XCTAssertEqual(base[key2], written[key2]?.fingerprint)
        var contents = try store.mergeContents(calendar: "Home", source: "vdir:/x", keys: [key1, key2])
        XCTAssertEqual(contents.base.keys.sorted(), [key1])
        XCTAssertEqual(contents.base[key1]?.property("SUMMARY")?.value, "One")
        XCTAssertEqual(contents.local[key2]?.property("SUMMARY")?.value, "Two\\, changed here")
        // A local edit of t1 keeps what the base said aside: the base's content stays "One".
        guard case .todo(var edited)? = try store.item(uid: "t1")?.component else { return XCTFail("t1 is gone") }
        edited.summary = "One, edited"
        try store.add(.todo(edited), to: "Home")
        contents = try store.mergeContents(calendar: "Home", source: "vdir:/x", keys: [key1])
        XCTAssertEqual(contents.base[key1]?.property("SUMMARY")?.value, "One")
        XCTAssertEqual(contents.local[key1]?.property("SUMMARY")?.value, "One\\, edited")
        XCTAssertEqual(
            try store.syncResourceRecords(calendar: "Home", partner: "vdir:/x").keys.sorted(), ["t1.ics", "t2.ics"])
        // A nil entry forgets the item's base, fingerprint and content.
        try store.recordSyncRecords(
            calendar: "Home", partner: "vdir:/x", resources: [], forgetting: ["t1.ics"], base: [key1: String?.none])
        XCTAssertNil(try store.mergeSnapshot(calendar: "Home", source: "vdir:/x").base[key1])
        XCTAssertTrue(try store.mergeContents(calendar: "Home", source: "vdir:/x", keys: [key1]).base.isEmpty)
        XCTAssertEqual(try store.syncResourceRecords(calendar: "Home", partner: "vdir:/x").keys.sorted(), ["t2.ics"])
    }

    func testSyncRecordsKeepNamesWithQuotesBackslashesAndTabsAsTheyAre() throws {
        let store = try CalendarStore.inMemory()
        // UID q"\<tab>é (its backslash written as \\ in the file).
        _ = try store.importCalendars(read(todo("q\"\\\\\té", "Odd")).calendars, into: "Home", file: nil)
        let uid = "q\"\\\té"
        let written = try store.mergeSnapshot(calendar: "Home", source: "caldav:x").items
        let key = MergeKey(uid: uid, recurrenceID: "")
        XCTAssertNotNil(written[key], "\(written.keys)")
        let href = "/c/q\"\\\t%C3%A9.ics"
        try store.recordSyncRecords(
            calendar: "Home", partner: "caldav:x", resources: [(href: href, etag: "\"e\\1\"", uids: [uid])],
            forgetting: [], base: [key: written[key]?.fingerprint])
        XCTAssertEqual(
            try store.mergeSnapshot(calendar: "Home", source: "caldav:x").base[key], written[key]?.fingerprint)
        XCTAssertEqual(
            try store.mergeContents(calendar: "Home", source: "caldav:x", keys: [key]).base.keys.sorted(), [key])
        let resource = try XCTUnwrap(try store.syncResourceRecords(calendar: "Home", partner: "caldav:x")[href])
        XCTAssertEqual(resource.etag, "\"e\\1\"")
        XCTAssertEqual(resource.uids, [uid])
    }
}
