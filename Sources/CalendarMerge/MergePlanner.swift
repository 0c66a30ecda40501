import CalendarModel
import Foundation

/// An item's identity across a store and an external calendar.
public struct MergeKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The item's UID.
    public var uid: String { didSet { digest = Self.digest(uid, recurrenceID) } }
    /// RECURRENCE-ID as written, or "" for a master or single item.
    public var recurrenceID: String { didSet { digest = Self.digest(uid, recurrenceID) } }
    /// A digest of both, worked out once: a merge looks each key up in several dictionaries of tens of thousands,
    /// and hashing one word (and comparing it before the text) is what keeps those lookups cheap. Keys are
    /// therefore equal when their bytes are, as the store and CalDAV servers compare UIDs.
    private var digest: UInt64

    /// A key for a master (no recurrence ID) or an override.
    public init(uid: String, recurrenceID: String = "") {
        self.uid = uid
        self.recurrenceID = recurrenceID
        digest = Self.digest(uid, recurrenceID)
    }

    private static func digest(_ uid: String, _ recurrenceID: String) -> UInt64 {
        var digest = FNV1a()
        digest.add(uid)
        digest.add(UInt8(0))
        digest.add(recurrenceID)
        return digest.value
    }

    public static func == (lhs: MergeKey, rhs: MergeKey) -> Bool {
        lhs.digest == rhs.digest && lhs.uid == rhs.uid && lhs.recurrenceID == rhs.recurrenceID
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(digest) }

    /// By UID, then recurrence ID (masters first), each by its UTF-8 bytes (the order of the code points), as
    /// keys are equal by their bytes; a merge sorts tens of thousands.
    public static func < (lhs: MergeKey, rhs: MergeKey) -> Bool {
        let byUID = order(lhs.uid, rhs.uid)
        return byUID != 0 ? byUID < 0 : order(lhs.recurrenceID, rhs.recurrenceID) < 0
    }

    /// Negative, zero or positive as `lhs`'s bytes come before, equal or after `rhs`'s.
    static func order(_ lhs: String, _ rhs: String) -> Int {
        let ordered = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                let common = min(left.count, right.count)
                if common > 0, let a = left.baseAddress, let b = right.baseAddress {
                    let order = memcmp(a, b, common)
                    if order != 0 { return Int(order) }
                }
                return left.count - right.count
            }
        }
        if let ordered, let ordered { return ordered }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8) ? -1 : lhs.utf8.elementsEqual(rhs.utf8) ? 0 : 1
    }

    /// The first eight bytes of the UID as a number that orders as they do (shorter UIDs padded with zeros).
    var uidPrefix: UInt64 {
        var prefix: UInt64 = 0, taken = 0
        for byte in uid.utf8.prefix(8) {
            prefix = prefix << 8 | UInt64(byte)
            taken += 1
        }
        return taken == 0 ? 0 : prefix << (8 * UInt64(8 - taken))
    }

    /// Keys in order, sorted by their UID's first bytes as numbers and only by their text where those are equal:
    /// a merge sorts tens of thousands, and comparing text is what made that slow.
    static func sorted(_ keys: [MergeKey]) -> [MergeKey] {
        var order = keys.indices.map { (prefix: keys[$0].uidPrefix, index: Int32($0)) }
        order.sort { a, b in
            a.prefix != b.prefix ? a.prefix < b.prefix : keys[Int(a.index)] < keys[Int(b.index)]
        }
        return order.map { keys[Int($0.index)] }
    }

    /// `uid`, or `uid @ recurrence-id` for an override.
    public var description: String { recurrenceID.isEmpty ? uid : "\(uid) @ \(recurrenceID)" }
}

/// One side's version of an item: its fingerprint and what says how new it is.
public struct ItemVersion: Sendable, Hashable {
    /// What the item says (`Component.fingerprint`): equal fingerprints mean the same item.
    public var fingerprint: String
    /// Where this version stands among the item's versions (SEQUENCE, then DTSTAMP).
    public var revision: Revision
    /// When this side last changed the item: LAST-MODIFIED in seconds since 1970, when present.
    public var lastModified: Int64?

    /// A version from its fingerprint, revision and LAST-MODIFIED.
    public init(fingerprint: String, revision: Revision = Revision(), lastModified: Int64? = nil) {
        self.fingerprint = fingerprint
        self.revision = revision
        self.lastModified = lastModified
    }

    /// A version from its fingerprint and the fields `isNewer` compares.
    public init(fingerprint: String, sequence: Int = 0, lastModified: Int64? = nil, stamp: Int64? = nil) {
        self.init(
            fingerprint: fingerprint, revision: Revision(sequence: sequence, stamp: stamp), lastModified: lastModified)
    }

