import CalendarMerge
import CalendarModel
@testable import CalendarStore
import GRDB
import XCTest

/// Random histories of local edits (add, change, done, rm) and external changes (add, change, delete, duplicate
/// UIDs, overrides added and removed, files cut short), merged into a real store with random crash points: after
/// every step the store must hold what the three-way rule says, with nothing lost that one side changed, no
/// duplicate, integrity intact, and a second merge of the same file changing nothing.
///
/// `ICSKIT_MERGE_HISTORIES` sets how many histories run (2,000 by default) and `ICSKIT_MERGE_SEED` the first seed;
/// a failure names the seed that reproduces it.
final class MergePropertyTests: XCTestCase {
    func testRandomHistoriesKeepEveryChange() throws {
        let environment = ProcessInfo.processInfo.environment
        let histories = environment["ICSKIT_MERGE_HISTORIES"].flatMap(Int.init) ?? 2000
        let firstSeed = environment["ICSKIT_MERGE_SEED"].flatMap(UInt64.init) ?? 1
        var tally = History.Tally()
        for seed in firstSeed..<firstSeed + UInt64(histories) {
            var history = try History(seed: seed)
            try history.run(steps: 10)
            tally.add(history.tally)
            if !history.failures.isEmpty {
                XCTFail("seed \(seed): " + history.failures.prefix(5).joined(separator: "\n"))
                break
            }
        }
        print("merge histories: \(histories), \(tally)")
        // The histories must really exercise what they claim to: every kind of step, every guard, crashes.
        XCTAssertGreaterThan(tally.merges, histories * 5)
        XCTAssertGreaterThan(tally.crashes, histories / 10)
        XCTAssertGreaterThan(tally.truncated, histories / 20)
        XCTAssertGreaterThan(tally.refused, 0)
        XCTAssertGreaterThan(tally.conflicts, histories / 20)
        XCTAssertGreaterThan(tally.keptLocalChanges, histories / 5)
        XCTAssertGreaterThan(tally.deletions, histories / 5)
        XCTAssertGreaterThan(tally.lessRead, histories)
    }
}

/// A small deterministic generator (SplitMix64), so that a seed replays a history exactly.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One history: an external calendar that changes, a store calendar that is edited locally, and merges between.
struct History {
    struct Tally {
        var merges = 0, crashes = 0, truncated = 0, refused = 0, conflicts = 0, keptLocalChanges = 0, deletions = 0
        /// Merges made by `merge(icsBytes:)`, which leaves out what the base already has.
        var lessRead = 0

        mutating func add(_ other: Tally) {
            merges += other.merges; crashes += other.crashes; truncated += other.truncated
            refused += other.refused; conflicts += other.conflicts; keptLocalChanges += other.keptLocalChanges
            deletions += other.deletions
            lessRead += other.lessRead
        }
    }

    /// An item of the external file: a weekly event (with overrides) or a todo.
    struct ExternalItem {
        var uid: String
        var isTodo: Bool
        var revision: Int
        var overrides: Set<Int> = []
    }

    let store: CalendarStore
    var random: SeededGenerator
    var external: [ExternalItem] = []
    /// UIDs written twice in the file (the second copy differs; a merge keeps the first).
    var duplicated: Set<String> = []
    var clock = 0
    var counter = 0
    var failures: [String] = []
    var tally = Tally()
    let calendar = "cal", source = "/external.ics"

    init(seed: UInt64) throws {
        random = SeededGenerator(state: seed)
        store = try CalendarStore.inMemory()
        try store.database.write { db in
            try db.execute(
                sql: """
                    CREATE TEMP TABLE crashCountdown (n INTEGER);
                    INSERT INTO crashCountdown VALUES (NULL);
                    """)
            for (table, event) in [
                ("item", "INSERT"), ("item", "DELETE"), ("item", "UPDATE"),
                ("tombstone", "DELETE"), ("syncState", "INSERT"), ("syncState", "DELETE"),
            ] {
                try db.execute(
                    sql: """
                        CREATE TEMP TRIGGER crash_\(table)_\(event) BEFORE \(event) ON \(table) BEGIN
                            UPDATE crashCountdown SET n = n - 1;
                            SELECT RAISE(ABORT, 'simulated crash') WHERE (SELECT n FROM crashCountdown) <= 0;
                        END;
                        """)
            }
        }
        for _ in 0..<Int.random(in: 3...8, using: &random) { addExternal() }
    }

