import CalendarMerge
import CalendarModel
@testable import CalendarStore
import GRDB
import ICSKitTestSupport
import XCTest

/// Random histories against a small reference model of the merge written here, independently of the engine: an
/// external calendar and the store are edited (both sides the same and different fields of the same items, adds,
/// deletions, overrides added and removed), and merged, imported again, merged from files cut short (with and
/// without --force-delete), with random crashes between planning and the end of the write. After every step the
/// store must hold what the model holds, field for field, and no change made on one side only may be lost.
///
/// `ICSKIT_MERGE_HISTORIES` sets how many histories run (1,000 by default) and `ICSKIT_MERGE_SEED` the first seed;
/// the first seed is printed, and a failure names the seed that reproduces it.
final class MergeModelTests: XCTestCase {
    func testRandomHistoriesMatchTheModelAndLoseNoOneSidedChange() throws {
        let environment = ProcessInfo.processInfo.environment
        let histories = environment["ICSKIT_MERGE_HISTORIES"].flatMap(Int.init) ?? 1000
        let firstSeed = SeededGenerator.seed(from: "ICSKIT_MERGE_SEED")
        print("merge model histories: \(histories) from seed \(firstSeed) (ICSKIT_MERGE_SEED=\(firstSeed) replays)")
        var tally = ModelHistory.Tally()
        for seed in firstSeed..<firstSeed + UInt64(histories) {
            var history = try ModelHistory(seed: seed)
            try history.run(steps: 12)
            tally.add(history.tally)
            if !history.failures.isEmpty {
                XCTFail("seed \(seed): " + history.failures.prefix(5).joined(separator: "\n"))
                break
            }
        }
        print("merge model: \(tally)")
        // The histories must exercise what they claim to.
        XCTAssertGreaterThan(tally.merges, histories * 3)
        XCTAssertGreaterThan(tally.fieldMerges, histories / 10, "items merged field by field")
        XCTAssertGreaterThan(tally.fieldConflicts, histories / 20, "fields both sides changed differently")
        XCTAssertGreaterThan(tally.crashes, histories / 10)
        XCTAssertGreaterThan(tally.truncated, histories / 20)
        XCTAssertGreaterThan(tally.forced, histories / 40)
        XCTAssertGreaterThan(tally.restored, histories / 100, "items a forced merge took away, back again")
        XCTAssertGreaterThan(tally.imports, histories / 5)
        XCTAssertGreaterThan(tally.deletions, histories / 10)
        XCTAssertGreaterThan(tally.oneSidedFields, histories)
    }
}

/// What the model knows of an item: the fields the histories edit, and when it last changed.
struct ModelItem: Equatable {
    var summary: String
    var location: String?
    var priority: Int?
    var categories: Set<String> = []
    /// The start hour (the event lasts an hour: DTSTART and DTEND move together).
    var hour: Int
    /// LAST-MODIFIED, in minutes of the history's clock; not part of what the item says.
    var modified = 0

    static func == (a: ModelItem, b: ModelItem) -> Bool {
        (a.summary, a.location, a.priority, a.categories, a.hour)
            == (b.summary, b.location, b.priority, b.categories, b.hour)
    }
}

/// The reference merge, per key and per field, as the issue states the rules.
enum ReferenceMerge {
    /// A field's three-way rule: one side changed it → that side; both, differently → the winner.
    static func pick<T: Equatable>(_ base: T, _ local: T, _ external: T, externalWins: Bool) -> (T, conflict: Bool) {
        if local == external { return (local, false) }
        if local == base { return (external, false) }
        if external == base { return (local, false) }
        return (externalWins ? external : local, true)
    }

    static func fields(base: ModelItem, local: ModelItem, external: ModelItem) -> (ModelItem, conflicts: Int) {
        let externalWins = external.modified > local.modified
        var conflicts = 0
        func take<T: Equatable>(_ path: KeyPath<ModelItem, T>) -> T {
            let (value, conflict) = pick(
                base[keyPath: path], local[keyPath: path], external[keyPath: path], externalWins: externalWins)
            if conflict { conflicts += 1 }
            return value
        }
        var result = local
        result.summary = take(\.summary)
        result.location = take(\.location)
        result.priority = take(\.priority)
        result.hour = take(\.hour)
        // Each category on its own: kept where both keep it, added where either adds it, gone where either removes it.
        result.categories = local.categories.union(external.categories).filter { category in
            (local.categories.contains(category) && external.categories.contains(category))
                || !base.categories.contains(category)
        }
        result.modified =
            result == local
            ? local.modified : result == external ? external.modified : max(local.modified, external.modified)
        return (result, conflicts)
    }
}

