import CalendarModel

/// The side of a merge that keeps a calendar: what it holds now, and one atomic way to change it. A merge never
/// reaches past this protocol, so the planner and its guards work the same over any storage that conforms
/// (CalendarStore's SQLite file does).
public protocol MergeStorage {
    /// The calendar's items, the source's merge base and the local deletions as they stand now (no lock held):
    /// enough to plan a merge that may turn out to need no writing at all.
    func mergeSnapshot(calendar: String, source: String) throws -> MergeSnapshot

    /// The digest the source's last merge recorded (`MergeSnapshot.digest`), without the rest of the snapshot.
    func mergeDigest(calendar: String, source: String) throws -> String?

    /// What the items of these keys say here, and what the source said of them at its last merge (the merge base's
    /// content, where the storage still knows it), as they stand now (no lock held): for dry runs.
    func mergeContents(calendar: String, source: String, keys: Set<MergeKey>) throws -> MergeContents

    /// Takes the snapshot anew and writes what `decide` makes of it, as one transaction: nothing another process
    /// does can fall between what `decide` saw and what is written. `decide` may read contents (`mergeContents`)
    /// inside that transaction through the reader it is given. A nil write changes nothing (the calendar is not
    /// even created). Returns what `decide` returned beside its write.
    func updateAtomically<Outcome>(
        calendar: String, source: String,
        _ decide: (MergeSnapshot, MergeContentReader) throws -> (write: MergeWrite?, outcome: Outcome)
    )
        throws -> Outcome
}

extension MergeStorage {
    /// The snapshot's digest: a storage that can read it alone should.
    public func mergeDigest(calendar: String, source: String) throws -> String? {
        try mergeSnapshot(calendar: calendar, source: source).digest
    }
}

/// Reads `MergeContents` of the given keys inside a storage's transaction.
public typealias MergeContentReader = (Set<MergeKey>) throws -> MergeContents

/// The content of some items on the storage's side: what is kept now, and what the merge base says of them.
public struct MergeContents: Sendable {
    /// The items as the storage keeps them.
    public var local: [MergeKey: Component]
    /// What the source said of them at its last merge; absent where the storage no longer knows (then an item both
    /// sides changed is decided whole).
    public var base: [MergeKey: Component]

    /// Contents of these items and their base entries (none by default).
    public init(local: [MergeKey: Component] = [:], base: [MergeKey: Component] = [:]) {
        self.local = local
        self.base = base
    }
}

/// How a person knows an item: its title and start, as `MergeAction` carries them.
public struct ItemLabel: Sendable, Hashable {
    public var title: String?
    public var start: String?

    public init(title: String?, start: String?) {
        self.title = title
        self.start = start
    }

    /// The start of an ICS date or date-time value as a person reads it: `2026-11-24`, `2026-11-24 09:00 UTC`,
    /// `2026-11-24 09:00 Europe/Berlin`, `2026-11-24 09:00` (floating).
    public static func start(value: String, tzid: String?) -> String {
        let digits = Array(value.utf8)
        guard digits.count >= 8 else { return value }
        func text(_ range: Range<Int>) -> String { String(decoding: digits[range], as: UTF8.self) }
        let day = text(0..<4) + "-" + text(4..<6) + "-" + text(6..<8)
        guard digits.count >= 13, digits[8] == UInt8(ascii: "T") else { return day }
        let zone = value.hasSuffix("Z") ? " UTC" : tzid.map { " " + $0 } ?? ""
        return day + " " + text(9..<11) + ":" + text(11..<13) + zone
    }
}

/// Storages that can say how a person knows their items (`CalendarStore` does); merges name every change by it.
public protocol ItemLabelling {
    /// Labels of the items with these keys that the calendar holds.
    func labels(calendar: String, keys: Set<MergeKey>) throws -> [MergeKey: ItemLabel]
}

/// What a storage holds for one calendar and one external source.
public struct MergeSnapshot: Sendable {
    /// The calendar's items and how new each is.
    public var items: [MergeKey: ItemVersion]
    /// What the source said of each item at its last merge (fingerprints).
    public var base: [MergeKey: String]
    /// Items deleted locally, so a merge does not bring them back unchanged.
    public var tombstones: Set<MergeKey>
    /// The digest (`SourceDigest`) of the source's bytes at its last merge, when that merge recorded its whole base.
    public var digest: String?
    /// For base items the read changed (X-WR-TIMEZONE moved their times): what they said as they stood in the
    /// source (`CalendarMerger.readFingerprint`), so a later merge can tell them unchanged without reading them.
    public var readBase: [MergeKey: String] = [:]