    mutating func tick() -> Int {
        clock += 1
        return clock
    }

    /// 2026-01-01 plus `minutes`, as an iCalendar UTC time (the history's clock ticks a minute a step).
    static func stamp(_ minutes: Int) -> String {
        let day = minutes / 1440, minute = minutes % 1440
        let (month, dayOfMonth) = day < 31 ? (1, day + 1) : (2, day - 30)
        return String(format: "2026%02d%02dT%02d%02d00Z", month, dayOfMonth, minute / 60, minute % 60)
    }

    // MARK: The external side

    mutating func addExternal() {
        counter += 1
        external.append(ExternalItem(uid: "ext-\(counter)", isTodo: Bool.random(using: &random), revision: tick()))
    }

    mutating func changeExternal() {
        let steps: [(inout History) -> Void] = [
            { $0.addExternal() },
            { history in
                guard !history.external.isEmpty else { return }
                let index = Int.random(in: history.external.indices, using: &history.random)
                history.external[index].revision = history.tick()
            },
            { history in
                guard !history.external.isEmpty else { return }
                history.external.remove(at: Int.random(in: history.external.indices, using: &history.random))
            },
            { history in
                guard let item = history.external.randomElement(using: &history.random) else { return }
                history.duplicated.insert(item.uid)
            },
            { history in
                guard !history.external.isEmpty else { return }
                let index = Int.random(in: history.external.indices, using: &history.random)
                guard !history.external[index].isTodo else { return }
                let week = Int.random(in: 1...3, using: &history.random)
                if history.external[index].overrides.contains(week) {
                    history.external[index].overrides.remove(week)
                } else {
                    history.external[index].overrides.insert(week)
                }
            },
        ]
        steps.randomElement(using: &random)!(&self)
    }

    func componentText(uid: String, isTodo: Bool, summary: String, revision: Int, week: Int? = nil) -> String {
        let kind = isTodo ? "VTODO" : "VEVENT"
        var lines = [
            "BEGIN:\(kind)", "UID:\(uid)", "DTSTAMP:\(Self.stamp(revision))",
            "LAST-MODIFIED:\(Self.stamp(revision))", "SUMMARY:\(summary)",
        ]
        if isTodo {
            lines.append("DUE:20260310T170000Z")
        } else if let week {
            lines += ["RECURRENCE-ID:202603\(10 + 7 * week)T090000Z", "DTSTART:202603\(10 + 7 * week)T100000Z"]
        } else {
            lines += ["DTSTART:20260310T090000Z", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;COUNT=4"]
        }
        return (lines + ["END:\(kind)"]).map { $0 + "\r\n" }.joined()
    }

    var externalText: String {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//property test//EN\r\n"
        for item in external {
            text += componentText(
                uid: item.uid, isTodo: item.isTodo, summary: "E \(item.uid) r\(item.revision)",
                revision: item.revision)
            for week in item.overrides.sorted() {
                text += componentText(
                    uid: item.uid, isTodo: false, summary: "E \(item.uid) w\(week) r\(item.revision)",
                    revision: item.revision, week: week)
            }
            if duplicated.contains(item.uid) {
                text += componentText(
                    uid: item.uid, isTodo: item.isTodo, summary: "duplicate of \(item.uid)",
                    revision: item.revision + 1)
            }
        }
        return text + "END:VCALENDAR\r\n"
    }

    // MARK: The local side

    mutating func editLocally() throws {
        let held = try snapshot().items.keys.sorted()
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            counter += 1
            try add(
                componentText(
                    uid: "local-\(counter)", isTodo: Bool.random(using: &random),
                    summary: "L new", revision: tick()))
        case 1:
            guard let key = held.randomElement(using: &random), let component = try component(key) else { return }
            var text = componentText(
                uid: key.uid, isTodo: component.isTodo, summary: "L \(key.uid) r\(clock + 1)",
                revision: tick(), week: nil)
            if !key.recurrenceID.isEmpty, let week = week(of: key) {
                text = componentText(
                    uid: key.uid, isTodo: false, summary: "L \(key) r\(clock)", revision: clock,
                    week: week)
            }
            try add(text)
        case 2:
            guard let key = held.filter({ $0.recurrenceID.isEmpty }).randomElement(using: &random) else { return }
            try store.complete(uid: key.uid, at: Date(timeIntervalSince1970: 1_767_225_600 + Double(tick()) * 60))
        default:
            guard let key = held.randomElement(using: &random) else { return }
            try store.delete(uid: key.uid)
        }
    }