    /// Whose change came later: the later LAST-MODIFIED (DTSTAMP where there is none), then the newer `Revision`.
    /// The time of the change comes first because a field both sides changed is a question of which edit came
    /// last, and peers such as khal and todoman never raise SEQUENCE while ICSKit does on every edit.
    public func isNewer(than other: ItemVersion) -> Bool {
        func changed(_ version: ItemVersion) -> Int64 { version.lastModified ?? version.revision.stamp ?? .min }
        return (changed(self), revision) > (changed(other), other.revision)
    }
}

/// Everything the planner looks at: the external calendar, the store's calendar, and the merge base.
public struct MergeState: Sendable {
    /// What the external calendar holds now.
    public var external: [MergeKey: ItemVersion]
    /// What the kept calendar holds now.
    public var local: [MergeKey: ItemVersion]
    /// What the external source said at the last merge (fingerprints).
    public var base: [MergeKey: String]
    /// Items deleted in the store.
    public var tombstones: Set<MergeKey>

    /// The three sides and the local deletions.
    public init(
        external: [MergeKey: ItemVersion], local: [MergeKey: ItemVersion], base: [MergeKey: String],
        tombstones: Set<MergeKey> = []
    ) {
        self.external = external
        self.local = local
        self.base = base
        self.tombstones = tombstones
    }
}

/// Which side wins when both changed an item.
public enum MergePreference: String, Sendable, CaseIterable {
    /// The side whose change came later (`ItemVersion.isNewer`); the local version on a tie.
    case newest
    case external
    case local
}

/// What to do with conflicts instead of resolving them by preference.
public enum ConflictHandling: String, Sendable, CaseIterable {
    /// Leave them unresolved and report them (exit 1).
    case fail
    /// Keep the local version and add the external one beside it, linked by RELATED-TO.
    case keepBoth = "keep-both"
}

/// One decision of a merge.
public struct MergeAction: Sendable, Hashable {
    /// What happens to one item.
    public enum Kind: String, Sendable {
        /// New in the external calendar: added to the store.
        case add
        /// Changed externally (or won a conflict): the store takes the external version.
        case update
        /// Changed on both sides since the merge base: merged field by field (`PropertyMerge`), each side's changes
        /// kept and a field both changed differently taken from the preferred side.
        case merge = "merged"
        /// Gone from the external calendar and unchanged in the store: deleted.
        case delete
        /// Changed only in the store, or only there, or a conflict the store's version won: kept as it is.
        case keepLocal = "keep-local"
        /// Deleted in the store and not changed externally since: stays deleted.
        case stayDeleted = "stay-deleted"
        /// The same on both sides.
        case unchanged
        /// Changed on both sides: the local version stays, the external one is added beside it.
        case keepBoth = "keep-both"
        /// Changed on both sides and left unresolved (`--on-conflict fail`).
        case conflict
    }

    /// The item decided on.
    public var key: MergeKey
    /// What happens to it.
    public var kind: Kind
    /// One line on why.
    public var reason: String
    /// Whether both sides changed it (a field of it, when it was merged field by field) to different values.
    public var wasConflict: Bool
    /// Whether a report names this decision: it changes the store, was a conflict, or names changed fields.
    public var changesSomething: Bool {
        switch kind {
        case .unchanged, .stayDeleted, .keepLocal: return wasConflict || !changes.isEmpty
        case .add, .update, .merge, .delete, .keepBoth, .conflict: return true
        }
    }

    /// The fields the decision changes or weighed: for an update, what the external version changes; for a merge,
    /// every field either side changed, with its side (and, for a conflict, both values and the winner).
    public var changes: [FieldChange] = []
    /// How a person knows the item: its SUMMARY and its start (`2026-11-24 09:00 Europe/Berlin`), from the external
    /// version, else the stored one. Set by `CalendarMerger`; nil when neither side says.
    public var title: String?
    public var start: String?
}

/// The merge decision table (vdirsyncer-style three-way merge), as a pure function of the state.
public enum MergePlanner {
    /// Decides every item the three sides name, sorted by key. Pure: it reads nothing and writes nothing.
    public static func plan(
        _ state: MergeState, prefer: MergePreference = .newest,
        onConflict: ConflictHandling? = nil
    ) -> [MergeAction] {
        // The calendar's keys, then those only the other sides name: looked up, not inserted into a new set (a
        // merge of a large calendar names tens of thousands, nearly all on every side).
        var keys = Array(state.local.keys)
        keys += state.external.keys.filter { state.local[$0] == nil }
        keys += state.base.keys.filter { state.local[$0] == nil && state.external[$0] == nil }
        keys += state.tombstones.filter {
            state.local[$0] == nil && state.external[$0] == nil && state.base[$0] == nil
        }
        let actions = MergeKey.sorted(keys).compactMap { key in
            decide(
                key, external: state.external[key], local: state.local[key], base: state.base[key],
                deleted: state.tombstones.contains(key), prefer: prefer, onConflict: onConflict)
        }
        return keepingSeriesWhole(actions, state)
    }

