import CalendarMerge
import CalendarModel
import Foundation

/// Two-way sync of a store calendar with a `SyncStorage`, as two steps over one merge base:
///
/// 1. **Pull.** The partner's resources are merged into the store by `CalendarMerger` (three-way per UID and
///    RECURRENCE-ID against what the partner said at the last sync, with merge's conflict policy and guards: an
///    emptied partner deletes nothing without `--force-delete`). Local edits and deletions survive it as
///    keep-local and stay-deleted.
/// 2. **Push.** Every resource whose items now differ from the store's is written back with a conditional write
///    (one resource per UID with its overrides); local items the partner lacks are created, and resources whose
///    items were deleted here are deleted. Each write is recorded with the new base of its items at once, so a sync
///    killed at any point leaves a state the next sync finishes from: a written resource that was not recorded is
///    read back as equal to the store and recorded then (no duplicate, nothing lost). A resource someone changed in
///    between is not overwritten: it is left for the next sync, which merges it.
public enum TwoWaySync {
    /// What a sync may do.
    public struct Options: Sendable {
        /// The pull's merge options (conflict policy, guards, dry run).
        public var merge = MergeOptions()
        /// How many list-pull-push rounds one sync may take when resources change under it.
        public var rounds = 3
        /// Hears how far a long transfer got (`"written 1200 of 5000"`), at most every 100 resources.
        public var progress: (@Sendable (String) -> Void)?
        /// Writes each resource as `convert --repair` writes it (the shapes strict servers refuse, mended) and sends
        /// again what the partner refused before; the store keeps its items as they are until the repaired copies
        /// come back from the partner.
        public var repair = false
        public init() {}
    }

    /// What one sync did.
    public struct Report: Sendable {
        /// The pull: what the store took from the partner.
        public var pulled: MergeResult
        /// Resources written to the partner: created, updated, deleted (hrefs).
        public var created: [String] = []
        public var updated: [String] = []
        public var deleted: [String] = []
        /// Resources that changed on the partner while the sync ran: left for the next sync.
        public var deferred: [String] = []
        /// What the reader found wrong in the partner's resources.
        public var diagnostics: [Diagnostic] = []
        /// Whether nothing had changed on either side since the last sync (nothing was read).
        public var wasIdle = false
        /// What the partner refused to store: now, or earlier and not sent again since (unchanged here).
        public var refused: [Refused] = []

        /// Every write to the partner, as `create`, `update` or `delete` and the resource (a dry run's: planned).
        public var writes: [(verb: String, href: String)] {
            created.map { ("create", $0) } + updated.map { ("update", $0) } + deleted.map { ("delete", $0) }
        }
    }

    /// A UID the partner refused to store, with its title and the partner's reason.
    public struct Refused: Sendable, Hashable {
        /// The UID refused.
        public var uid: String
        /// Its SUMMARY, for the report.
        public var title: String?
        /// The partner's status and reason (`HTTP 400: …`).
        public var reason: String
        /// Refused by this sync (false: refused earlier, unchanged here since, and not sent again).
        public var isNew: Bool
    }

    public static func sync(
        calendar: String, storage: some SyncStorage, store: some SyncKeeping, options: Options = Options()
    ) throws -> Report {
        // A resource changed by someone else between the listing and the write (412) is fetched, merged and
        // written again in another round, a few times at most; what is still deferred then waits for the next sync.
        var report = try round(calendar: calendar, storage: storage, store: store, options: options)
        var rounds = 1
        while !report.deferred.isEmpty, rounds < options.rounds, !options.merge.dryRun {
            let again = try round(calendar: calendar, storage: storage, store: store, options: options)
            report.pulled = MergeResult(
                actions: report.pulled.actions
                    + again.pulled.actions.filter { ![.unchanged, .keepLocal, .stayDeleted].contains($0.kind) },
                applied: report.pulled.applied || again.pulled.applied,
                withheldDeletions: again.pulled.withheldDeletions)
            report.created += again.created
            report.updated += again.updated
            report.deleted += again.deleted
            report.deferred = again.deferred
            report.diagnostics += again.diagnostics
            let known = Set(report.refused.map(\.uid))
            report.refused += again.refused.filter { !known.contains($0.uid) }
            rounds += 1
        }
        return report
    }

    /// What the partner holds now, resource by resource: its version token, its UIDs, and its items'
    /// fingerprints (read now, or as the merge base says for a resource that did not change).
    typealias Resources = [String: (etag: String, uids: Set<String>, theirs: [MergeKey: String])]

    /// What a round read of the partner's changed resources.
    struct Fetched {
        var resources: [String: (etag: String, items: [MergeKey: MergeItem])] = [:]
        var timeZones: [TimeZoneDefinition] = []
        var diagnostics: [Diagnostic] = []
    }

