import CalendarModel
import Foundation

/// How a merge decides and what it may do.
public struct MergeOptions: Sendable {
    /// Who wins when both sides changed an item.
    public var prefer: MergePreference = .newest
    /// Instead of `prefer`: leave conflicts unresolved, or keep both versions.
    public var onConflict: ConflictHandling?
    /// Plan only; write nothing.
    public var dryRun = false
    /// Lets the merge delete what the guards keep: everything, when the external calendar is empty; the items a
    /// truncated file lacks; more than `maxDeletePercent` of the calendar.
    public var forceDelete = false
    /// The largest share of the calendar's items, in percent, one merge may delete (when it deletes more than
    /// `deletionsAlwaysAllowed` items); a merge that would delete more is refused.
    public var maxDeletePercent: Double = 50
    /// How many deletions a merge may make whatever share of the calendar they are.
    public var deletionsAlwaysAllowed = 10
    /// The digest of the external file's bytes, recorded so that merging the same bytes again is cheap.
    public var digest: String?
    /// The external calendar ended before it was complete (a missing END, a cut-off download): an item it lacks
    /// may simply be past the cut, so nothing is deleted (unless `forceDelete`).
    public var isTruncated = false

    /// An import: items the external calendar lacks are neither deleted nor dropped from the merge base (the file
    /// need not hold the whole source), and no digest is recorded.
    public var keepsAbsent = false

    /// Whether every decision carries its item's title and start (a JSON report lists them all); otherwise only
    /// those that change something or were conflicts (what a text report prints), which spares decoding the
    /// title of every item a merge leaves out as unchanged.
    public var labelsEveryItem = true

    /// The defaults: newest wins a conflict, deletions guarded at 50% and 10 items, changes written.
    public init() {}
}

/// What a merge decided and did.
public struct MergeResult: Sendable {
    /// Every item's decision, sorted by key.
    public var actions: [MergeAction]
    /// Whether the store was changed (false for a dry run or when nothing changed).
    public var applied: Bool
    /// Deletions not made because the external calendar was truncated.
    public var withheldDeletions: Int

    /// A result of these decisions; `MergeResult()` is a merge that decided nothing.
    public init(actions: [MergeAction] = [], applied: Bool = false, withheldDeletions: Int = 0) {
        self.actions = actions
        self.applied = applied
        self.withheldDeletions = withheldDeletions
    }

    /// How many decisions are of these kinds.
    public func count(_ kinds: MergeAction.Kind...) -> Int {
        // By index: the actions are counted without copying each.
        actions.indices.count { kinds.contains(actions[$0].kind) }
    }
    /// Items new to the calendar (copies kept for `keep-both` conflicts included).
    public var added: Int { count(.add, .keepBoth) }
    /// Items replaced by the external version.
    public var updated: Int { count(.update) }
    /// Items merged field by field (both sides' changes kept).
    public var merged: Int { count(.merge) }
    /// Items deleted because the source no longer has them.
    public var deleted: Int { count(.delete) }
    /// Items left as they are: unchanged, kept local, or kept deleted.
    public var unchanged: Int { count(.unchanged, .keepLocal, .stayDeleted) }
    /// Items both sides changed (resolved or not).
    public var conflicts: Int { actions.indices.count { actions[$0].wasConflict } }
    /// Conflicts left unresolved (`--on-conflict fail`).
    public var unresolved: Int { count(.conflict) }
}

/// Why a merge was refused; nothing was written.
public struct MergeRefusal: Error, Sendable, CustomStringConvertible {
    /// Why, with the numbers, and how to override it.
    public var description: String
    /// A refusal that says why.
    public init(_ description: String) { self.description = description }
}

/// Reconciles an external calendar with a storage's calendar: the plan is made by `MergePlanner` inside the
/// storage's transaction, from what the storage holds at that moment, so an edit made while the external file was
/// being read is never overwritten or undone.
public enum CalendarMerger {
    /// The merge of a file whose bytes have the digest the source's last merge recorded, planned from the merge
    /// base without reading the file: every external item equals its base, so nothing can be added, updated,
    /// deleted or in conflict, and the plan (unchanged / keep-local / stay-deleted) is the one a full merge makes.
    /// Nil when the digest differs (or none was recorded): then the file has to be merged in full.
    public static func mergeUnchangedFile(
        digest: String, into calendar: String, source: String,
        storage: some MergeStorage
    ) throws -> MergeResult? {
        unchangedFilePlan(digest: digest, try storage.mergeSnapshot(calendar: calendar, source: source))
    }

