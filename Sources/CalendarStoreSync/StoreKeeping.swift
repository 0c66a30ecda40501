import CalendarMerge
import CalendarModel
import CalendarStore
import CalendarSync

// The store as CalendarSync's keeper: where the two meet, so that neither imports the other.

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

/// The store keeps subscriptions as CalendarSync's feeds use them (`Subscription`, CalendarModel's).
extension CalendarStore: FeedKeeping {}