    /// One list, pull and push.
    static func round(
        calendar: String, storage: some SyncStorage, store: some SyncKeeping, options: Options
    ) throws -> Report {
        let partner = storage.identity
        let known = try store.syncResources(calendar: calendar, partner: partner)
        let (listing, token) = try list(
            storage, known: known, token: store.syncToken(calendar: calendar, partner: partner))
        let snapshot = try store.mergeSnapshot(calendar: calendar, source: partner)
        // The token is kept only once the round has taken what it reported: a refused, failed or interrupted
        // round asks again from the old one.
        func keepToken() throws {
            if let token, !options.merge.dryRun { try store.setSyncToken(token, calendar: calendar, partner: partner) }
        }
        if isIdle(listing: listing, known: known, snapshot: snapshot) {
            try keepToken()
            return try idle(calendar: calendar, partner: partner, store: store, snapshot: snapshot)
        }
        // Read what changed on the partner: resources that are new or have another version token. The others are
        // as the merge base says (their content is not needed to decide anything about them).
        let changed = listing.filter { known[$0.href]?.etag != $0.etag }.map(\.href)
        if changed.count > 100 { options.progress?("fetching \(changed.count) changed resources") }
        let fetched = try fetch(changed, from: storage)
        let resources = current(listing, fetched: fetched, known: known, snapshot: snapshot)
        var report = Report(pulled: MergeResult())
        report.diagnostics = fetched.diagnostics

        // 1. Pull.
        var items: [MergeKey: MergeItem] = [:]
        for resource in fetched.resources.values { items.merge(resource.items) { first, _ in first } }
        let unchanged = Set(
            resources.filter { fetched.resources[$0.key] == nil }.values.flatMap { Array($0.theirs.keys) })
        report.pulled = try CalendarMerger.merge(
            items: items, unchanged: unchanged, timeZones: fetched.timeZones, calendarParts: [], into: calendar,
            source: partner, storage: store, options: options.merge)
        if options.merge.dryRun {
            let writes = plannedWrites(
                report.pulled.actions, snapshot: snapshot, resources: resources.mapValues { ($0.uids, $0.theirs) },
                storage: storage)
            (report.created, report.updated, report.deleted) = (writes.create, writes.update, writes.delete)
            return report
        }

        // 2. Push what the store now holds.
        try push(
            &report, calendar: calendar, storage: storage, store: store, resources: resources, known: known,
            fetched: fetched, options: options)
        try keepToken()
        return report
    }

    /// Pushes what the store holds after the pull: resources written and deleted, refusals recorded, resources that
    /// went away on the partner forgotten.
    private static func push(
        _ report: inout Report, calendar: String, storage: some SyncStorage, store: some SyncKeeping,
        resources: Resources, known: [String: SyncResource], fetched: Fetched, options: Options
    ) throws {
        var push = try Push(
            calendar: calendar, storage: storage, store: store, resources: resources, progress: options.progress,
            repair: options.repair)
        try push.run(readNow: Set(fetched.resources.keys))
        (report.created, report.updated, report.deleted) = (push.created, push.updated, push.deleted)
        report.deferred = push.deferred
        report.refused = push.refused
        try store.recordSyncRefusals(
            calendar: calendar, partner: storage.identity,
            refused: push.refused.filter(\.isNew).map {
                SyncRefusal(uid: $0.uid, fingerprint: push.refusalKey($0.uid), reason: $0.reason)
            }, accepted: push.accepted)
        // Resources that went away on the partner.
        push.pending.forgetting += known.keys.filter { resources[$0] == nil }
        try push.flush()
    }

    /// The report of a round in which nothing changed; what the partner refused and the store no longer holds is
    /// forgotten.
    private static func idle(
        calendar: String, partner: String, store: some SyncKeeping, snapshot: MergeSnapshot
    ) throws -> Report {
        var report = Report(pulled: MergeResult())
        report.wasIdle = true
        let held = Set(snapshot.items.keys.map(\.uid))
        let gone = try store.syncRefusals(calendar: calendar, partner: partner).keys.filter { !held.contains($0) }
        try store.recordSyncRefusals(calendar: calendar, partner: partner, refused: [], accepted: Array(gone))
        return report
    }

    /// Nothing changed on either side: every resource as recorded, every item as the base says.
    static func isIdle(
        listing: [(href: String, etag: String)], known: [String: SyncResource], snapshot: MergeSnapshot
    ) -> Bool {
        let unchangedThere =
            listing.count == known.count && listing.allSatisfy { known[$0.href]?.etag == $0.etag }
        let unchangedHere =
            snapshot.items.count == snapshot.base.count
            && snapshot.items.allSatisfy { snapshot.base[$0.key] == $0.value.fingerprint }
        return unchangedThere && unchangedHere && (!known.isEmpty || snapshot.items.isEmpty)
    }