struct ModelHistory {
    struct Tally: CustomStringConvertible {
        var merges = 0, fieldMerges = 0, fieldConflicts = 0, crashes = 0, truncated = 0, forced = 0, restored = 0
        var imports = 0, deletions = 0, oneSidedFields = 0, refused = 0

        mutating func add(_ o: Tally) {
            merges += o.merges; fieldMerges += o.fieldMerges; fieldConflicts += o.fieldConflicts; crashes += o.crashes
            truncated += o.truncated; forced += o.forced; restored += o.restored; imports += o.imports
            deletions += o.deletions; oneSidedFields += o.oneSidedFields; refused += o.refused
        }

        var description: String {
            "\(merges) merges (\(imports) imports), \(fieldMerges) field merges, \(fieldConflicts) field conflicts, "
                + "\(crashes) crashes, \(truncated) cut files (\(forced) forced), \(restored) restored, "
                + "\(deletions) deletions, \(oneSidedFields) one-sided field changes checked, \(refused) refused"
        }
    }

    let store: CalendarStore
    var random: SeededGenerator
    let calendar = "cal"
    /// What the external calendar holds, by key.
    var external: [MergeKey: ModelItem] = [:]
    /// What the model says the store holds, what the source said at the last merge, and what was deleted here.
    var local: [MergeKey: ModelItem] = [:]
    var base: [MergeKey: ModelItem] = [:]
    var tombstones: Set<MergeKey> = []
    var clock = 0, counter = 0
    var failures: [String] = [] {
        didSet {
            if failures.count == 1, oldValue.isEmpty { failures[0] += "\nhistory:\n" + log.joined(separator: "\n") }
        }
    }
    /// The steps so far, for the failure message.
    var log: [String] = []
    var tally = Tally()

