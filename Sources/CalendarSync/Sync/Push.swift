import CalendarMerge
import CalendarModel

extension TwoWaySync {
    /// The second step of a round: every resource whose items now differ from the store's is written back (one
    /// resource per UID with its overrides), local items the partner lacks are created, and resources whose items
    /// were deleted here are deleted, each write conditional on the version read. The store's fingerprints decide
    /// which resources differ; only the items of those (and of the UIDs the partner lacks) are read back.
    struct Push<Storage: SyncStorage, Keeper: SyncKeeping> {
        let calendar: String
        let storage: Storage
        let store: Keeper
        let resources: Resources
        let progress: (@Sendable (String) -> Void)?
        /// The store's items now, by UID.
        let now: [MergeKey: ItemVersion]
        var keysByUID: [String: [MergeKey]] = [:]
        var localByUID: [String: [MergeItem]] = [:]
        var localOnly: [String] = []
        var writer: ResourceWriter
        var created: [String] = [], updated: [String] = [], deleted: [String] = [], deferred: [String] = []
        /// What the partner refused at an earlier sync, by UID; what it refused now, and the UIDs it took since.
        let refusedBefore: [String: SyncRefusal]
        /// `sync --repair`: what was refused is sent again, repaired (it may now be taken).
        let repairing: Bool
        var refused: [TwoWaySync.Refused] = []
        var accepted: [String] = []
        /// What the partner now holds, recorded in batches, one transaction per 200 resources: a sync killed before
        /// a batch is recorded finds those resources equal to the store next time and records them then.
        var pending = (resources: [SyncResource](), forgetting: [String](), base: [MergeKey: String?]())
        var done = 0

        init(
            calendar: String, storage: Storage, store: Keeper, resources: Resources,
            progress: (@Sendable (String) -> Void)?, repair: Bool
        ) throws {
            (self.calendar, self.storage, self.store, self.resources) = (calendar, storage, store, resources)
            self.progress = progress
            refusedBefore = try store.syncRefusals(calendar: calendar, partner: storage.identity)
            repairing = repair
            now = try store.mergeSnapshot(calendar: calendar, source: storage.identity).items
            for key in now.keys { keysByUID[key.uid, default: []].append(key) }
            let remoteUIDs = Set(resources.values.flatMap(\.uids))
            localOnly = keysByUID.keys.filter { !remoteUIDs.contains($0) }.sorted()
            var toWrite = Set(localOnly)
            for resource in resources.values {
                let mine = Self.ours(resource.uids, keysByUID, now)
                if !mine.isEmpty, mine != resource.theirs { toWrite.formUnion(resource.uids) }
            }
            let loaded = try store.loadItems(calendar: calendar, uids: toWrite)
            for item in CalendarMerger.items(of: [loaded]).items.values {
                localByUID[item.key.uid, default: []].append(item)
            }
            let zones = Dictionary(loaded.timeZones.compactMap { zone in zone.tzid.map { ($0, zone) } }) { first, _ in
                first
            }
            writer = ResourceWriter(zones: zones, repairing: repair)
        }

        /// The fingerprints the store has for these UIDs.
        static func ours(
            _ uids: Set<String>, _ keysByUID: [String: [MergeKey]], _ now: [MergeKey: ItemVersion]
        ) -> [MergeKey: String] {
            var fingerprints: [MergeKey: String] = [:]
            for uid in uids { for key in keysByUID[uid] ?? [] { fingerprints[key] = now[key]?.fingerprint } }
            return fingerprints
        }

        /// Writes what differs; `readNow` names the resources this round read (the others stand as recorded while
        /// the store agrees with them).
        /// A resource the partner refuses (a server's 400, 413 …) is reported, remembered with its items'
        /// fingerprints and not sent again while they stay the same; it never stops the other resources.
        mutating func run(readNow: Set<String>) throws {
            for href in resources.keys.sorted() {
                step()
                do {
                    try write(href, read: readNow.contains(href))
                } catch SyncStorageError.changed(let changed) {
                    deferred.append(changed)
                } catch SyncStorageError.refused(_, let reason) {
                    noteRefusal(resources[href]!.uids, reason: reason)
                }
            }
            for uid in localOnly {
                step()
                do {
                    try create(uid)
                } catch SyncStorageError.changed(let changed) {
                    deferred.append(changed)
                } catch SyncStorageError.refused(_, let reason) {
                    noteRefusal([uid], reason: reason)
                }
            }
            // Refusals of UIDs the store no longer holds are forgotten.
            accepted += refusedBefore.keys.filter { keysByUID[$0] == nil }
        }

