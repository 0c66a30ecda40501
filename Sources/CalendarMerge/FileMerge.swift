import Foundation
import CalendarModel

extension CalendarMerger {
    /// Merges an iCalendar file into a calendar of `storage`, reading no more of it than the merge needs: bytes
    /// whose digest (`options.digest`) the source's last merge recorded are not read at all
    /// (`mergeUnchangedFile`), and an item whose key and fingerprint, read from its lines, are the merge base's is
    /// scanned but not decoded (`ICS.read(_:file:leavingOut:)`): it takes part as unchanged, and is decoded only
    /// when a decision needs its content. The decisions and what is written are those `merge` makes of the file
    /// read in full (`FileMergeTests` compare both on the corpus). Returns the read, nil when nothing was read.
    public static func merge(
        icsBytes bytes: [UInt8], file: String?, into calendar: String, source: String,
        storage: some MergeStorage, options: MergeOptions = MergeOptions()
    ) throws -> (result: MergeResult, read: ICS.ReadResult?) {
        // Bytes merged last time are not read at all; otherwise the file is scanned while the snapshot is read.
        var known: MergeSnapshot?
        if let digest = options.digest, try storage.mergeDigest(calendar: calendar, source: source) == digest {
            let unchanged = try storage.mergeSnapshot(calendar: calendar, source: source)
            if let result = unchangedFilePlan(digest: digest, unchanged) { return (result, nil) }
            known = unchanged
        }
        let handoff = SnapshotHandoff(known)
        let identities = WRTimeZoneIdentities()
        let scanning = DispatchGroup()
        let scanned = ScanOutcome()
        DispatchQueue.global().async(group: scanning) {
            scanned.value = ICS.read(bytes, file: file) { component, calendar -> Unread? in
                let snapshot = handoff.wait()
                guard !snapshot.base.isEmpty else { return nil }
                return leftOut(component, calendar, snapshot, identities)
            }
        }
        do {
            known = try known ?? storage.mergeSnapshot(calendar: calendar, source: source)
            handoff.hand(known!)
        } catch {
            handoff.hand(MergeSnapshot())
            scanning.wait()
            throw error
        }
        scanning.wait()
        let (read, unread) = scanned.value!
        var options = options
        options.isTruncated = read.isTruncated
        let (items, timeZones) = items(of: read.calendars)
        let (unreadIndex, readFingerprints) = index(of: unread.map(\.note))
        // A key left out twice, or both read and left out (several versions of an item, one of them as merged last
        // time): which version a full read keeps depends on them all, so the file is read in full.
        guard unreadIndex.count == unread.count, !items.keys.contains(where: { unreadIndex[$0] != nil }) else {
            let full = ICS.read(bytes, file: file)
            return (try merge(full.calendars, into: calendar, source: source, storage: storage, options: options), full)
        }
        var external = External(
            items: items, timeZones: timeZones, calendarParts: calendarParts(of: read.calendars), snapshot: known!)
        external.unread = unreadIndex
        external.readFingerprints = readFingerprints
        external.readUnread = { key in
            guard let index = unreadIndex[key]?.position else { return nil }
            // Decoded in its calendar, beside the zones it may use, as a full read would have.
            var around = read.calendars[unread[index].item.calendarIndex]
            around.components = around.timeZones.map { .timeZone($0) } + [unread[index].item.decoded]
            return Self.items(of: [around]).items[key]
        }
        external.labelUnread = { key in
            guard let index = unreadIndex[key]?.position else { return nil }
            let (summary, start) = unread[index].item.summaryAndStart(wrTimeZone: unread[index].note.wrTimeZone)
            return ItemLabel(title: summary, start: start.map { ItemLabel.start(value: $0.icsValue, tzid: $0.tzid) })
        }
        return (try merge(external, into: calendar, source: source, storage: storage, options: options), read)
    }