    init(seed: UInt64) throws {
        random = SeededGenerator(seed: seed)
        store = try CalendarStore.inMemory()
        try store.database.write { db in
            try db.execute(
                sql: "CREATE TEMP TABLE crashCountdown (n INTEGER); INSERT INTO crashCountdown VALUES (NULL);")
            for (table, event) in [
                ("item", "INSERT"), ("item", "DELETE"), ("item", "UPDATE"), ("syncState", "INSERT"),
                ("syncState", "DELETE"), ("syncBase", "INSERT"),
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
        for _ in 0..<Int.random(in: 2...6, using: &random) { addExternal() }
    }

    mutating func tick() -> Int {
        clock += 1
        return clock
    }

    mutating func newItem(_ name: String) -> ModelItem {
        ModelItem(
            summary: name, location: Bool.random(using: &random) ? "Room 1" : nil,
            priority: Bool.random(using: &random) ? 5 : nil,
            categories: Set(["A", "B", "C"].filter { _ in Bool.random(using: &random) }),
            hour: Int.random(in: 8...12, using: &random), modified: tick())
    }

    /// One field changed at random (a side's edit).
    mutating func edit(_ item: inout ModelItem, by side: String) {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: item.summary = "\(side) \(tick())"
        case 1: item.location = Bool.random(using: &random) ? nil : "Room \(Int.random(in: 1...4, using: &random))"
        case 2: item.priority = [nil, 1, 5, 9].randomElement(using: &random)!
        case 3:
            let category = ["A", "B", "C", "D"].randomElement(using: &random)!
            if item.categories.contains(category) {
                item.categories.remove(category)
            } else {
                item.categories.insert(category)
            }
        default: item.hour = Int.random(in: 7...18, using: &random)
        }
        item.modified = tick()
    }

    // MARK: Text

    static func stamp(_ minutes: Int) -> String {
        String(format: "202601%02dT%02d%02d00Z", 1 + minutes / 1440, minutes % 1440 / 60, minutes % 60)
    }

    /// Weeks 1–3 of a series: its overrides' recurrence IDs.
    static func recurrenceID(week: Int) -> String { "202603\(10 + 7 * week)T090000Z" }

    static func text(_ key: MergeKey, _ item: ModelItem) -> String {
        let day = key.recurrenceID.isEmpty ? "20260310" : String(key.recurrenceID.prefix(8))
        var lines = ["BEGIN:VEVENT", "UID:\(key.uid)"]
        if !key.recurrenceID.isEmpty { lines.append("RECURRENCE-ID:\(key.recurrenceID)") }
        lines += [
            "DTSTAMP:\(stamp(item.modified))", "LAST-MODIFIED:\(stamp(item.modified))",
            String(format: "DTSTART:%@T%02d0000Z", day, item.hour),
            String(format: "DTEND:%@T%02d0000Z", day, item.hour + 1),
        ]
        if key.recurrenceID.isEmpty, key.uid.hasPrefix("s") { lines.append("RRULE:FREQ=WEEKLY;COUNT=4") }
        lines.append("SUMMARY:\(item.summary)")
        if let location = item.location { lines.append("LOCATION:\(location)") }
        if let priority = item.priority { lines.append("PRIORITY:\(priority)") }
        for category in item.categories.sorted() { lines.append("CATEGORIES:\(category)") }
        return (lines + ["END:VEVENT"]).map { $0 + "\r\n" }.joined()
    }

    /// The external calendar as a file; `keeping` the first keys only, and then cut off inside the next item.
    func file(keeping count: Int? = nil) -> String {
        let keys = external.keys.sorted()
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//model test//EN\r\n"
        for key in keys.prefix(count ?? keys.count) { text += Self.text(key, external[key]!) }
        if count != nil { return text + "BEGIN:VEVENT\r\nUID:cut\r\nSUMMARY:cut sh" }
        return text + "END:VCALENDAR\r\n"
    }

    /// What the store holds, read back into the model's terms.
    func stored() throws -> [MergeKey: ModelItem] {
        var items: [MergeKey: ModelItem] = [:]
        for (calendar, _) in try store.loadCalendars(named: calendar) {
            for item in calendar.components {
                guard let core = item.core, let uid = core.uid else { continue }
                let component = item.component
                let key = MergeKey(uid: uid, recurrenceID: item.identity.recurrenceID)
                let start = component.property("DTSTART")?.value ?? ""
                items[key] = ModelItem(
                    summary: component.property("SUMMARY")?.value ?? "",
                    location: component.property("LOCATION")?.value,
                    priority: component.property("PRIORITY").flatMap { Int($0.value) },
                    categories: Set(component.properties(named: "CATEGORIES").map(\.value)),
                    hour: Int(start.dropFirst(9).prefix(2)) ?? -1)
            }
        }
        return items
    }

    // MARK: Steps

    mutating func addExternal() {
        counter += 1
        let uid = (Bool.random(using: &random) ? "s" : "e") + "\(counter)"
        external[MergeKey(uid: uid)] = newItem("E \(uid)")
    }

    mutating func changeExternal() {
        let keys = external.keys.sorted()
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            addExternal()
            log.append("external add")
        case 1:
            guard let key = keys.filter({ $0.recurrenceID.isEmpty }).randomElement(using: &random) else { return }
            for other in keys where other.uid == key.uid { external[other] = nil }
            log.append("external rm \(key.uid)")
        case 2:
            // An override added or removed.
            guard
                let key = keys.filter({ $0.uid.hasPrefix("s") && $0.recurrenceID.isEmpty }).randomElement(
                    using: &random)
            else { return }
            let override = MergeKey(
                uid: key.uid, recurrenceID: Self.recurrenceID(week: Int.random(in: 1...3, using: &random)))
            external[override] = external[override] == nil ? newItem("E \(override)") : nil
            log.append("external override \(override) \(external[override] == nil ? "removed" : "added")")
        default:
            guard let key = keys.randomElement(using: &random) else { return }
            var item = external[key]!
            edit(&item, by: "E")
            external[key] = item
            log.append("external edit \(key): \(item)")
        }
    }

