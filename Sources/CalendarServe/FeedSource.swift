import Foundation

/// A share as the server sees it: its name, its token's hash and a version that moves whenever what it shows would
/// change (its calendars' generations and its own settings). Two fetches at the same version and in the same hour
/// get the same bytes.
package struct FeedShare: Sendable, Hashable {
    /// The share's name: the cache's key, never shown.
    package var name: String
    /// The SHA-256 of its token, lower-case hex (`FeedToken.hash`).
    package var tokenHash: String
    /// What it shows now: any text that changes when the feed would.
    package var version: String

    /// A share named `name` whose token hashes to `tokenHash`, at `version`.
    package init(name: String, tokenHash: String, version: String) {
        (self.name, self.tokenHash, self.version) = (name, tokenHash, version)
    }
}

/// Where the server takes its shares and feeds from (`icskit serve` gives the store). Every call comes on one of the
/// server's worker threads, never on a network thread, and only reads.
package protocol FeedSource: Sendable {
    /// The shares live now (a revoked one is gone from the next call on).
    func liveShares() throws -> [FeedShare]
    /// The share's calendar as iCalendar bytes, its window taken from `now`.
    func feed(of share: FeedShare, now: Date) throws -> [UInt8]
    /// A VFREEBUSY of the share's busy time between `from` and `to`, as iCalendar bytes.
    func freeBusy(of share: FeedShare, from: Date, to: Date) throws -> [UInt8]
}
