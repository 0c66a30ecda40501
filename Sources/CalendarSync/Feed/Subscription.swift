import CalendarMerge
import CalendarModel
import CalendarStore
import Foundation

/// A store calendar fed from a web calendar (webcal / HTTP(S)): where it comes from and what the last fetch learnt,
/// so the next one can ask "changed since?" (RFC 9110 validators) and knows how soon it may ask. Its fields are
/// those of the `FeedRecord` a store keeps (`subscription.etag` is `subscription.record.etag`).
@dynamicMemberLookup
public struct Subscription: Sendable, Hashable {
    /// What a store keeps of it: the calendar, the feed's URL and location, validators, times, the user name.
    public var record: FeedRecord

    /// A subscription that has never been fetched.
    public init(calendar: String, url: String) { record = FeedRecord(calendar: calendar, url: url) }

    /// The subscription a store keeps as this record.
    public init(_ record: FeedRecord) { self.record = record }

    /// `subscription.etag` for `subscription.record.etag`.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<FeedRecord, Value>) -> Value {
        get { record[keyPath: keyPath] }
        set { record[keyPath: keyPath] = newValue }
    }

    /// The URL to fetch: the permanent location when the feed moved, else the one subscribed.
    public var fetchURL: String { record.location ?? record.url }
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
