import CalendarModel
import CalendarStore
import Foundation

/// What a merge decided and did.
public struct MergeResult: Sendable {
    public var actions: [MergeAction]
    /// Whether the store was changed (false for a dry run or when nothing changed).
    public var applied: Bool

    public func count(_ kinds: MergeAction.Kind...) -> Int { actions.filter { kinds.contains($0.kind) }.count }
    public var added: Int { count(.add, .keepBoth) }
    public var updated: Int { count(.update) }
    public var deleted: Int { count(.delete) }
    public var unchanged: Int { count(.unchanged, .keepLocal, .stayDeleted) }
    /// Items both sides changed (resolved or not).
    public var conflicts: Int { actions.filter(\.wasConflict).count }
    /// Conflicts left unresolved (`--on-conflict fail`).
    public var unresolved: Int { count(.conflict) }
}

/// Reconciles an external calendar with a store calendar: plans with `MergePlanner`, then applies the plan in one
/// transaction and records the new merge base.
public enum CalendarMerger {
    /// The merge of a file whose bytes have the digest the source's last merge recorded, planned from the merge
    /// base without reading the file: every external item equals its base, so nothing can be added, updated,
    /// deleted or in conflict, and the plan (unchanged / keep-local / stay-deleted) is the one a full merge makes.
    /// Nil when the digest differs (or none was recorded): then the file has to be merged in full.
    public static func mergeUnchangedFile(digest: String, into calendar: String, source: String,
                                          store: CalendarStore) throws -> MergeResult? {
        let snapshot = try store.syncSnapshot(calendar: calendar, source: source)
        guard snapshot.digest == digest else { return nil }
        let (local, base) = sides(of: snapshot)
        let external = base.mapValues { ItemVersion(fingerprint: $0, sequence: 0, lastModified: nil, stamp: nil) }
        let tombstones = Set(snapshot.tombstones.map { MergeKey(uid: $0.uid, recurrenceID: $0.recurrenceID) })
        let actions = MergePlanner.plan(MergeState(external: external, local: local, base: base, tombstones: tombstones))
        return MergeResult(actions: actions, applied: false)
    }