    /// `mergeUnchangedFile`'s plan over a snapshot.
    static func unchangedFilePlan(digest: String, _ snapshot: MergeSnapshot) -> MergeResult? {
        guard snapshot.digest == digest else { return nil }
        let external = snapshot.base.mapValues { ItemVersion(fingerprint: $0) }
        let actions = MergePlanner.plan(
            MergeState(
                external: external, local: snapshot.items, base: snapshot.base,
                tombstones: snapshot.tombstones))
        // An item to restore (gone here without a local deletion) needs the file's content: read it.
        guard !actions.contains(where: { $0.kind != .unchanged && $0.kind != .keepLocal && $0.kind != .stayDeleted })
        else { return nil }
        return MergeResult(actions: actions, applied: false, withheldDeletions: 0)
    }

    /// The events, todos and journals of external calendars (X-WR-TIMEZONE resolved into them), keyed as the
    /// storage keys its items; of a repeated key (an iTIP stream sends each update again) the version with the
    /// highest SEQUENCE is kept, then the latest DTSTAMP, then the first; one the file ends inside of (cut short)
    /// is left out. Their VTIMEZONEs come along for the storage.
    public static func items(of external: [ICalendar]) -> (
        items: [MergeKey: MergeItem], timeZones: [TimeZoneDefinition]
    ) {
        var items: [MergeKey: MergeItem] = [:]
        var timeZones: [TimeZoneDefinition] = []
        for read in external {
            let calendar = read.resolvingWRTimeZone()
            timeZones += calendar.timeZones
            // Keyed and fingerprinted on every core, in runs, each with its own copies of the zones (what
            // CalendarTime says of the zones' use is not wanted here).
            let components = calendar.components.filter { $0.isItem && $0.isComplete }
            let asRead = read.components.filter { $0.isItem && $0.isComplete }
            // Events X-WR-TIMEZONE moved keep what they said as they stood, for `merge(icsBytes:)` to know them.
            let wrIdentity = calendar.wrTimeZone == nil ? read.wrTimeZoneIdentity : nil
            let zones = calendar.withZonesOnly
            let run = 256
            let made = ParallelParts.run((components.count + run - 1) / run) { part in
                let time = CalendarTime(calendar: zones, viewerZone: "UTC")
                return (part * run..<min(components.count, (part + 1) * run)).compactMap { index -> MergeItem? in
                    guard var item = MergeItem(components[index], time: time) else { return nil }
                    if let wrIdentity, !components[index].isAsRead, asRead[index].isAsRead {
                        item.readFingerprint = readFingerprint(asRead[index].component.fingerprint, wrIdentity)
                    }
                    return item
                }
            }
            items.reserveCapacity(items.count + components.count)
            for item in made.joined() {
                if let kept = items[item.key], item.version.revision <= kept.version.revision { continue }
                items[item.key] = item
            }
        }
        return (items, timeZones)
    }

    /// Merges `external` into a calendar of `storage` (created if missing) and records the source's new merge base.
    public static func merge(
        _ external: [ICalendar], into calendar: String, source: String,
        storage: some MergeStorage, options: MergeOptions = MergeOptions()
    ) throws -> MergeResult {
        let (items, timeZones) = items(of: external)
        return try merge(
            items: items, timeZones: timeZones, calendarParts: calendarParts(of: external), into: calendar,
            source: source, storage: storage, options: options)
    }

    /// What an item the read changed (X-WR-TIMEZONE moved its times) said as it stood: the fingerprint of its lines
    /// and what decided the move (`ICalendar.wrTimeZoneIdentity`), which together decide what the read makes of it.
    public static func readFingerprint(_ fingerprint: String, _ wrTimeZoneIdentity: String) -> String {
        var digest = FNV1a()
        digest.add(fingerprint + "\n" + wrTimeZoneIdentity)
        return digest.hex
    }

    /// The calendars' own properties and their components that are not items or zones, for the storage to keep.
    static func calendarParts(of calendars: [ICalendar]) -> [ICalendar] {
        calendars.map { calendar in
            var parts = calendar
            parts.components = calendar.components.filter { if case .other = $0 { true } else { false } }
            return parts.resolvingWRTimeZone()  // its times were moved into the items
        }
    }

