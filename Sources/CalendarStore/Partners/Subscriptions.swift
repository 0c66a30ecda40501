import CalendarModel
internal import GRDB

/// A `Subscription` read from a row (by column name): GRDB stays inside the store.
struct SubscriptionRecord: FetchableRecord {
    var subscription: Subscription

    init(row: Row) throws {
        subscription = Subscription(calendar: row["calendar"], url: row["url"])
        subscription.location = row["location"]
        subscription.etag = row["etag"]
        subscription.lastModified = row["lastModified"]
        subscription.bodyHash = row["bodyHash"]
        subscription.checkedAt = row["checkedAt"]
        subscription.fetchedAt = row["fetchedAt"]
        subscription.minimumInterval = row["minimumInterval"]
        subscription.user = row["user"]
    }
}

extension CalendarStore {
    private static let subscriptionQuery = """
        SELECT c.name AS calendar, s.url, s.location, s.etag, s.lastModified, s.bodyHash, s.checkedAt, s.fetchedAt,
            s.minimumInterval, s.user
        FROM subscription s JOIN calendar c ON c.id = s.calendarID
        """

    /// Every subscription, by calendar name.
    public func subscriptions() throws -> [Subscription] {
        try database.read { db in
            try SubscriptionRecord.fetchAll(db, sql: Self.subscriptionQuery + " ORDER BY c.name").map(\.subscription)
        }
    }

    /// The subscription that feeds a calendar, if one does.
    public func subscription(calendar: String) throws -> Subscription? {
        try database.read { db in
            let record = try SubscriptionRecord.fetchOne(
                db, sql: Self.subscriptionQuery + " WHERE c.name = ?", arguments: [calendar])
            return record?.subscription
        }
    }

    /// Records a subscription (creating its calendar when needed) or what its last fetch learnt.
    public func save(_ subscription: Subscription) throws {
        try write { db in
            let id = try StoreWriter(db).calendarID(named: subscription.calendar, create: true)!
            try db.execute(
                sql: """
                    INSERT INTO subscription (calendarID, url, location, etag, lastModified, bodyHash, checkedAt,
                        fetchedAt, minimumInterval, user) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(calendarID) DO UPDATE SET url = excluded.url, location = excluded.location,
                        etag = excluded.etag, lastModified = excluded.lastModified, bodyHash = excluded.bodyHash,
                        checkedAt = excluded.checkedAt, fetchedAt = excluded.fetchedAt,
                        minimumInterval = excluded.minimumInterval, user = excluded.user
                    """,
                arguments: [
                    id, subscription.url, subscription.location, subscription.etag, subscription.lastModified,
                    subscription.bodyHash, subscription.checkedAt, subscription.fetchedAt,
                    subscription.minimumInterval, subscription.user,
                ])
        }
    }

    /// Ends a subscription; the calendar and its items stay. Returns whether there was one.
    @discardableResult
    public func removeSubscription(calendar: String) throws -> Bool {
        try write { db in
            try db.execute(
                sql: "DELETE FROM subscription WHERE calendarID = (SELECT id FROM calendar WHERE name = ?)",
                arguments: [calendar])
            return db.changesCount > 0
        }
    }
}
