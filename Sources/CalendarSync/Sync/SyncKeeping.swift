import CalendarMerge
import CalendarModel
import CalendarStore

/// A calendar bound to a sync partner: a vdir or a CalDAV collection.
public struct SyncPartner: Sendable, Hashable {
    /// What kind of place the partner is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A directory of one `.ics` file per item (khal, todoman, vdirsyncer).
        case vdir
        /// A CalDAV calendar collection (RFC 4791).
        case caldav
    }

    /// The store calendar.
    public var calendar: String
    public var kind: Kind
    /// The directory or the collection's URL.
    public var location: String
    /// The user name for a server; the password is never stored.
    public var user: String?

    public init(calendar: String, kind: Kind, location: String, user: String? = nil) {
        (self.calendar, self.kind, self.location, self.user) = (calendar, kind, location, user)
    }

    /// The name the partner's merge base and resources are kept under: `vdir:/path`, `caldav:https://…`.
    public var identity: String { kind.rawValue + ":" + location }
}

/// One resource of a sync partner as the last sync left it.
public struct SyncResource: Sendable, Hashable {
    public var href: String
    public var etag: String
    /// The UIDs the resource holds (one, as vdirs and CalDAV keep them).
    public var uids: [String]

    public init(href: String, etag: String, uids: [String]) {
        (self.href, self.etag, self.uids) = (href, etag, uids)
    }
}

/// What two-way sync needs of the place a calendar's items are kept: the merge storage (snapshot, contents, one
/// atomic update), the items of some UIDs, and what the last sync left of the partner (its resources, its sync
/// token, the merge base of what was written). `CalendarStore` is one; a test can bring another.
public protocol SyncKeeping: MergeStorage {
    /// The calendar's items of these UIDs (with their overrides), in a calendar with the zones they use.
    func loadItems(calendar: String, uids: Set<String>) throws -> ICalendar
    /// What the last sync with the partner left of its resources, by href.
    func syncResources(calendar: String, partner: String) throws -> [String: SyncResource]
    /// The partner's sync token (RFC 6578) as the last sync left it.
    func syncToken(calendar: String, partner: String) throws -> String?
    /// Records the partner's sync token once a sync has taken everything it reported.
    func setSyncToken(_ token: String?, calendar: String, partner: String) throws
    /// Records resources as the partner now holds them, forgets those in `forgetting`, and sets the base entries of
    /// their items (nil drops one), in one transaction.
    func recordSync(
        calendar: String, partner: String, resources: [SyncResource], forgetting: [String],
        base: [MergeKey: String?]
    ) throws
    /// What the partner refused to store (by UID), as the items were when it did.
    func syncRefusals(calendar: String, partner: String) throws -> [String: SyncRefusal]
    /// Records refusals and forgets those of `accepted` UIDs.
    func recordSyncRefusals(calendar: String, partner: String, refused: [SyncRefusal], accepted: [String]) throws
}

/// A UID a sync partner refused to store: its items' fingerprints when it did, and the partner's reason.
public struct SyncRefusal: Sendable, Hashable {
    /// The UID refused.
    public var uid: String
    /// Its items' fingerprints when it was refused, in one string: unchanged since, it is not sent again.
    public var fingerprint: String
    /// The partner's status and reason (`HTTP 400: …`).
    public var reason: String

    public init(uid: String, fingerprint: String, reason: String) {
        (self.uid, self.fingerprint, self.reason) = (uid, fingerprint, reason)
    }
}

extension SyncKeeping {
    /// A keeper that remembers no refusals: every sync tries again.
    public func syncRefusals(calendar: String, partner: String) throws -> [String: SyncRefusal] { [:] }
    public func recordSyncRefusals(
        calendar: String, partner: String, refused: [SyncRefusal], accepted: [String]
    ) throws {}
}

extension CalendarStore: SyncKeeping {
    public func syncResources(calendar: String, partner: String) throws -> [String: SyncResource] {
        try syncResourceRecords(calendar: calendar, partner: partner).mapValues {
            SyncResource(href: $0.href, etag: $0.etag, uids: $0.uids)
        }
    }

    public func recordSync(
        calendar: String, partner: String, resources: [SyncResource], forgetting: [String],
        base: [MergeKey: String?]
    ) throws {
        try recordSyncRecords(
            calendar: calendar, partner: partner, resources: resources.map { ($0.href, $0.etag, $0.uids) },
            forgetting: forgetting, base: base)
    }

    public func syncRefusals(calendar: String, partner: String) throws -> [String: SyncRefusal] {
        try refusalRecords(calendar: calendar, partner: partner).mapValues {
            SyncRefusal(uid: $0.uid, fingerprint: $0.fingerprint, reason: $0.reason)
        }
    }

    public func recordSyncRefusals(
        calendar: String, partner: String, refused: [SyncRefusal], accepted: [String]
    ) throws {
        try recordRefusals(
            calendar: calendar, partner: partner,
            refused: refused.map { RefusalRecord(uid: $0.uid, fingerprint: $0.fingerprint, reason: $0.reason) },
            accepted: accepted)
    }
}

extension CalendarStore {
    /// The calendars bound to sync partners (a binding of a kind this version does not know is left out).
    public func partners() throws -> [SyncPartner] {
        try syncPartners().compactMap { binding in
            SyncPartner.Kind(rawValue: binding.kind).map {
                SyncPartner(calendar: binding.calendar, kind: $0, location: binding.location, user: binding.user)
            }
        }
    }

    /// Binds a calendar (created when needed) to a partner.
    public func bind(_ partner: SyncPartner) throws {
        try bind(
            PartnerBinding(
                calendar: partner.calendar, kind: partner.kind.rawValue, location: partner.location,
                user: partner.user))
    }

    /// Takes back a binding no sync has used yet (`unbindIfNeverSynced`).
    @discardableResult
    public func unbindIfNeverSynced(_ partner: SyncPartner) throws -> Bool {
        try unbindIfNeverSynced(
            PartnerBinding(
                calendar: partner.calendar, kind: partner.kind.rawValue, location: partner.location,
                user: partner.user))
    }
}