    /// Merges external items into a calendar of `storage`. `unchanged` names items the source still has and has not
    /// changed since the merge base (a sync partner's resources whose version token did not change): they take part
    /// with the base's fingerprint, without their content, which no decision about them needs. `calendarParts` are
    /// the external calendars' own properties and other components, for the storage to keep.
    public static func merge(
        items: [MergeKey: MergeItem], unchanged: Set<MergeKey> = [], timeZones: [TimeZoneDefinition],
        calendarParts: [ICalendar], into calendar: String, source: String, storage: some MergeStorage,
        options: MergeOptions = MergeOptions()
    ) throws -> MergeResult {
        try merge(
            External(items: items, unchanged: unchanged, timeZones: timeZones, calendarParts: calendarParts),
            into: calendar, source: source, storage: storage, options: options)
    }

    /// What the external side of a merge holds.
    struct External: Sendable {
        /// Items read in full.
        var items: [MergeKey: MergeItem]
        /// Items unchanged since the merge base, by key alone (their fingerprint is the base's).
        var unchanged: Set<MergeKey> = []
        var timeZones: [TimeZoneDefinition]
        var calendarParts: [ICalendar]
        /// Items not read, with the fingerprint each has, and how to read one when a decision needs its content
        /// (a series restored whole) or how a person knows it.
        var unread: [MergeKey: UnreadEntry] = [:]
        /// What the items the read changed said as they stood (`readFingerprint`), read or not.
        var readFingerprints: [MergeKey: String] = [:]
        var readUnread: @Sendable (MergeKey) -> MergeItem? = { _ in nil }
        var labelUnread: @Sendable (MergeKey) -> ItemLabel? = { _ in nil }
        /// The storage's snapshot taken before the file was read, when the caller has one.
        var snapshot: MergeSnapshot?

        /// An item not read: its fingerprint, and where the reader keeps it.
        struct UnreadEntry: Sendable {
            var fingerprint: String
            var position: Int
        }

        /// Every external item's version: read, unread, or unchanged since `snapshot`'s base.
        func versions(_ snapshot: MergeSnapshot) -> [MergeKey: ItemVersion] {
            var versions = items.mapValues(\.version)
            versions.reserveCapacity(items.count + unread.count + unchanged.count)  // grown once, not rehashed
            for (key, entry) in unread where versions[key] == nil {
                versions[key] = ItemVersion(fingerprint: entry.fingerprint)
            }
            for key in unchanged where versions[key] == nil {
                if let fingerprint = snapshot.base[key] { versions[key] = ItemVersion(fingerprint: fingerprint) }
            }
            return versions
        }

        /// `readFingerprints` with those of the items read in full.
        var allReadFingerprints: [MergeKey: String] {
            var all = readFingerprints
            for (key, item) in items { all[key] = item.readFingerprint }
            return all
        }

        func item(_ key: MergeKey) -> MergeItem? { items[key] ?? (unread[key] == nil ? nil : readUnread(key)) }

        func label(_ key: MergeKey) -> ItemLabel? {
            if let item = items[key] { return CalendarMerger.label(item) }
            return unread[key] == nil ? nil : labelUnread(key)
        }
    }