    /// Reads these resources of the partner; their items, and one copy of each TZID's VTIMEZONE (each resource
    /// carries its own copy of the zones it uses).
    static func fetch(_ hrefs: [String], from storage: some SyncStorage) throws -> Fetched {
        var fetched = Fetched()
        for resource in try storage.fetch(hrefs) {
            let read = ICS.read(resource.bytes, file: partnerPath(storage.identity, resource.href))
            fetched.diagnostics += read.diagnostics
            let (items, zones) = CalendarMerger.items(of: read.calendars)
            fetched.resources[resource.href] = (resource.etag, items)
            for zone in zones where !fetched.timeZones.contains(where: { $0.tzid == zone.tzid }) {
                fetched.timeZones.append(zone)
            }
        }
        return fetched
    }

    /// Every resource of the listing as the partner holds it now.
    static func current(
        _ listing: [(href: String, etag: String)], fetched: Fetched, known: [String: SyncResource],
        snapshot: MergeSnapshot
    ) -> Resources {
        var resources: Resources = [:]
        for entry in listing {
            if let resource = fetched.resources[entry.href] {
                resources[entry.href] = (
                    resource.etag, Set(resource.items.keys.map(\.uid)), resource.items.mapValues(\.version.fingerprint)
                )
            } else if let old = known[entry.href] {
                // Unchanged; or changed again (or gone) between the listing and the fetch: then it counts as the
                // base says for now, its write (conditional on the old version) is deferred, and the next sync
                // takes what it became. Never as gone, which would delete its items here.
                let uids = Set(old.uids)
                resources[entry.href] = (old.etag, uids, snapshot.base.filter { uids.contains($0.key.uid) })
            }
            // Else: new, and gone or changing before it could be read: the next sync takes it.
        }
        return resources
    }

    /// What the push after this pull would write (a dry run's report): the store as the pull leaves it, compared
    /// resource by resource with what the partner holds, as the push compares them.
    static func plannedWrites(
        _ actions: [MergeAction], snapshot: MergeSnapshot,
        resources: [String: (uids: Set<String>, theirs: [MergeKey: String])], storage: some SyncStorage
    ) -> (create: [String], update: [String], delete: [String]) {
        var after = snapshot.items.mapValues(\.fingerprint)
        var theirs: [MergeKey: String] = [:]
        for resource in resources.values { theirs.merge(resource.theirs) { first, _ in first } }
        var copies: Set<String> = []
        for action in actions {
            switch action.kind {
            case .add, .update: after[action.key] = theirs[action.key] ?? "external"
            case .merge: after[action.key] = "merged"
            case .delete: after[action.key] = nil
            case .keepBoth: copies.insert(action.key.uid + " (external copy)")
            case .keepLocal, .stayDeleted, .unchanged, .conflict: break
            }
        }
        var byUID: [String: [MergeKey: String]] = [:]
        for (key, fingerprint) in after { byUID[key.uid, default: [:]][key] = fingerprint }
        var writes: (create: [String], update: [String], delete: [String]) = ([], [], [])
        for (href, resource) in resources.sorted(by: { $0.key < $1.key }) {
            var mine: [MergeKey: String] = [:]
            for uid in resource.uids { mine.merge(byUID[uid] ?? [:]) { first, _ in first } }
            if mine.isEmpty, !resource.uids.isEmpty {
                writes.delete.append(href)
            } else if !mine.isEmpty, mine != resource.theirs {
                writes.update.append(href)
            }
        }
        let remote = Set(resources.values.flatMap(\.uids))
        writes.create =
            byUID.keys.filter { !remote.contains($0) }.sorted().map { storage.href(forUID: $0) }
            + copies.sorted()
        return writes
    }

    /// The partner's resources and their version tokens: from what changed since the last token when the storage
    /// can say (the recorded resources, updated), else listed in full; a rejected token means a full listing.
    static func list(
        _ storage: some SyncStorage, known: [String: SyncResource], token: String?
    ) throws -> (listing: [(href: String, etag: String)], token: String?) {
        guard let incremental = storage as? any IncrementalSyncStorage else { return (try storage.list(), nil) }
        var changes: SyncChanges
        var isComplete = token == nil || known.isEmpty
        do {
            changes = try incremental.changes(since: isComplete ? nil : token)
        } catch SyncStorageError.tokenRejected {
            changes = try incremental.changes(since: nil)
            isComplete = true
        } catch SyncStorageError.failed {
            // A server without sync-collection: list it all, every time.
            return (try storage.list(), nil)
        }
        if isComplete { return (changes.changed, changes.token) }
        var etags = known.mapValues(\.etag)
        for href in changes.removed { etags[href] = nil }
        for entry in changes.changed { etags[entry.href] = entry.etag }
        return (etags.map { ($0.key, $0.value) }.sorted { $0.href < $1.href }, changes.token)
    }

    static func partnerPath(_ partner: String, _ href: String) -> String {
        partner.hasPrefix("vdir:") ? String(partner.dropFirst(5)) + "/" + href : href
    }
}
