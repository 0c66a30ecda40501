import CalendarMerge
internal import GRDB

/// A calendar's binding to a sync partner as the store keeps it: the partner's kind and location as given (the
/// store does not interpret them), and the user name (never a password).
public struct PartnerBinding: Sendable, Hashable {
    public var calendar: String
    public var kind: String
    public var location: String
    public var user: String?

    public init(calendar: String, kind: String, location: String, user: String? = nil) {
        (self.calendar, self.kind, self.location, self.user) = (calendar, kind, location, user)
    }

    /// The name the partner's merge base and resources are kept under.
    public var identity: String { kind + ":" + location }
}

/// One resource of a sync partner as the store keeps it: its name, version token and UIDs.
public typealias ResourceRecord = (href: String, etag: String, uids: [String])

extension CalendarStore {
    /// The calendars bound to sync partners.
    public func syncPartners() throws -> [PartnerBinding] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.name, p.kind, p.location, p.user FROM syncPartner p JOIN calendar c ON c.id = p.calendarID
                    ORDER BY c.name
                    """
            ).map { PartnerBinding(calendar: $0[0], kind: $0[1], location: $0[2], user: $0[3]) }
        }
    }

    /// Binds a calendar (created when needed) to a partner; a calendar has at most one partner of each location.
    public func bind(_ partner: PartnerBinding) throws {
        try write { db in
            let id = try StoreWriter(db).calendarID(named: partner.calendar, create: true)!
            try db.execute(
                sql: """
                    INSERT INTO syncPartner (calendarID, partner, kind, location, user) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(calendarID, partner) DO UPDATE SET user = excluded.user
                    """, arguments: [id, partner.identity, partner.kind, partner.location, partner.user])
        }
    }

    /// Takes back a binding no sync has used yet (a first sync that failed before it recorded any resource or base):
    /// a calendar is not left bound to a place it never reached. Returns whether it did; a binding that has synced
    /// stays.
    @discardableResult
    public func unbindIfNeverSynced(_ partner: PartnerBinding) throws -> Bool {
        try write { db in
            guard let id = try StoreWriter(db).calendarID(named: partner.calendar, create: false) else { return false }
            let used =
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM syncResource WHERE calendarID = ?1 AND partner = ?2)
                            OR EXISTS (SELECT 1 FROM syncState WHERE calendarID = ?1 AND source = ?2)
                        """, arguments: [id, partner.identity]) ?? true
            guard !used else { return false }
            try db.execute(
                sql: "DELETE FROM syncPartner WHERE calendarID = ? AND partner = ?", arguments: [id, partner.identity])
            return db.changesCount > 0
        }
    }

    /// The partner's sync token (RFC 6578) as the last sync left it.
    public func syncToken(calendar: String, partner: String) throws -> String? {
        try database.read { db in
            try String.fetchOne(
                db,
                sql: """
                    SELECT syncToken FROM syncPartner
                    WHERE calendarID = (SELECT id FROM calendar WHERE name = ?) AND partner = ?
                    """, arguments: [calendar, partner])
        }
    }

    /// Records the partner's sync token once a sync has taken everything it reported.
    public func setSyncToken(_ token: String?, calendar: String, partner: String) throws {
        try write { db in
            try db.execute(
                sql: """
                    UPDATE syncPartner SET syncToken = ?
                    WHERE calendarID = (SELECT id FROM calendar WHERE name = ?) AND partner = ?
                    """, arguments: [token, calendar, partner])
        }
    }

    /// What the last sync with a partner left of its resources, by href.
    public func syncResourceRecords(calendar: String, partner: String) throws -> [String: ResourceRecord] {
        try database.read { db in
            var resources: [String: ResourceRecord] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT href, etag, uids FROM syncResource
                    WHERE calendarID = (SELECT id FROM calendar WHERE name = ?) AND partner = ?
                    """, arguments: [calendar, partner])
            {
                let uids = (row[2] as String).split(separator: "\n").map(String.init)
                resources[row[0]] = (href: row[0], etag: row[1], uids: uids)
            }
            return resources
        }
    }

    /// Records resources as a sync now knows them and forgets those in `forgetting`, with the base entries of their
    /// items (the fingerprint the partner now holds; nil deletes the entry), in one transaction: what the partner
    /// holds and what the merge base says of it never disagree. Content kept for an entry goes with it: what was
    /// written is the store's item, so while the item keeps that fingerprint its content is the base's (and it is
    /// kept aside when the item changes); an item changed here since it was written leaves the entry without
    /// content, so the change is never mistaken for the partner's version.
    public func recordSyncRecords(
        calendar: String, partner: String, resources: [ResourceRecord], forgetting: [String],
        base: [MergeKey: String?]
    ) throws {
        // Prepared once per transaction (a sync records thousands of rows): compiling each statement anew cost
        // more than the writes.
        try write { db in
            guard let id = try StoreWriter(db).calendarID(named: calendar, create: false) else { return }
            let upsertResource = try db.cachedStatement(
                sql: """
                    INSERT INTO syncResource (calendarID, partner, href, etag, uids) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(calendarID, partner, href) DO UPDATE SET etag = excluded.etag, uids = excluded.uids
                    """)
            for resource in resources {
                try DirectBinding.bind(upsertResource) {
                    $0.add(id)
                    $0.add(partner)
                    $0.add(resource.href)
                    $0.add(resource.etag)
                    $0.add(resource.uids.joined(separator: "\n"))
                }
                try upsertResource.execute()
            }
            let deleteResource = try db.cachedStatement(
                sql: "DELETE FROM syncResource WHERE calendarID = ? AND partner = ? AND href = ?")
            for href in forgetting { try deleteResource.execute(arguments: [id, partner, href]) }
            let upsertState = try db.cachedStatement(
                sql: """
                    INSERT INTO syncState (calendarID, source, uid, recurrenceID, fingerprint) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(calendarID, source, uid, recurrenceID) DO UPDATE SET fingerprint = excluded.fingerprint
                    """)
            let deleteState = try db.cachedStatement(
                sql: "DELETE FROM syncState WHERE calendarID = ? AND source = ? AND uid = ? AND recurrenceID = ?")
            let deleteBase = try db.cachedStatement(
                sql: "DELETE FROM syncBase WHERE calendarID = ? AND partner = ? AND uid = ? AND recurrenceID = ?")
            /// Runs `statement` for the key (and the fingerprint, where it takes one).
            func run(_ statement: Statement, _ key: MergeKey, _ fingerprint: String? = nil) throws {
                try DirectBinding.bind(statement) {
                    $0.add(id)
                    $0.add(partner)
                    $0.add(key.uid)
                    $0.add(key.recurrenceID)
                    if let fingerprint { $0.add(fingerprint) }
                }
                try statement.execute()
            }
            for (key, fingerprint) in base {
                try run(deleteBase, key)
                if let fingerprint {
                    try run(upsertState, key, fingerprint)
                } else {
                    try run(deleteState, key)
                }
            }
            // The partner's base no longer matches any file digest.
            try db.execute(
                sql: "DELETE FROM syncSource WHERE calendarID = ? AND source = ?", arguments: [id, partner])
        }
    }
}
