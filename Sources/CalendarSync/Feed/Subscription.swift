import CalendarMerge
import CalendarModel
import CalendarStore
import Foundation

/// A store calendar fed from a web calendar (webcal / HTTP(S)): where it comes from and what the last fetch learnt,
/// so the next one can ask "changed since?" (RFC 9110 validators) and knows how soon it may ask.
public struct Subscription: Sendable, Hashable {
    /// The store calendar the feed merges into.
    public var calendar: String
    /// The URL as subscribed (`webcal://` kept as given).
    public var url: String
    /// Where the feed lives now, after permanent redirects (301, 308); nil while it has not moved.
    public var location: String?
    /// The ETag of the last full answer.
    public var etag: String?
    /// The Last-Modified of the last full answer.
    public var lastModified: String?
    /// A digest of the last body merged: a body that did not change is not merged again, whatever the validators say.
    public var bodyHash: String?
    /// When the feed was last asked (Unix seconds).
    public var checkedAt: Int64?
    /// When the feed last answered with a body (Unix seconds).
    public var fetchedAt: Int64?
    /// The shortest time between two fetches the feed asks for (REFRESH-INTERVAL, X-PUBLISHED-TTL), in seconds.
    public var minimumInterval: Int64?
    /// The user name for HTTP authentication; the password is never stored.
    public var user: String?

    /// A subscription that has never been fetched.
    public init(calendar: String, url: String) {
        self.calendar = calendar
        self.url = url
    }

    /// The URL to fetch: the permanent location when the feed moved, else the one subscribed.
    public var fetchURL: String { location ?? url }
}

extension Subscription {
    /// The subscription a store keeps as this record.
    public init(_ record: FeedRecord) {
        self.init(calendar: record.calendar, url: record.url)
        (location, etag, lastModified, bodyHash) = (record.location, record.etag, record.lastModified, record.bodyHash)
        (checkedAt, fetchedAt, minimumInterval, user) =
            (record.checkedAt, record.fetchedAt, record.minimumInterval, record.user)
    }

    /// What a store keeps of it.
    public var record: FeedRecord {
        var record = FeedRecord(calendar: calendar, url: url)
        (record.location, record.etag, record.lastModified, record.bodyHash) = (location, etag, lastModified, bodyHash)
        (record.checkedAt, record.fetchedAt, record.minimumInterval, record.user) =
            (checkedAt, fetchedAt, minimumInterval, user)
        return record
    }
}

/// What a refresh needs of the place a calendar's items are kept: the merge storage, the subscriptions, and the
/// calendar's items (to match a feed that gives its items new UIDs on every fetch). `CalendarStore` is one.
public protocol FeedKeeping: MergeStorage {
    /// The subscription that feeds a calendar, if one does.
    func subscription(calendar: String) throws -> Subscription?
    /// Records a subscription (creating its calendar when needed) or what its last fetch learnt.
    func save(_ subscription: Subscription) throws
    /// The named calendar (every calendar, for nil) with its items, by name.
    func loadCalendars(named name: String?, window: Range<Date>?) throws -> [(calendar: ICalendar, name: String)]
}

extension CalendarStore: FeedKeeping {
    /// Every subscription, by calendar name.
    public func subscriptions() throws -> [Subscription] { try feedRecords().map(Subscription.init) }

    public func subscription(calendar: String) throws -> Subscription? {
        try feedRecord(calendar: calendar).map(Subscription.init)
    }

    public func save(_ subscription: Subscription) throws { try save(subscription.record) }
}
