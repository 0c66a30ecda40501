import CalendarModel
import Foundation
internal import GRDB

/// A shared feed as the store keeps it (`icskit share`): which calendars it shows at which level over which window,
/// and the SHA-256 of its token — never the token, which is said once, when the share is made.
package struct ShareRecord: Sendable, Hashable {
    /// The share's name (unique): what `share --list`, `--revoke` and `--reset` name it by.
    package var name: String
    /// What it shows.
    package var level: ShareLevel
    /// The store calendars it shows, by name.
    package var calendars: [String]
    /// The window, relative to now: `-30d..+12mo`.
    package var window: String
    /// The app it is written for (`outlook`, `google`, `apple`), if any.
    package var app: String?
    /// Whether todos are shared too.
    package var todos: Bool
    /// The address it is served under, when given (`https://cal.example.org`).
    package var baseURL: String?
    /// When it was made.
    package var created: Date
    /// The token's SHA-256, lower-case hex.
    package var tokenHash: String
    /// The key UIDs are hashed with below the full level (hex), the same for the life of the share.
    package var uidKey: String

    /// A share of `calendars`.
    package init(
        name: String, level: ShareLevel, calendars: [String], window: String, app: String? = nil, todos: Bool = false,
        baseURL: String? = nil, created: Date = Date(), tokenHash: String, uidKey: String
    ) {
        (self.name, self.level, self.calendars, self.window, self.app) = (name, level, calendars, window, app)
        (self.todos, self.baseURL, self.created, self.tokenHash, self.uidKey) = (
            todos, baseURL, created, tokenHash, uidKey
        )
    }
}

extension CalendarStore {
    /// Keeps a new share; a share of that name, or of that token, is refused (`StoreError`).
    package func addShare(_ share: ShareRecord) throws {
        try write { db in
            for calendar in share.calendars where try StoreWriter(db).calendarID(named: calendar, create: false) == nil
            {
                throw StoreError("no calendar \"\(calendar)\" in the store")
            }
            guard
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM share WHERE name = ?)", arguments: [share.name])
                    == false
            else { throw StoreError("a share named \"\(share.name)\" exists; give another --name, or --reset it") }
            try db.execute(
                sql: """
                    INSERT INTO share (name, tokenHash, uidKey, level, calendars, window, app, todos, baseURL, created)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    share.name, share.tokenHash, share.uidKey, share.level.rawValue,
                    share.calendars.joined(separator: "\n"), share.window, share.app, share.todos, share.baseURL,
                    Int64(share.created.timeIntervalSince1970),
                ])
        }
    }

    /// Every share, by name.
    package func shares() throws -> [ShareRecord] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT name, level, calendars, window, app, todos, baseURL, created, tokenHash, uidKey
                    FROM share ORDER BY name
                    """
            ).map { row in
                ShareRecord(
                    name: row[0], level: ShareLevel(rawValue: row[1]) ?? .busy,
                    calendars: (row[2] as String).split(separator: "\n").map(String.init), window: row[3],
                    app: row[4], todos: row[5], baseURL: row[6],
                    created: Date(timeIntervalSince1970: TimeInterval(row[7] as Int64)), tokenHash: row[8],
                    uidKey: row[9])
            }
        }
    }

    /// Ends a share (its token answers nothing from now on); false when there is none of that name or token hash.
    @discardableResult
    package func removeShare(named name: String? = nil, tokenHash: String? = nil) throws -> Bool {
        try write { db in
            try db.execute(
                sql: "DELETE FROM share WHERE name = ? OR tokenHash = ?", arguments: [name ?? "", tokenHash ?? ""])
            return db.changesCount > 0
        }
    }

    /// Gives a share a new token (the old one dead); false when there is no share of that name.
    @discardableResult
    package func replaceShareToken(named name: String, tokenHash: String) throws -> Bool {
        try write { db in
            try db.execute(sql: "UPDATE share SET tokenHash = ? WHERE name = ?", arguments: [tokenHash, name])
            return db.changesCount > 0
        }
    }

    /// Each calendar's generation: a number every change to its items, zones or own properties moves on. A feed built
    /// at the same generations shows the same (the window aside).
    package func generations(of calendars: [String]) throws -> [String: Int64] {
        try database.read { db in
            var found: [String: Int64] = [:]
            for name in calendars {
                found[name] = try Int64.fetchOne(
                    db, sql: "SELECT generation FROM calendar WHERE name = ?", arguments: [name])
            }
            return found
        }
    }
}
