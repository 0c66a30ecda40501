/// A calendar fed from a web calendar (webcal / HTTP(S)): where it comes from and what the last fetch learnt, so
/// the next one can ask "changed since?" (RFC 9110 validators) and knows how soon it may ask. The password is never
/// part of it. One type for the two sides that use it: the store keeps it, CalendarSync's feeds fetch with it.
public struct Subscription: Sendable, Hashable {
    /// The calendar the feed merges into.
    public var calendar: String
    /// The URL as subscribed.
    public var url: String
    /// Where the feed lives now, after permanent redirects.
    public var location: String?
    /// The ETag of the last full answer.
    public var etag: String?
    /// The Last-Modified of the last full answer.
    public var lastModified: String?
    /// A digest of the last body merged.
    public var bodyHash: String?
    /// When the feed was last asked (Unix seconds).
    public var checkedAt: Int64?
    /// When the feed last answered with a body (Unix seconds).
    public var fetchedAt: Int64?
    /// The shortest time between two fetches the feed asks for, in seconds.
    public var minimumInterval: Int64?
    /// The user name for HTTP authentication.
    public var user: String?

    /// A subscription that has never been fetched.
    public init(calendar: String, url: String) {
        self.calendar = calendar
        self.url = url
    }

    /// The URL to fetch: the permanent location when the feed moved, else the one subscribed.
    public var fetchURL: String { location ?? url }
}
