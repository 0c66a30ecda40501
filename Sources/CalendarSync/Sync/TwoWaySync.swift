import CalendarMerge
import CalendarModel
import CalendarStore
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

        /// Every write to the partner, as `create`, `update` or `delete` and the resource (a dry run's: planned).
        public var writes: [(verb: String, href: String)] {
            created.map { ("create", $0) } + updated.map { ("update", $0) } + deleted.map { ("delete", $0) }
        }
    }

    public static func sync(
        calendar: String, storage: some SyncStorage, store: CalendarStore, options: Options = Options()
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
            rounds += 1
        }
        return report
    }

    /// One list, pull and push.
    static func round(
        calendar: String, storage: some SyncStorage, store: CalendarStore, options: Options
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

        // Nothing changed on either side: every resource as recorded, every item as the base says.
        let unchangedThere =
            listing.count == known.count && listing.allSatisfy { known[$0.href]?.etag == $0.etag }
        let unchangedHere =
            snapshot.items.count == snapshot.base.count
            && snapshot.items.allSatisfy { snapshot.base[$0.key] == $0.value.fingerprint }
        if unchangedThere, unchangedHere, !known.isEmpty || snapshot.items.isEmpty {
            var report = Report(pulled: MergeResult())
            report.wasIdle = true
            try keepToken()
            return report
        }
        // Read what changed on the partner: resources that are new or have another version token. The others are
        // as the merge base says (their content is not needed to decide anything about them).
        var report = Report(pulled: MergeResult())
        var fetched: [String: (etag: String, items: [MergeKey: MergeItem])] = [:]
        var timeZones: [TimeZoneDefinition] = []
        let changed = listing.filter { known[$0.href]?.etag != $0.etag }.map(\.href)
        if changed.count > 100 { options.progress?("fetching \(changed.count) changed resources") }
        for resource in try storage.fetch(changed) {
            let read = ICS.read(resource.bytes, file: partnerPath(partner, resource.href))
            report.diagnostics += read.diagnostics
            let (items, zones) = CalendarMerger.items(of: read.calendars)
            fetched[resource.href] = (resource.etag, items)
            // Each resource carries its own copy of the zones it uses: one of each TZID is enough.
            for zone in zones where !timeZones.contains(where: { $0.tzid == zone.tzid }) { timeZones.append(zone) }
        }
        var resources: [String: (etag: String, uids: Set<String>, theirs: [MergeKey: String])] = [:]
        for entry in listing {
            if let resource = fetched[entry.href] {
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
        let unchanged = Set(
            resources.filter { fetched[$0.key] == nil }.values.flatMap { Array($0.theirs.keys) })

        // 1. Pull.
        var items: [MergeKey: MergeItem] = [:]
        for resource in fetched.values { items.merge(resource.items) { first, _ in first } }
        report.pulled = try CalendarMerger.merge(
            items: items, unchanged: unchanged, timeZones: timeZones, calendarParts: [], into: calendar,
            source: partner, storage: store, options: options.merge)
        if options.merge.dryRun {
            let writes = plannedWrites(
                report.pulled.actions, snapshot: snapshot, resources: resources.mapValues { ($0.uids, $0.theirs) },
                storage: storage)
            (report.created, report.updated, report.deleted) = (writes.create, writes.update, writes.delete)
            return report
        }

        // 2. Push what the store now holds. Its fingerprints decide which resources differ from the partner's;
        // only the items of those (and of the UIDs the partner lacks) are read back from the store.
        let now = try store.mergeSnapshot(calendar: calendar, source: partner).items
        var keysByUID: [String: [MergeKey]] = [:]
        for key in now.keys { keysByUID[key.uid, default: []].append(key) }
        func ours(_ uids: Set<String>) -> [MergeKey: String] {
            var fingerprints: [MergeKey: String] = [:]
            for uid in uids { for key in keysByUID[uid] ?? [] { fingerprints[key] = now[key]?.fingerprint } }
            return fingerprints
        }
        let remoteUIDs = Set(resources.values.flatMap(\.uids))
        let localOnly = keysByUID.keys.filter { !remoteUIDs.contains($0) }.sorted()
        var toWrite = Set(localOnly)
        for resource in resources.values {
            let mine = ours(resource.uids)
            if !mine.isEmpty, mine != resource.theirs { toWrite.formUnion(resource.uids) }
        }
        let loaded = try store.loadItems(calendar: calendar, uids: toWrite)
        let (localItems, _) = CalendarMerger.items(of: [loaded])
        let zones = Dictionary(loaded.timeZones.compactMap { zone in zone.tzid.map { ($0, zone) } }) { first, _ in first
        }
        var resourceWriter = ResourceWriter(zones: zones)
        var localByUID: [String: [MergeItem]] = [:]
        for item in localItems.values { localByUID[item.key.uid, default: []].append(item) }
        let total = resources.count + localOnly.count
        var done = 0
        // What the partner now holds is recorded in batches, one transaction per 200 resources: a sync killed
        // before a batch is recorded finds those resources equal to the store next time and records them then.
        var pending = (resources: [SyncResource](), forgetting: [String](), base: [MergeKey: String?]())
        func flush() throws {
            guard !pending.resources.isEmpty || !pending.forgetting.isEmpty || !pending.base.isEmpty else { return }
            try store.recordSync(
                calendar: calendar, partner: partner, resources: pending.resources, forgetting: pending.forgetting,
                base: pending.base)
            pending = ([], [], [:])
        }
        func record(_ resource: SyncResource?, forgetting href: String?, _ base: [MergeKey: String?]) throws {
            if let resource { pending.resources.append(resource) }
            if let href { pending.forgetting.append(href) }
            pending.base.merge(base) { _, new in new }
            if pending.resources.count + pending.forgetting.count >= 200 { try flush() }
        }
        func step() {
            done += 1
            if done % 100 == 0 { options.progress?("\(done) of \(total) resources compared or written") }
        }
        func fingerprints(_ items: [MergeItem]) -> [MergeKey: String] {
            Dictionary(items.map { ($0.key, $0.version.fingerprint) }) { first, _ in first }
        }
        for href in resources.keys.sorted() {
            step()
            let resource = resources[href]!
            let mine = ours(resource.uids)
            // Not read and the same here as the base: its record and base stand as they are.
            if fetched[href] == nil, mine == resource.theirs { continue }
            var base: [MergeKey: String?] = [:]
            for key in resource.theirs.keys { base[key] = .some(nil) }
            do {
                if mine.isEmpty {
                    guard !resource.uids.isEmpty else { continue }  // a resource with no items: not ours to judge
                    try storage.delete(href, ifMatch: resource.etag)
                    report.deleted.append(href)
                    try record(nil, forgetting: href, base)
                    continue
                }
                var etag = resource.etag, written = mine
                if mine != resource.theirs {
                    let wanted = resource.uids.sorted().flatMap { localByUID[$0] ?? [] }
                    // Deleted here since the fingerprints were read: the next sync deletes it there.
                    guard !wanted.isEmpty else { continue }
                    etag = try storage.update(href, resourceWriter.write(wanted), ifMatch: resource.etag)
                    report.updated.append(href)
                    written = fingerprints(wanted)
                }
                for (key, fingerprint) in written { base[key] = fingerprint }
                try record(SyncResource(href: href, etag: etag, uids: resource.uids.sorted()), forgetting: nil, base)
            } catch SyncStorageError.changed(let changed) {
                report.deferred.append(changed)
            }
        }
        // Local items the partner does not have: one new resource per UID.
        for uid in localOnly {
            step()
            guard let items = localByUID[uid] else { continue }  // deleted here since: nothing to create
            let href = storage.href(forUID: uid)
            do {
                let etag = try storage.create(href, resourceWriter.write(items))
                report.created.append(href)
                try record(
                    SyncResource(href: href, etag: etag, uids: [uid]), forgetting: nil,
                    fingerprints(items).mapValues { $0 })
            } catch SyncStorageError.changed(let changed) {
                report.deferred.append(changed)
            }
        }
        // Resources that went away on the partner.
        pending.forgetting += known.keys.filter { resources[$0] == nil }
        try flush()
        try keepToken()
        return report
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