    static func merge(
        _ external: External, into calendar: String, source: String, storage: some MergeStorage,
        options: MergeOptions
    ) throws -> MergeResult {
        // What the store alone can name (items a merge may delete) is labelled before the merge deletes them.
        let labelling = storage as? any ItemLabelling
        var stored: [MergeKey: ItemLabel] = [:]
        if let labelling {
            let before = try external.snapshot ?? storage.mergeSnapshot(calendar: calendar, source: source)
            let candidates = Set(
                before.base.keys.filter {
                    external.items[$0] == nil && external.unread[$0] == nil && !external.unchanged.contains($0)
                })
            if !candidates.isEmpty { stored = try labelling.labels(calendar: calendar, keys: candidates) }
        }
        let storedLabels = stored
        func labelled(_ actions: [MergeAction]) -> [MergeAction] {
            let run = 1024
            return Array(
                ParallelParts.run((actions.count + run - 1) / run) { part in
                    actions[part * run..<min(actions.count, (part + 1) * run)].map { action in
                        guard options.labelsEveryItem || action.changesSomething else { return action }
                        var action = action
                        let label = external.label(action.key) ?? storedLabels[action.key]
                        action.title = label?.title
                        action.start = label?.start
                        return action
                    }
                }.joined())
        }
        func plan(_ snapshot: MergeSnapshot, _ contents: MergeContentReader) throws -> Plan {
            var plan = try Plan(
                external.versions(snapshot), snapshot, calendar: calendar, options: options,
                read: external.allReadFingerprints)
            try plan.mergeFields(external: external.item, timeZones: external.timeZones, contents: contents)
            plan.makeBase()
            return plan
        }
        if options.dryRun {
            let snapshot = try external.snapshot ?? storage.mergeSnapshot(calendar: calendar, source: source)
            let planned = try plan(snapshot) { try storage.mergeContents(calendar: calendar, source: source, keys: $0) }
            return MergeResult(
                actions: labelled(planned.actions), applied: false, withheldDeletions: planned.withheld.count)
        }
        var result = try storage.updateAtomically(calendar: calendar, source: source) { snapshot, contents in
            let planned = try plan(snapshot, contents)
            let result = MergeResult(
                actions: planned.actions, applied: planned.changesSomething,
                withheldDeletions: planned.withheld.count)
            guard result.applied else { return (nil, result) }
            var write = planned.write(external.item, external.timeZones)
            write.calendarParts = external.calendarParts
            return (write, result)
        }
        result.actions = labelled(result.actions)
        return result
    }

    /// An external item's title and start.
    static func label(_ item: MergeItem) -> ItemLabel {
        let core = item.item.core
        return ItemLabel(
            title: core?.summary, start: core?.start.map { ItemLabel.start(value: $0.icsValue, tzid: $0.tzid) })
    }

    /// One merge's decisions over one snapshot, after the guards.
    struct Plan {
        var actions: [MergeAction]
        let snapshot: MergeSnapshot
        let external: [MergeKey: ItemVersion]
        let options: MergeOptions
        /// Deletions the truncation guard turned into keeps.
        var withheld: Set<MergeKey> = []
        /// How the base changes (`MergeWrite.baseChanges`).
        var baseChanges: [MergeKey: BaseEntry?] = [:]
        /// What the external items the read changed said as they stood.
        let read: [MergeKey: String]
        var newDigest: String?
        /// Items merged field by field, as they are to be kept.
        var merged: [MergeKey: MergeItem] = [:]
        /// What the source said of items whose kept version will differ from it (see `MergeWrite.baseContents`).
        var baseContents: [MergeKey: Component] = [:]

        init(
            _ external: [MergeKey: ItemVersion], _ snapshot: MergeSnapshot, calendar: String,
            options: MergeOptions, read: [MergeKey: String] = [:]
        ) throws {
            self.external = external
            self.read = read
            self.snapshot = snapshot
            self.options = options
            if external.isEmpty, !snapshot.base.isEmpty, !options.forceDelete, !options.keepsAbsent {
                throw MergeRefusal(
                    "the external calendar holds no items while \(snapshot.base.count.counted("item")) of "
                        + "\"\(calendar)\" came from it; refusing to delete them all (use --force-delete if that is meant)"
                )
            }
            actions = MergePlanner.plan(
                MergeState(
                    external: external, local: snapshot.items, base: snapshot.base,
                    tombstones: snapshot.tombstones),
                prefer: options.prefer, onConflict: options.onConflict)
            try guardDeletions(calendar: calendar)
        }

        /// A truncated file deletes nothing; any other merge may not delete more than its share of the calendar.
        mutating func guardDeletions(calendar: String) throws {
            if options.keepsAbsent {
                for index in actions.indices where actions[index].kind == .delete {
                    actions[index].kind = .keepLocal
                    actions[index].reason = "not in the imported file: an import deletes nothing"
                }
                return
            }
            guard !options.forceDelete else { return }
            if options.isTruncated {
                for index in actions.indices where actions[index].kind == .delete {
                    withheld.insert(actions[index].key)
                    actions[index].kind = .keepLocal
                    actions[index].reason =
                        "missing from an external file that ends early (truncated): kept; "
                        + "--force-delete deletes it"
                }
                return
            }
            let deletions = actions.filter { $0.kind == .delete }.count
            let held = snapshot.items.count
            let share = held == 0 ? 0 : Double(deletions) * 100 / Double(held)
            if deletions > options.deletionsAlwaysAllowed, share > options.maxDeletePercent {
                throw MergeRefusal(
                    "this merge would delete \(deletions) of the \(held) items of \"\(calendar)\" "
                        + "(\(Int(share.rounded()))%, more than the \(Self.percent(options.maxDeletePercent)) allowed): "
                        + "the external calendar lacks them although they are unchanged here, which a partial or "
                        + "wrong file also looks like; nothing was changed (--max-delete PCT raises the limit, "
                        + "--force-delete lifts it)")
            }
        }