    /// The items left out, by key, with where each is in the list, and what those the read moves said.
    private static func index(of notes: [Unread]) -> ([MergeKey: External.UnreadEntry], [MergeKey: String]) {
        var index: [MergeKey: External.UnreadEntry] = [:], readFingerprints: [MergeKey: String] = [:]
        index.reserveCapacity(notes.count)
        for (position, note) in notes.enumerated() where index[note.key] == nil {
            index[note.key] = External.UnreadEntry(fingerprint: note.fingerprint, position: position)
            if let read = note.readFingerprint { readFingerprints[note.key] = read }
        }
        return (index, readFingerprints)
    }

    /// The note of an item `merge(icsBytes:)` leaves out: one whose key and fingerprint, read from its lines, are
    /// the merge base's. Nil for an item that has to be decoded.
    static func leftOut(
        _ component: Component, _ calendar: Component, _ snapshot: MergeSnapshot, _ identities: WRTimeZoneIdentities
    ) -> Unread? {
        let identity = identities.identity(of: calendar)
        guard let (uid, recurrenceID, moves) = component.keyAsRead(wrTimeZone: identity != nil) else { return nil }
        // The base's own key and fingerprint, whose text the snapshot shares with the item's (`==` at once).
        let base = snapshot.base
        guard let entry = base.index(forKey: MergeKey(uid: uid, recurrenceID: recurrenceID)) else { return nil }
        let (key, fingerprint) = base[entry]
        guard let identity, moves else {
            return fingerprint == component.fingerprint ? Unread(key: key, fingerprint: fingerprint) : nil
        }
        // Moved by X-WR-TIMEZONE when read: known by what it said as it stood, and what decided the move.
        let readFingerprint = readFingerprint(component.fingerprint, identity)
        guard snapshot.readBase[key] == readFingerprint else { return nil }
        return Unread(
            key: key, fingerprint: fingerprint, readFingerprint: readFingerprint,
            wrTimeZone: identity.components(separatedBy: " ").first)
    }

    /// The snapshot, handed from the thread that reads it to the scan that waits for it.
    final class SnapshotHandoff: @unchecked Sendable {
        private let ready = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var snapshot: MergeSnapshot?

        init(_ snapshot: MergeSnapshot?) { self.snapshot = snapshot }

        func hand(_ snapshot: MergeSnapshot) {
            lock.withLock { self.snapshot = snapshot }
            ready.signal()
        }

        func wait() -> MergeSnapshot {
            if let snapshot = lock.withLock({ snapshot }) { return snapshot }
            ready.wait()
            ready.signal()  // for the next waiter
            return lock.withLock { snapshot! }
        }
    }

    /// What the scan of `merge(icsBytes:)` returns, set on its thread and read after it is waited for.
    final class ScanOutcome: @unchecked Sendable {
        var value: (result: ICS.ReadResult, unread: [(item: ICS.UnreadItem, note: Unread)])?
    }

    /// What `merge(icsBytes:)` knows of an item it leaves out: its key, its fingerprint (the base's), and for one
    /// the read moves, what it said as it stood and the zone it moves into.
    struct Unread: Sendable {
        var key: MergeKey
        var fingerprint: String
        var readFingerprint: String?
        var wrTimeZone: String?
    }

    /// `ICalendar.wrTimeZoneIdentity` of each calendar header met, worked out once per X-WR-TIMEZONE value (it
    /// reads the zone's rules), for every core.
    final class WRTimeZoneIdentities: @unchecked Sendable {
        private let lock = NSLock()
        private var known: [String: String?] = [:]

        func identity(of calendar: Component) -> String? {
            guard let value = calendar.property("X-WR-TIMEZONE")?.value else { return nil }
            if let identity = lock.withLock({ known[value] }) { return identity }
            let identity = ICalendar.wrTimeZoneIdentity(of: calendar)
            lock.withLock { known[value] = identity }
            return identity
        }
    }
}
