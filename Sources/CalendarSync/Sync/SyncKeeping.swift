import CalendarMerge
import CalendarModel

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
/// token, the merge base of what was written). The store is one (`CalendarStoreSync`); a test can bring another.
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