        static func percent(_ value: Double) -> String {
            value == value.rounded() ? "\(Int(value))%" : "\(value)%"
        }

        /// The new base: what the source says now. An unresolved conflict keeps the old entry, so it stays a
        /// conflict; so does an item a truncated file lacks, so it is still known to come from the source. Only
        /// the entries that change are kept (a merge of a large calendar changes few).
        mutating func makeBase() {
            baseChanges = [:]
            let unresolved = Set(actions.filter { $0.kind == .conflict }.map(\.key))
            for (key, version) in external {
                let old = snapshot.base[key], oldRead = snapshot.readBase[key]
                guard !unresolved.contains(key) else { continue }
                // An entry taken from the external side takes its read fingerprint.
                let readFingerprint = read[key]
                if old != version.fingerprint || oldRead != readFingerprint {
                    baseChanges[key] = BaseEntry(fingerprint: version.fingerprint, readFingerprint: readFingerprint)
                }
            }
            // What the file lacks may be in the part that is missing: every such item keeps its entry, whether its
            // deletion was withheld or it was changed here (else a later local delete would look like one of an item
            // the source never had). Otherwise what the source no longer has leaves the base.
            if !options.isTruncated, !options.keepsAbsent {
                for key in snapshot.base.keys where external[key] == nil && !withheld.contains(key) {
                    baseChanges[key] = .some(nil)
                }
            }
            // The digest marks the base as exactly this file's: not while conflicts or a cut keep old entries.
            newDigest =
                unresolved.isEmpty && withheld.isEmpty && !options.isTruncated && !options.keepsAbsent
                ? options.digest : nil
        }

        /// The base's fingerprint of a key once this plan is written.
        func newBase(_ key: MergeKey) -> String? {
            if let change = baseChanges[key] { return change?.fingerprint }
            return snapshot.base[key]
        }

        var changesSomething: Bool {
            actions.contains { [.add, .update, .merge, .delete, .keepBoth].contains($0.kind) } || !baseChanges.isEmpty
                || newDigest != snapshot.digest
        }

        func write(_ item: (MergeKey) -> MergeItem?, _ timeZones: [TimeZoneDefinition]) -> MergeWrite {
            var write = MergeWrite(baseChanges: baseChanges, digest: newDigest, timeZones: timeZones)
            // Only for entries that now say what the external side says (an unresolved conflict keeps its old one).
            write.baseContents = baseContents.filter { newBase($0.key) == external[$0.key]?.fingerprint }
            for action in actions {
                switch action.kind {
                case .add, .update:
                    if let item = item(action.key) { write.upserts.append(item) }
                case .merge:
                    if let item = merged[action.key] { write.upserts.append(item) }
                case .delete:
                    write.deletions.append(action.key)
                case .keepBoth:
                    if let item = item(action.key), let copy = CalendarMerger.copy(of: item) {
                        write.upserts.append(copy)
                    }
                case .keepLocal, .stayDeleted, .unchanged, .conflict:
                    break
                }
            }
            return write
        }
    }

    /// The external version of a conflicting item as an item of its own, linked to the local one by RELATED-TO.
    static func copy(of item: MergeItem) -> MergeItem? {
        let uid = item.key.uid + "-external-" + item.version.fingerprint.prefix(8)
        let relation = Relation(uid: item.key.uid, type: "SIBLING")
        let copy: CalendarComponent
        switch item.item {
        case .event(var event):
            (event.uid, event.recurrenceID) = (uid, nil)
            event.relatedTo.append(relation)
            copy = .event(event)
        case .todo(var todo):
            (todo.uid, todo.recurrenceID) = (uid, nil)
            todo.relatedTo.append(relation)
            copy = .todo(todo)
        case .journal(var journal):
            (journal.uid, journal.recurrenceID) = (uid, nil)
            journal.relatedTo.append(relation)
            copy = .journal(journal)
        case .timeZone, .other:
            return nil
        }
        return MergeItem(copy, time: CalendarTime(calendar: ICalendar(), viewerZone: "UTC"))
    }
}