    /// A series (one UID: master and overrides) is one unit when a deletion meets a change, as vdirsyncer keeps one
    /// item: when part of a series deleted here changed externally, the whole series comes back (else a moved
    /// instance would stay deleted under a master that recurs again, and the store would differ from the source for
    /// good); when part of a series deleted externally changed here, the whole series stays.
    static func keepingSeriesWhole(_ actions: [MergeAction], _ state: MergeState) -> [MergeAction] {
        var revived: Set<String> = [], kept: Set<String> = []
        for action in actions {
            if action.kind == .update, state.local[action.key] == nil { revived.insert(action.key.uid) }
            if action.kind == .keepLocal, state.external[action.key] == nil, state.base[action.key] != nil {
                kept.insert(action.key.uid)
            }
        }
        guard !revived.isEmpty || !kept.isEmpty else { return actions }
        return actions.map { action in
            var action = action
            if action.kind == .stayDeleted, revived.contains(action.key.uid) {
                action.kind = .update
                action.reason = "deleted here, but its series changed externally since: restored with it"
            } else if action.kind == .delete, kept.contains(action.key.uid) {
                action.kind = .keepLocal
                action.reason = "gone from the external calendar, but its series changed here: kept with it"
            }
            return action
        }
    }

    static func decide(
        _ key: MergeKey, external: ItemVersion?, local: ItemVersion?, base: String?, deleted: Bool,
        prefer: MergePreference, onConflict: ConflictHandling?
    ) -> MergeAction? {
        func action(_ kind: MergeAction.Kind, _ reason: String, conflict: Bool = false) -> MergeAction {
            MergeAction(key: key, kind: kind, reason: reason, wasConflict: conflict)
        }
        switch (external, local) {
        case (let external?, nil):
            if deleted {
                // Deleted here: it stays deleted unless the external side changed it since (an edit beats a deletion).
                if let base, base != external.fingerprint {
                    return action(.update, "changed externally after it was deleted here")
                }
                return action(.stayDeleted, "deleted here, unchanged externally")
            }
            // Only `rm` deletes here (with a tombstone); an item a merge took away because the source lacked it
            // (a cut file deleted with --force-delete) comes back when the source has it again.
            if base != nil { return action(.add, "in the external calendar again, and never deleted here: restored") }
            return action(.add, "new in the external calendar")
        case (nil, let local?):
            guard let base else { return action(.keepLocal, "only in the store") }
            return base == local.fingerprint
                ? action(.delete, "gone from the external calendar, unchanged here")
                : action(.keepLocal, "gone from the external calendar but changed here (a change beats a delete)")
        case (nil, nil):
            return base == nil ? nil : action(.unchanged, "gone from both sides")
        case (let external?, let local?):
            if external.fingerprint == local.fingerprint { return action(.unchanged, "the same on both sides") }
            if let base {
                if base == local.fingerprint { return action(.update, "changed externally") }
                if base == external.fingerprint { return action(.keepLocal, "changed here") }
            }
            return resolve(
                action, external: external, local: local, hadBase: base != nil, prefer: prefer,
                onConflict: onConflict)
        }
    }

    private static func resolve(
        _ action: (MergeAction.Kind, String, Bool) -> MergeAction, external: ItemVersion,
        local: ItemVersion, hadBase: Bool, prefer: MergePreference,
        onConflict: ConflictHandling?
    ) -> MergeAction {
        let why = hadBase ? "changed on both sides" : "different on both sides with no merge before"
        switch onConflict {
        case .fail?: return action(.conflict, why, true)
        case .keepBoth?: return action(.keepBoth, why + "; both kept", true)
        case nil:
            switch prefer {
            case .external: return action(.update, why + "; the external version wins (--prefer external)", true)
            case .local: return action(.keepLocal, why + "; the local version wins (--prefer local)", true)
            case .newest:
                return external.isNewer(than: local)
                    ? action(.update, why + "; the external version is newer", true)
                    : action(.keepLocal, why + "; the local version is as new or newer", true)
            }
        }
    }
}
