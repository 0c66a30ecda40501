import CalendarMerge
import CalendarModel
import Foundation

/// What a refresh needs of the place a calendar's items are kept: the merge storage, the subscriptions, and the
/// calendar's items (to match a feed that gives its items new UIDs on every fetch). The store is one
/// (`CalendarStoreSync`).
public protocol FeedKeeping: MergeStorage {
    /// The subscription that feeds a calendar, if one does.
    func subscription(calendar: String) throws -> Subscription?
    /// Records a subscription (creating its calendar when needed) or what its last fetch learnt.
    func save(_ subscription: Subscription) throws
    /// The named calendar (every calendar, for nil) with its items, by name.
    func loadCalendars(named name: String?, window: Range<Date>?) throws -> [(calendar: ICalendar, name: String)]
}