    /// Merges `external` (read from a file with `digest`, when known: recorded so an identical re-run is cheap).
    public static func merge(_ external: [ICalendar], into calendar: String, source: String, store: CalendarStore,
                             prefer: MergePreference = .newest, onConflict: ConflictHandling? = nil,
                             dryRun: Bool = false, forceDelete: Bool = false,
                             digest: String? = nil) throws -> MergeResult {
        // The external side, keyed and fingerprinted exactly as the store keys and fingerprints what it holds.
        var components: [MergeKey: CalendarComponent] = [:]
        var versions: [MergeKey: ItemVersion] = [:]
        var timeZones: [TimeZoneDefinition] = []
        for source in external.map({ $0.resolvingWRTimeZone() }) {
            timeZones += source.timeZones
            let time = CalendarTime(calendar: source, viewerZone: "UTC")
            for component in source.components where ["VEVENT", "VTODO", "VJOURNAL"].contains(component.name) {
                let stored = storedForm(of: component)
                let key = MergeKey(uid: stored.uid, recurrenceID: component.identity.recurrenceID)
                guard components[key] == nil else { continue }  // a duplicate: the first one counts
                components[key] = component
                let core = Self.core(of: component)
                func seconds(_ date: CalendarDate?) -> Int64? {
                    date.map { Int64(time.date(of: $0).timeIntervalSince1970) }
                }
                versions[key] = ItemVersion(fingerprint: stored.component.fingerprint, sequence: core?.sequence ?? 0,
                                            lastModified: seconds(core?.lastModified), stamp: seconds(core?.stamp))
            }
        }
        let snapshot = try store.syncSnapshot(calendar: calendar, source: source)
        let (local, base) = sides(of: snapshot)
        if versions.isEmpty, !base.isEmpty, !forceDelete {
            throw StoreError("the external calendar holds no items while \(base.count) items of \"\(calendar)\" came "
                + "from it; refusing to delete them all (use --force-delete if that is meant)")
        }
        let tombstones = Set(snapshot.tombstones.map { MergeKey(uid: $0.uid, recurrenceID: $0.recurrenceID) })
        let actions = MergePlanner.plan(MergeState(external: versions, local: local, base: base,
                                                   tombstones: tombstones), prefer: prefer, onConflict: onConflict)
        var changes: [StoreChange] = []
        for action in actions {
            switch action.kind {
            case .add, .update:
                if let external = components[action.key] { changes.append(.upsert(external)) }
            case .delete:
                changes.append(.delete(uid: action.key.uid, recurrenceID: action.key.recurrenceID))
            case .keepBoth:
                if let external = components[action.key] { changes.append(copy(of: external, action.key)) }
            case .keepLocal, .stayDeleted, .unchanged, .conflict:
                break
            }
        }
        // The new base: what the source says now; an unresolved conflict keeps the old one, so it stays a conflict.
        let unresolved = Set(actions.filter { $0.kind == .conflict }.map(\.key))
        var newBase: [(uid: String, recurrenceID: String, fingerprint: String)] = []
        for (key, version) in versions {
            let fingerprint = unresolved.contains(key) ? base[key] : version.fingerprint
            if let fingerprint { newBase.append((key.uid, key.recurrenceID, fingerprint)) }
        }
        let baseChanged = newBase.count != base.count || newBase.contains { base[MergeKey(uid: $0.uid,
                                                                                           recurrenceID: $0.recurrenceID)] != $0.fingerprint }
        // The digest marks the base as exactly this file's; not so while conflicts keep old base entries.
        let newDigest = unresolved.isEmpty ? digest : nil
        let apply = !dryRun && (!changes.isEmpty || baseChanged || newDigest != snapshot.digest)
        if apply {
            try store.apply(changes, to: calendar, source: source, base: baseChanged ? newBase : nil,
                            digest: newDigest, timeZones: timeZones)
        }
        return MergeResult(actions: actions, applied: apply)
    }

    /// The store's items and the source's merge base, keyed for the planner.
    private static func sides(of snapshot: SyncSnapshot) -> (local: [MergeKey: ItemVersion], base: [MergeKey: String]) {
        var local: [MergeKey: ItemVersion] = [:]
        for (uid, byID) in snapshot.items {
            for (recurrenceID, version) in byID {
                local[MergeKey(uid: uid, recurrenceID: recurrenceID)] = ItemVersion(
                    fingerprint: version.fingerprint, sequence: version.sequence, lastModified: version.lastModified,
                    stamp: version.stamp)
            }
        }
        var base: [MergeKey: String] = [:]
        for (uid, byID) in snapshot.base {
            for (recurrenceID, fingerprint) in byID { base[MergeKey(uid: uid, recurrenceID: recurrenceID)] = fingerprint }
        }
        return (local, base)
    }

    private static func core(of component: CalendarComponent) -> ItemCore? {
        switch component {
        case .event(let event): return event.core
        case .todo(let todo): return todo.core
        case .journal(let journal): return journal.core
        default: return nil
        }
    }

    /// The external version of a conflicting item as an item of its own, linked to the local one by RELATED-TO.
    private static func copy(of component: CalendarComponent, _ key: MergeKey) -> StoreChange {
        let uid = key.uid + "-external-" + component.component.fingerprint.prefix(8)
        let relation = Relation(uid: key.uid, type: "SIBLING")
        switch component {
        case .event(var event):
            event.uid = uid
            event.recurrenceID = nil
            event.relatedTo.append(relation)
            return .upsert(.event(event))
        case .todo(var todo):
            todo.uid = uid
            todo.recurrenceID = nil
            todo.relatedTo.append(relation)
            return .upsert(.todo(todo))
        case .journal(var journal):
            journal.uid = uid
            journal.recurrenceID = nil
            journal.relatedTo.append(relation)
            return .upsert(.journal(journal))
        default:
            return .upsert(component)
        }
    }
}
