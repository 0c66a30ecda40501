import Foundation
import CalendarModel

extension CalendarMerger {
    /// Merges an iCalendar file into a calendar of `storage`, reading no more of it than the merge needs: bytes
    /// whose digest (`options.digest`) the source's last merge recorded are not read at all
    /// (`mergeUnchangedFile`), and an item whose key and fingerprint, read from its lines, are the merge base's is
    /// scanned but not decoded (`ICS.read(_:file:leavingOut:)`): it takes part as unchanged, and is decoded only
    /// when a decision needs its content. The decisions and what is written are those `merge` makes of the file
    /// read in full (`FileMergeTests` compare both on the corpus). Returns the read, nil when nothing was read.
    /// `keep` is handed what the merge built to decide (every item of the file, read or left out): a process about
    /// to exit keeps it rather than spend a tenth of the merge's time freeing it value by value.
    public static func merge(
        icsBytes bytes: [UInt8], file: String?, into calendar: String, source: String,
        storage: some MergeStorage, options: MergeOptions = MergeOptions(), keep: (any Sendable) -> Void = { _ in }
    ) throws -> (result: MergeResult, read: ICS.ReadResult?) {
        let snapshot = try storage.mergeSnapshot(calendar: calendar, source: source)
        if let digest = options.digest, let result = unchangedFilePlan(digest: digest, snapshot) {
            return (result, nil)
        }
        let base = snapshot.base, readBase = snapshot.readBase
        let identities = WRTimeZoneIdentities()
        let (read, unread) = ICS.read(bytes, file: file) { component, calendar -> Unread? in
            guard !base.isEmpty else { return nil }
            let identity = identities.identity(of: calendar)
            guard let (uid, recurrenceID, moves) = component.keyAsRead(wrTimeZone: identity != nil) else { return nil }
            let key = MergeKey(uid: uid, recurrenceID: recurrenceID)
            guard let fingerprint = base[key] else { return nil }
            guard let identity, moves else {
                return fingerprint == component.fingerprint ? Unread(key: key, fingerprint: fingerprint) : nil
            }
            // Moved by X-WR-TIMEZONE when read: known by what it said as it stood, and what decided the move.
            let readFingerprint = readFingerprint(component.fingerprint, identity)
            guard readBase[key] == readFingerprint else { return nil }
            return Unread(
                key: key, fingerprint: fingerprint, readFingerprint: readFingerprint,
                wrTimeZone: identity.components(separatedBy: " ").first)
        }
        var options = options
        options.isTruncated = read.isTruncated
        let (items, timeZones) = items(of: read.calendars)
        var index: [MergeKey: Int] = [:]
        index.reserveCapacity(unread.count)
        for position in unread.indices where index[unread[position].note.key] == nil {
            index[unread[position].note.key] = position
        }
        let unreadIndex = index
        // A key left out twice, or both read and left out (several versions of an item, one of them as merged last
        // time): which version a full read keeps depends on them all, so the file is read in full.
        guard unreadIndex.count == unread.count, !items.keys.contains(where: { unreadIndex[$0] != nil }) else {
            let full = ICS.read(bytes, file: file)
            return (try merge(full.calendars, into: calendar, source: source, storage: storage, options: options), full)
        }
        var external = External(
            items: items, timeZones: timeZones, calendarParts: calendarParts(of: read.calendars), snapshot: snapshot)
        external.unread = unreadIndex.mapValues { unread[$0].note.fingerprint }
        external.readFingerprints = unreadIndex.compactMapValues { unread[$0].note.readFingerprint }
        external.readUnread = { key in
            guard let index = unreadIndex[key] else { return nil }
            // Decoded in its calendar, beside the zones it may use, as a full read would have.
            var around = read.calendars[unread[index].item.calendarIndex]
            around.components = around.timeZones.map { .timeZone($0) } + [unread[index].item.decoded]
            return Self.items(of: [around]).items[key]
        }
        external.labelUnread = { key in
            guard let index = unreadIndex[key] else { return nil }
            let (summary, start) = unread[index].item.summaryAndStart(wrTimeZone: unread[index].note.wrTimeZone)
            return ItemLabel(title: summary, start: start.map { ItemLabel.start(value: $0.icsValue, tzid: $0.tzid) })
        }
        defer { keep(Built(unread: unread, unreadIndex: unreadIndex, external: external, snapshot: snapshot)) }
        return (try merge(external, into: calendar, source: source, storage: storage, options: options), read)
    }

    /// What `merge(icsBytes:)` built, for its caller to keep (see `keep`).
    struct Built: Sendable {
        var unread: [(item: ICS.UnreadItem, note: Unread)]
        var unreadIndex: [MergeKey: Int]
        var external: External
        var snapshot: MergeSnapshot
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
