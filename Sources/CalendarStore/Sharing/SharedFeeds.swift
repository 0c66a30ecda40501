import CalendarModel
import Foundation

extension CalendarStore {
    /// The calendar a share serves now (`SharedFeed`): its calendars' items that touch its window, at its level,
    /// written for its app when it names one. `hashUID` is the keyed hash UIDs take below the full level.
    package func sharedFeed(_ share: ShareRecord, now: Date = Date(), hashUID: @escaping @Sendable (String) -> String)
        throws -> ICalendar
    {
        guard let window = SharedFeed.window(share.window, now: now) else {
            throw StoreError("the share \"\(share.name)\" has a window that cannot be read: \(share.window)")
        }
        var calendars: [ICalendar] = []
        for name in share.calendars {
            calendars += try loadCalendars(named: name, window: window).map(\.calendar)
        }
        let options = SharedFeed.Options(
            level: share.level, window: window, todos: share.todos, name: share.name, hashUID: hashUID)
        var feed = SharedFeed.calendar(calendars, options: options)
        if let app = share.app.flatMap(TargetApp.init(rawValue:)) {
            feed = feed.adapted(for: app, zone: .utc, file: nil).calendar
        }
        return feed
    }
}
