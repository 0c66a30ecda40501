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
        let snapshot = try storage.mergeSnapshot(calendar: calendar, source: source)
        if let digest = options.digest, let result = unchangedFilePlan(digest: digest, snapshot) {
            return (result, nil)
        }
        let base = snapshot.base
        let (read, unread) = ICS.read(bytes, file: file) { component, calendar -> (MergeKey, String)? in
            guard !base.isEmpty,
                let (uid, recurrenceID) = component.keyAsRead(wrTimeZone: calendar.property("X-WR-TIMEZONE") != nil)
            else { return nil }
            let key = MergeKey(uid: uid, recurrenceID: recurrenceID)
            guard let fingerprint = base[key], fingerprint == component.fingerprint else { return nil }
            return (key, fingerprint)
        }
        var options = options
        options.isTruncated = read.isTruncated
        let (items, timeZones) = items(of: read.calendars)
        let unreadIndex = Dictionary(unread.indices.map { (unread[$0].note.0, $0) }) { first, _ in first }
        // A key left out twice, or both read and left out (several versions of an item, one of them as merged last
        // time): which version a full read keeps depends on them all, so the file is read in full.
        guard unreadIndex.count == unread.count, !items.keys.contains(where: { unreadIndex[$0] != nil }) else {
            let full = ICS.read(bytes, file: file)
            return (try merge(full.calendars, into: calendar, source: source, storage: storage, options: options), full)
        }
        var external = External(
            items: items, timeZones: timeZones, calendarParts: calendarParts(of: read.calendars), snapshot: snapshot)
        external.unread = unreadIndex.mapValues { unread[$0].note.1 }
        external.readUnread = { key in
            guard let index = unreadIndex[key] else { return nil }
            // Decoded in its calendar, beside the zones it may use, as a full read would have.
            var around = read.calendars[unread[index].item.calendarIndex]
            around.components = around.timeZones.map { .timeZone($0) } + [unread[index].item.decoded]
            return Self.items(of: [around]).items[key]
        }
        external.labelUnread = { key in
            guard let index = unreadIndex[key] else { return nil }
            let (summary, start) = unread[index].item.summaryAndStart
            return ItemLabel(title: summary, start: start.map { ItemLabel.start(value: $0.icsValue, tzid: $0.tzid) })
        }
        return (try merge(external, into: calendar, source: source, storage: storage, options: options), read)
    }
}