    /// Everything given, or empty.
    public init(
        items: [MergeKey: ItemVersion] = [:], base: [MergeKey: String] = [:], tombstones: Set<MergeKey> = [],
        digest: String? = nil
    ) {
        self.items = items
        self.base = base
        self.tombstones = tombstones
        self.digest = digest
    }
}

/// One entry of a merge base: what the source said of an item.
public struct BaseEntry: Sendable, Hashable {
    /// The item's fingerprint as the source gave it.
    public var fingerprint: String
    /// For an item the read changed (X-WR-TIMEZONE): what it said as it stood (`MergeSnapshot.readBase`).
    public var readFingerprint: String?

    public init(fingerprint: String, readFingerprint: String? = nil) {
        self.fingerprint = fingerprint
        self.readFingerprint = readFingerprint
    }
}

/// What a merge writes, applied by the storage in one transaction.
public struct MergeWrite: Sendable {
    /// Items to add or replace.
    public var upserts: [MergeItem]
    /// Items to delete (no tombstone: the source no longer has them either).
    public var deletions: [MergeKey]
    /// How the source's merge base changes: a key's new entry, or nil to drop it; keys not named keep theirs.
    public var baseChanges: [MergeKey: BaseEntry?] = [:]
    /// The digest of the source's bytes, recorded when the base is exactly what those bytes say; nil forgets it.
    public var digest: String?
    /// The content of base entries that the kept item will not equal (a local change kept, a merged item): what the
    /// source said, for merging the next change field by field. A base entry not named here is the kept item's
    /// content when their fingerprints agree, and unknown otherwise.
    public var baseContents: [MergeKey: Component] = [:]
    /// The VTIMEZONEs the upserted items use.
    public var timeZones: [TimeZoneDefinition]
    /// The external calendars' own properties (NAME, UID, COLOR …) and components that are not items or zones
    /// (VAVAILABILITY …), each calendar without its items: what the storage keeps of them for export.
    public var calendarParts: [ICalendar] = []

    /// A write of these upserts, deletions, base changes, digest and zones.
    public init(
        upserts: [MergeItem] = [], deletions: [MergeKey] = [], baseChanges: [MergeKey: BaseEntry?] = [:],
        digest: String? = nil, timeZones: [TimeZoneDefinition] = []
    ) {
        self.upserts = upserts
        self.deletions = deletions
        self.baseChanges = baseChanges
        self.digest = digest
        self.timeZones = timeZones
    }
}

/// One item of an external calendar, keyed and fingerprinted as the storage keys and fingerprints what it holds.
public struct MergeItem: Sendable {
    /// UID and recurrence ID.
    public var key: MergeKey
    /// Fingerprint and the fields `newest` compares.
    public var version: ItemVersion
    /// The typed item.
    public var item: CalendarComponent
    /// Its component with a UID (one derived from its content when it had none), as it is stored.
    public var component: Component
    /// When the read changed it (X-WR-TIMEZONE): what it said as it stood (`CalendarMerger.readFingerprint`).
    public var readFingerprint: String?

    /// Keys and fingerprints an event, todo or journal; nil for other components. `time` places LAST-MODIFIED and
    /// DTSTAMP (which RFC 5545 writes in UTC, and producers sometimes do not).
    package init?(_ item: CalendarComponent, time: CalendarTime) {
        guard let core = item.core else { return nil }
        let keyed = item.keyed
        component = keyed.component
        key = MergeKey(uid: keyed.uid, recurrenceID: item.identity.recurrenceID)
        func seconds(_ date: CalendarDate?) -> Int64? { date.map { Int64(time.date(of: $0).timeIntervalSince1970) } }
        version = ItemVersion(
            fingerprint: keyed.component.fingerprint, sequence: core.sequence ?? 0,
            lastModified: seconds(core.lastModified), stamp: seconds(core.stamp))
        self.item = item
    }
}