        /// The fingerprints of a UID's items here, in one string: what a refusal is remembered by.
        func refusalKey(_ uid: String) -> String {
            Self.ours([uid], keysByUID, now).sorted { $0.key < $1.key }.map(\.value).joined(separator: " ")
        }

        /// Whether the partner refused these UIDs as they are now: then they are not sent again.
        mutating func stillRefused(_ uids: Set<String>) -> Bool {
            let earlier = uids.compactMap { refusedBefore[$0] }
            guard !repairing, !uids.isEmpty, earlier.count == uids.count,
                earlier.allSatisfy({ $0.fingerprint == refusalKey($0.uid) })
            else { return false }
            for refusal in earlier.sorted(by: { $0.uid < $1.uid }) {
                refused.append(
                    TwoWaySync.Refused(
                        uid: refusal.uid, title: title(refusal.uid), reason: refusal.reason, isNew: false))
            }
            return true
        }

        mutating func noteRefusal(_ uids: Set<String>, reason: String) {
            for uid in uids.sorted() {
                refused.append(TwoWaySync.Refused(uid: uid, title: title(uid), reason: reason, isNew: true))
            }
        }

        mutating func noteWritten(_ uids: some Sequence<String>) {
            accepted += uids.filter { refusedBefore[$0] != nil }
        }

        /// The SUMMARY of a UID's first item, for reports.
        func title(_ uid: String) -> String? {
            (localByUID[uid] ?? []).sorted { $0.key < $1.key }.first?.component.property("SUMMARY")
                .map { TextEscaping.unescape($0.value) }
        }

        /// One resource of the partner: deleted when its items are gone here, updated when they differ, recorded.
        mutating func write(_ href: String, read: Bool) throws {
            let resource = resources[href]!
            let mine = Self.ours(resource.uids, keysByUID, now)
            // Not read and the same here as the base: its record and base stand as they are.
            if !read, mine == resource.theirs { return }
            var base: [MergeKey: String?] = [:]
            for key in resource.theirs.keys { base[key] = .some(nil) }
            if mine.isEmpty {
                guard !resource.uids.isEmpty else { return }  // a resource with no items: not ours to judge
                try storage.delete(href, ifMatch: resource.etag)
                deleted.append(href)
                try record(nil, forgetting: href, base)
                return
            }
            var etag = resource.etag, written = mine
            if mine != resource.theirs {
                let wanted = resource.uids.sorted().flatMap { localByUID[$0] ?? [] }
                // Deleted here since the fingerprints were read: the next sync deletes it there.
                guard !wanted.isEmpty, !stillRefused(resource.uids) else { return }
                etag = try storage.update(href, writer.write(wanted), ifMatch: resource.etag)
                updated.append(href)
                noteWritten(resource.uids)
                written = Self.fingerprints(wanted)
            }
            for (key, fingerprint) in written { base[key] = fingerprint }
            try record(SyncResource(href: href, etag: etag, uids: resource.uids.sorted()), forgetting: nil, base)
        }

        /// A local item the partner does not have: one new resource for its UID.
        mutating func create(_ uid: String) throws {
            guard let items = localByUID[uid] else { return }  // deleted here since: nothing to create
            guard !stillRefused([uid]) else { return }
            let href = storage.href(forUID: uid)
            let etag = try storage.create(href, writer.write(items))
            created.append(href)
            noteWritten([uid])
            try record(
                SyncResource(href: href, etag: etag, uids: [uid]), forgetting: nil,
                Self.fingerprints(items).mapValues { $0 })
        }

        static func fingerprints(_ items: [MergeItem]) -> [MergeKey: String] {
            Dictionary(items.map { ($0.key, $0.version.fingerprint) }) { first, _ in first }
        }

        mutating func record(_ resource: SyncResource?, forgetting href: String?, _ base: [MergeKey: String?]) throws {
            if let resource { pending.resources.append(resource) }
            if let href { pending.forgetting.append(href) }
            pending.base.merge(base) { _, new in new }
            if pending.resources.count + pending.forgetting.count >= 200 { try flush() }
        }

        mutating func flush() throws {
            guard !pending.resources.isEmpty || !pending.forgetting.isEmpty || !pending.base.isEmpty else { return }
            try store.recordSync(
                calendar: calendar, partner: storage.identity, resources: pending.resources,
                forgetting: pending.forgetting, base: pending.base)
            pending = ([], [], [:])
        }

        mutating func step() {
            done += 1
            let total = resources.count + localOnly.count
            if done % 100 == 0 { progress?("\(done) of \(total) resources compared or written") }
        }
    }
}
