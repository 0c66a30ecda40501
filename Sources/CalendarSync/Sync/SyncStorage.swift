import CalendarModel

/// The other side of a two-way sync: a collection of resources, each an iCalendar object (one UID with its
/// overrides, as CalDAV and vdirs keep them) with a version token that changes whenever the resource does. Every
/// write is conditional on the version the sync last saw, so a change made by someone else in between is never
/// overwritten: it fails with `SyncStorageError.changed`, and the next sync merges it.
public protocol SyncStorage {
    /// Every resource's name and version token.
    func list() throws -> [(href: String, etag: String)]
    /// The resources' bytes and their version tokens (a resource gone since the listing is left out).
    func fetch(_ hrefs: [String]) throws -> [(href: String, etag: String, bytes: [UInt8])]
    /// Creates a resource that must not exist yet; returns its version token.
    func create(_ href: String, _ bytes: [UInt8]) throws -> String
    /// Replaces a resource if it still has version `etag`; returns the new token.
    func update(_ href: String, _ bytes: [UInt8], ifMatch etag: String) throws -> String
    /// Deletes a resource if it still has version `etag`.
    func delete(_ href: String, ifMatch etag: String) throws
    /// A name for a new resource holding this UID.
    func href(forUID uid: String) -> String
    /// How the storage is named in messages and in the store (`vdir:/path`, `caldav:https://…`).
    var identity: String { get }
}

/// A storage that can say what changed since a token it gave (WebDAV sync-collection, RFC 6578), so a sync with
/// nothing to do costs one small request.
public protocol IncrementalSyncStorage: SyncStorage {
    /// What changed since `token` (everything when nil), and the token for next time. Throws
    /// `SyncStorageError.tokenRejected` when the storage no longer knows the token.
    func changes(since token: String?) throws -> SyncChanges
}

/// What an incremental listing reports.
public struct SyncChanges: Sendable {
    /// Resources new or changed since the token, with their version tokens.
    public var changed: [(href: String, etag: String)]
    /// Resources gone since the token.
    public var removed: [String]
    /// The token to ask with next time.
    public var token: String?

    public init(changed: [(href: String, etag: String)], removed: [String], token: String?) {
        self.changed = changed
        self.removed = removed
        self.token = token
    }
}

/// Why a storage refused a conditional write.
public enum SyncStorageError: Error, CustomStringConvertible, Sendable {
    /// The resource changed (or appeared, or went) since the sync looked: left for the next sync.
    case changed(String)
    /// Anything else: the storage cannot be used.
    case failed(String)
    /// The storage no longer knows a sync token (it was reset or expired): list everything instead.
    case tokenRejected
    /// The storage refused this one resource (a server's 400, 403, 409, 413, 415 or 507): the others go on.
    case refused(href: String, reason: String)

    public var description: String {
        switch self {
        case .changed(let href): return "\(href) changed while the sync ran; the next sync merges it"
        case .failed(let message): return message
        case .tokenRejected: return "the server no longer knows the sync token"
        case .refused(let href, let reason): return "\(href) was refused: \(reason)"
        }
    }
}

/// The name of a new resource for a UID: `UID.ics` when the UID is a plain file name (letters, digits, `-_.@+`),
/// else `icskit-` and a digest of it, as vdirsyncer names files.
func resourceName(forUID uid: String) -> String {
    let plain = uid.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
            || "-_.@+".unicodeScalars.contains($0)
    }
    if plain, !uid.isEmpty, uid.utf8.count <= 200, !uid.hasPrefix(".") { return uid + ".ics" }
    var hash = FNV1a()
    hash.add(uid)
    return "icskit-" + hash.hex + ".ics"
}
