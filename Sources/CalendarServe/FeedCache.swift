import Crypto
import Foundation
import NIOCore

/// A feed as built once and served to every subscriber until its share's version (or the hour) moves on.
struct BuiltFeed: Sendable {
    /// What it was built for: the share's version and the hour.
    var key: String
    /// The iCalendar bytes, in the buffer every response sends.
    var body: ByteBuffer
    /// A strong entity tag from the bytes (quoted), the same whoever builds them.
    var entityTag: String
    /// When these bytes were first served: a rebuild that gives the same bytes keeps the time.
    var lastModified: Date
    /// `lastModified` as the Last-Modified header writes it (IMF-fixdate), made once rather than per response.
    var lastModifiedText: String
}

/// The built feeds, one per share, and the rule that a feed is built once however many ask for it at once: the first
/// to find it missing or stale builds it while the others wait for that build (single flight).
final class FeedCache: @unchecked Sendable {
    // Guarded by `condition`.
    private var feeds: [String: BuiltFeed] = [:]
    private var building: Set<String> = []
    private let condition = NSCondition()
    /// How many builds ran (for tests and the benchmark: a thousand subscribers should cost one).
    private var builds = 0

    /// The share's feed at `key`, built by `build` only when no feed at that key is kept or being built.
    func feed(for name: String, key: String, build: () throws -> [UInt8]) throws -> BuiltFeed {
        condition.lock()
        while true {
            if let kept = feeds[name], kept.key == key {
                condition.unlock()
                return kept
            }
            guard building.contains(name) else { break }
            condition.wait()
        }
        building.insert(name)
        let previous = feeds[name]
        condition.unlock()
        let result = Result { try build() }
        condition.lock()
        defer {
            building.remove(name)
            condition.broadcast()
            condition.unlock()
        }
        let body = try result.get()
        let tag = "\"" + FeedToken.hex(SHA256.hash(data: body).prefix(16)) + "\""
        // Whole seconds: what the header can say, and what If-Modified-Since is compared with.
        let modified =
            previous?.entityTag == tag
            ? previous!.lastModified : Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let built = BuiltFeed(
            key: key, body: ByteBuffer(bytes: body), entityTag: tag, lastModified: modified,
            lastModifiedText: HTTPRules.format(modified))
        feeds[name] = built
        builds += 1
        return built
    }

    /// Forgets the feeds of shares that are gone.
    func keep(only names: Set<String>) {
        condition.lock()
        defer { condition.unlock() }
        feeds = feeds.filter { names.contains($0.key) }
    }

    /// How many builds ran so far.
    var buildCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return builds
    }
}