    func week(of key: MergeKey) -> Int? {
        (1...3).first { key.recurrenceID.contains("202603\(10 + 7 * $0)T09") }
    }

    func add(_ text: String) throws {
        let read = ICS.read(
            Array(
                ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + text
                    + "END:VCALENDAR\r\n").utf8))
        guard let component = read.calendars.first?.components.first else { throw StoreError("bad local item") }
        try store.add(component, to: calendar)
    }

    func component(_ key: MergeKey) throws -> (isTodo: Bool, text: String)? {
        for (calendar, _) in try store.loadCalendars(named: calendar) {
            for component in calendar.components where component.core?.uid == key.uid {
                if case .todo = component { return (true, "") }
                return (false, "")
            }
        }
        return nil
    }

    func snapshot() throws -> MergeSnapshot { try store.mergeSnapshot(calendar: calendar, source: source) }

    // MARK: Steps and checks

    mutating func run(steps: Int) throws {
        try merge()
        for _ in 0..<steps {
            if Bool.random(using: &random) { changeExternal() } else { try editLocally() }
            if Int.random(in: 0..<3, using: &random) == 0 { try merge() }
            if !failures.isEmpty { return }
        }
        try merge()
    }

    mutating func fail(_ message: String) { failures.append(message) }

    mutating func merge() throws {
        var text = externalText
        var truncated = false
        if Int.random(in: 0..<8, using: &random) == 0 {
            // A file cut short, as a download that stopped: somewhere after the header.
            let bytes = Array(text.utf8)
            let cut = Int.random(in: 60..<bytes.count - 2, using: &random)
            text = String(decoding: bytes[..<cut], as: UTF8.self)
            truncated = true
        }
        let read = ICS.read(Array(text.utf8))
        if truncated, !read.isTruncated {
            fail("a file cut at a random byte did not read as truncated: …\(text.suffix(60).debugDescription)")
        }
        var options = MergeOptions()
        options.isTruncated = read.isTruncated
        options.digest = SourceDigest.of(Array(text.utf8))
        let externalItems = CalendarMerger.items(of: read.calendars).items.mapValues(\.version)
        let before = try snapshot()
        try compareReadings(Array(text.utf8), read)
        let readsLess = Bool.random(using: &random)
        let crashAfter = Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 1...6, using: &random) : nil
        try setCrash(after: crashAfter)
        defer { try? setCrash(after: nil) }
        tally.merges += 1
        let result: MergeResult
        do {
            result =
                readsLess
                ? try CalendarMerger.merge(
                    icsBytes: Array(text.utf8), file: nil, into: calendar, source: source, storage: store,
                    options: options
                ).result
                : try CalendarMerger.merge(
                    read.calendars, into: calendar, source: source, storage: store,
                    options: options)
            if readsLess { tally.lessRead += 1 }
        } catch let refusal as MergeRefusal {
            tally.refused += 1
            try expectUnchanged(since: before, "a refused merge (\(refusal))")
            return
        } catch {
            guard crashAfter != nil else { throw error }
            tally.crashes += 1
            try expectUnchanged(since: before, "a merge that crashed (\(error))")
            return
        }
        try setCrash(after: nil)
        if read.isTruncated { tally.truncated += 1 }
        tally.conflicts += result.conflicts
        try check(before: before, external: externalItems, truncated: read.isTruncated, result: result)
        // The same file again changes nothing.
        let settled = try snapshot()
        let again = try CalendarMerger.merge(
            read.calendars, into: calendar, source: source, storage: store,
            options: options)
        if again.added + again.updated + again.deleted > 0 {
            fail("a second merge of the same file changed things: \(again.actions.filter { $0.kind != .unchanged })")
        }
        try expectUnchanged(since: settled, "a second merge of the same file", checkBase: false)
        try checkIntegrity()
    }

    /// The merge that leaves out what the base already has (`merge(icsBytes:)`) decides exactly what the merge of
    /// the file read in full decides (a dry run of each, without the digest that would skip reading altogether).
    mutating func compareReadings(_ bytes: [UInt8], _ read: ICS.ReadResult) throws {
        var options = MergeOptions()
        options.isTruncated = read.isTruncated
        options.dryRun = true
        let full = try mergeOutcome {
            try CalendarMerger.merge(read.calendars, into: calendar, source: source, storage: store, options: options)
        }
        let less = try mergeOutcome {
            try CalendarMerger.merge(
                icsBytes: bytes, file: nil, into: calendar, source: source, storage: store, options: options
            ).result
        }
        if full != less { fail("reading less decided otherwise than reading all:\n\(less)\n---\n\(full)") }
    }

    func setCrash(after writes: Int?) throws {
        try store.database.write { db in
            try db.execute(sql: "UPDATE crashCountdown SET n = ?", arguments: [writes])
        }
    }

    mutating func expectUnchanged(since before: MergeSnapshot, _ what: String, checkBase: Bool = true) throws {
        let after = try snapshot()
        if after.items != before.items { fail("\(what) changed the items") }
        if checkBase, after.base != before.base || after.tombstones != before.tombstones {
            fail("\(what) changed the base or the tombstones")
        }
    }

    /// The three-way rule, item by item, against what the store held before and the file says now.
    mutating func check(
        before: MergeSnapshot, external: [MergeKey: ItemVersion], truncated: Bool,
        result: MergeResult
    ) throws {
        let after = try snapshot()
        let keys = Set(before.items.keys).union(external.keys).union(before.base.keys)
        // A series (one UID) is one unit when a deletion meets a change: part of it deleted here and changed there
        // brings all of it back; part of it deleted there and changed here keeps all of it.
        var revived: Set<String> = [], kept: Set<String> = []
        for key in keys {
            let local = before.items[key]?.fingerprint, base = before.base[key], theirs = external[key]?.fingerprint
            if local == nil, let theirs, let base, theirs != base { revived.insert(key.uid) }
            if let local, theirs == nil, let base, local != base { kept.insert(key.uid) }
        }
        for key in keys {
            let local = before.items[key]?.fingerprint, base = before.base[key], theirs = external[key]?.fingerprint
            let now = after.items[key]?.fingerprint
            let localChanged = local != nil && local != base
            let externalChanged = theirs != nil && theirs != base
            switch (localChanged, externalChanged) {
            case (true, false):
                if now != local { fail("\(key): the local change was lost (\(now ?? "gone"))") }
                if theirs == nil, base != nil { tally.keptLocalChanges += 1 }
            case (false, true):
                if before.tombstones.contains(key), theirs == base { break }
                if now != theirs {
                    let action = result.actions.first { $0.key == key }.map { "\($0.kind) \($0.reason)" } ?? "none"
                    fail(
                        "\(key): the external change did not land (\(now ?? "gone"); local \(local ?? "-"), base "
                            + "\(base ?? "-"), tombstone \(before.tombstones.contains(key)); \(action))")
                }
            case (true, true):
                if now == nil || (now != local && now != theirs) {
                    fail("\(key): a conflict ended with neither side (\(now ?? "gone"))")
                }
            case (false, false):
                if local != nil, theirs == nil, base != nil {
                    if truncated {
                        if now != local { fail("\(key): a truncated file deleted or changed it") }
                    } else if kept.contains(key.uid) {
                        if now != local { fail("\(key): its series changed here, yet it was not kept with it") }
                    } else if now != nil {
                        fail("\(key): gone from the file and unchanged here, but not deleted")
                    } else {
                        tally.deletions += 1
                    }
                } else if local != nil, now != local {
                    fail("\(key): unchanged on both sides, yet changed (\(now ?? "gone"))")
                } else if local == nil, theirs != nil, !before.tombstones.contains(key), base == nil, now != theirs {
                    fail("\(key): new in the file but not added")
                } else if local == nil, before.tombstones.contains(key), theirs == base {
                    if revived.contains(key.uid), theirs != nil {
                        if now != theirs { fail("\(key): its series changed there, yet it did not come back with it") }
                    } else if now != nil {
                        fail("\(key): deleted here and unchanged there, but back")
                    }
                }
            }
        }
        for key in after.items.keys where before.items[key] == nil && external[key] == nil {
            fail("\(key): appeared from nowhere")
        }
        if truncated, !Set(before.items.keys).isSubset(of: after.items.keys) {
            fail("a truncated file deleted items")
        }
    }

    mutating func checkIntegrity() throws {
        let problems = try store.integrityCheck()
        if problems != ["ok"] { fail("integrity: \(problems)") }
        let duplicates = try store.database.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM (SELECT calendarID, uid, recurrenceID FROM item
                    GROUP BY calendarID, uid, recurrenceID HAVING count(*) > 1)
                    """) ?? 0
        }
        if duplicates > 0 { fail("\(duplicates) duplicate item(s)") }
    }
}