    mutating func editLocally() throws {
        let keys = local.keys.sorted()
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            counter += 1
            let key = MergeKey(uid: "local-\(counter)")
            let item = newItem("L \(key.uid)")
            log.append("local add \(key): \(item)")
            try put(key, item)
            local[key] = item
        case 1:
            guard let key = keys.randomElement(using: &random) else { return }
            try store.delete(uid: key.uid)
            log.append("local rm \(key.uid)")
            for other in keys where other.uid == key.uid {
                local[other] = nil
                tombstones.insert(other)
            }
        default:
            guard let key = keys.randomElement(using: &random) else { return }
            var item = local[key]!
            edit(&item, by: "L")
            log.append("local edit \(key): \(item)")
            try put(key, item)
            local[key] = item
        }
    }

    func put(_ key: MergeKey, _ item: ModelItem) throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + Self.text(key, item) + "END:VCALENDAR\r\n"
        guard let component = ICS.read(Array(text.utf8)).calendars.first?.components.first else {
            throw StoreError("bad local item")
        }
        try store.add(component, to: calendar)
    }

    mutating func run(steps: Int) throws {
        try reconcile()
        for _ in 0..<steps {
            if Bool.random(using: &random) { changeExternal() } else { try editLocally() }
            if Int.random(in: 0..<3, using: &random) == 0 { try reconcile() }
            if !failures.isEmpty { return }
        }
        try reconcile()
    }

    /// A merge, an import, or a merge of a cut file (forced or not), maybe crashing on the way.
    mutating func reconcile() throws {
        let kind = Int.random(in: 0..<10, using: &random)
        let isImport = kind < 2, isCut = kind >= 8 && external.count > 1
        let force = isCut && Bool.random(using: &random)
        let kept = isCut ? Int.random(in: 0..<external.count, using: &random) : nil
        let text = file(keeping: kept)
        let visible =
            kept.map { Dictionary(uniqueKeysWithValues: external.keys.sorted().prefix($0).map { ($0, external[$0]!) }) }
            ?? external
        let crashAfter = Int.random(in: 0..<5, using: &random) == 0 ? Int.random(in: 1...5, using: &random) : nil
        try setCrash(after: crashAfter)
        defer { try? setCrash(after: nil) }
        log.append(
            "\(isImport ? "import" : "merge")\(isCut ? " cut at \(kept!)" : "")\(force ? " forced" : "")"
                + (crashAfter.map { " crashing after \($0) writes" } ?? ""))
        let before = try stored()
        let (modelBefore, baseBefore) = (local, base)
        let decisions = decide(visible)
        let expected = refusal(visible, decisions, truncated: isCut, keepsAbsent: isImport, force: force)
        tally.merges += 1
        var options = MergeOptions()
        options.forceDelete = force
        do {
            let read = ICS.read(Array(text.utf8))
            options.isTruncated = read.isTruncated
            if isImport {
                _ = try store.importCalendars(read.calendars, into: calendar, file: nil)
                tally.imports += 1
            } else {
                let result =
                    Bool.random(using: &random)
                    ? try CalendarMerger.merge(
                        icsBytes: Array(text.utf8), file: nil, into: calendar, source: calendar, storage: store,
                        options: options
                    ).result
                    : try CalendarMerger.merge(
                        read.calendars, into: calendar, source: calendar, storage: store, options: options)
                for action in result.actions where action.kind != .unchanged {
                    log.append("  \(action.kind.rawValue) \(action.key): \(action.reason)")
                }
            }
        } catch let refused as MergeRefusal {
            tally.refused += 1
            if try stored() != before { failures.append("a refused merge (\(refused)) changed the store") }
            if expected == nil { failures.append("refused, but the model would not: \(refused)") }
            return
        } catch {
            guard crashAfter != nil else { throw error }
            tally.crashes += 1
            if try stored() != before { failures.append("a merge that crashed (\(error)) changed the store") }
            return
        }
        try setCrash(after: nil)
        if isCut { tally.truncated += 1 }
        if force { tally.forced += 1 }
        if let expected {
            failures.append("the model refuses (\(expected)) but the merge went ahead")
            return
        }
        apply(decisions, visible, truncated: isCut, keepsAbsent: isImport, force: force)
        try compare(
            what: isImport ? "import" : isCut ? (force ? "forced merge of a cut file" : "merge of a cut file") : "merge"
        )
        if !isCut { try checkOneSided(before: modelBefore, base: baseBefore, external: visible) }
    }

    /// What the model decides for one key.
    enum Decision { case take(ModelItem), keep, delete, stayDeleted, nothing }

    /// Why the model refuses this merge (an emptied source, too many deletions), or nil.
    func refusal(
        _ visible: [MergeKey: ModelItem], _ decisions: [MergeKey: Decision], truncated: Bool, keepsAbsent: Bool,
        force: Bool
    ) -> String? {
        guard !force, !keepsAbsent else { return nil }
        if visible.isEmpty, !base.isEmpty { return "the external calendar holds no items" }
        guard !truncated else { return nil }
        let deletions = decisions.values.filter { if case .delete = $0 { true } else { false } }.count
        if deletions > 10, Double(deletions) * 100 / Double(local.count) > 50 { return "\(deletions) deletions" }
        return nil
    }

    // MARK: The model

    /// The reference decisions for merging `visible` (what the file holds) into the model's store.
    mutating func decide(_ visible: [MergeKey: ModelItem]) -> [MergeKey: Decision] {
        let keys = Set(visible.keys).union(local.keys).union(base.keys).union(tombstones)
        var decisions: [MergeKey: Decision] = [:]
        var revived: Set<String> = [], keptWhole: Set<String> = []
        for key in keys {
            let (e, l, b) = (visible[key], local[key], base[key])
            switch (e, l) {
            case (let e?, nil):
                if tombstones.contains(key) {
                    if let b, b != e {
                        decisions[key] = .take(e)
                        revived.insert(key.uid)
                    } else {
                        decisions[key] = .stayDeleted
                    }
                } else {
                    decisions[key] = .take(e)
                }
            case (nil, let l?):
                if let b {
                    if l == b {
                        decisions[key] = .delete
                    } else {
                        decisions[key] = .keep
                        keptWhole.insert(key.uid)
                    }
                } else {
                    decisions[key] = .keep
                }
            case (nil, nil):
                decisions[key] = .nothing
            case (let e?, let l?):
                guard let b else {
                    decisions[key] = e == l ? .keep : (e.modified > l.modified ? .take(e) : .keep)
                    continue
                }
                if e == l || e == b {
                    decisions[key] = .keep
                } else if l == b {
                    decisions[key] = .take(e)
                } else {
                    let (merged, conflicts) = ReferenceMerge.fields(base: b, local: l, external: e)
                    tally.fieldConflicts += conflicts
                    if merged != l && merged != e { tally.fieldMerges += 1 }
                    decisions[key] = merged == l ? .keep : .take(merged)
                }
            }
        }
        // A series is one unit where a deletion meets a change.
        for (key, decision) in decisions {
            if case .stayDeleted = decision, revived.contains(key.uid), let e = visible[key] {
                decisions[key] = .take(e)
            }
            if case .delete = decision, keptWhole.contains(key.uid) { decisions[key] = .keep }
        }
        return decisions
    }

    /// Applies the decisions to the model's store and base.
    mutating func apply(
        _ decisions: [MergeKey: Decision], _ visible: [MergeKey: ModelItem], truncated: Bool, keepsAbsent: Bool,
        force: Bool
    ) {
        for (key, decision) in decisions {
            switch decision {
            case .take(let item):
                if local[key] == nil, !tombstones.contains(key), base[key] != nil { tally.restored += 1 }
                local[key] = item
                tombstones.remove(key)
            case .delete:
                if (truncated && !force) || keepsAbsent { break }
                local[key] = nil
                tally.deletions += 1
            case .keep, .stayDeleted, .nothing: break
            }
        }
        // The new base: what the file says; what it lacks is kept where the file may not be the whole source.
        var newBase = visible
        if truncated || keepsAbsent {
            for (key, item) in base where visible[key] == nil { newBase[key] = item }
        }
        base = newBase
    }

    /// The store against the model, and every field changed on one side only against what it became.
    mutating func compare(what: String) throws {
        let now = try stored()
        for key in Set(now.keys).union(local.keys).sorted() where now[key] != local[key] {
            failures.append(
                "after a \(what), \(key): the store holds \(now[key].map { "\($0)" } ?? "nothing"), "
                    + "the model \(local[key].map { "\($0)" } ?? "nothing")")
        }
    }

    /// Checks, independently of the model's decisions, that a field one side changed since the base holds that
    /// side's value after a merge of the whole file.
    mutating func checkOneSided(
        before: [MergeKey: ModelItem], base: [MergeKey: ModelItem], external: [MergeKey: ModelItem]
    ) throws {
        let now = try stored()
        for (key, b) in base {
            guard let l = before[key], let e = external[key], let result = now[key] else { continue }
            func check<T: Equatable>(_ name: String, _ path: KeyPath<ModelItem, T>) {
                let (bv, lv, ev, rv) = (b[keyPath: path], l[keyPath: path], e[keyPath: path], result[keyPath: path])
                if lv == bv, ev != bv {
                    tally.oneSidedFields += 1
                    if rv != ev { failures.append("\(key): the external change of \(name) was lost") }
                } else if ev == bv, lv != bv {
                    tally.oneSidedFields += 1
                    if rv != lv { failures.append("\(key): the local change of \(name) was lost") }
                }
            }
            check("SUMMARY", \.summary)
            check("LOCATION", \.location)
            check("PRIORITY", \.priority)
            check("the time", \.hour)
        }
    }

    func setCrash(after writes: Int?) throws {
        try store.database.write { db in
            try db.execute(sql: "UPDATE crashCountdown SET n = ?", arguments: [writes])
        }
    }
}
