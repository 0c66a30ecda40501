import CalendarMerge
import CalendarModel
import Foundation

/// Web calendars (webcal / HTTP(S) feeds, read-only): fetching one with the validators of the last fetch, and
/// merging what changed into its store calendar through `CalendarMerger`, with merge's guards.
///
/// Feeds get validators wrong in practice, so a fetch does not trust them alone: a body whose digest equals the
/// last one merged is not merged again (no ETag at all, If-Modified-Since ignored); a 304 to a request that asked
/// nothing conditional is an error; a conditional request is sent only while the last full answer is younger than
/// `revalidateAfter` (a feed that always answers 304 is read in full at least that often); and a feed that
/// regenerates every UID on each fetch is matched to what it said before by content (see `matchingRegeneratedUIDs`).
public enum Feed {
    /// `webcal://` and `webcals://` are `https://` (Apple's convention, followed by every client); `http(s)://` stays.
    public static func httpURL(_ text: String) -> URL? {
        var text = text.trimmingCharacters(in: .whitespaces)
        for scheme in ["webcals://", "webcal://"] where text.lowercased().hasPrefix(scheme) {
            text = "https://" + text.dropFirst(scheme.count)
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else { return nil }
        return url
    }

    /// The source name a feed's merge base is kept under in the store.
    public static func sourceName(_ subscription: Subscription) -> String { "feed:" + subscription.url }

    /// How a refresh asks and what it may do.
    /// `Options.maxSize` unless set: 100 MB, five times the largest real calendar export we have seen.
    public static let defaultMaxSize = 100 << 20
    /// `Options.maxItems` unless set: 100,000 events, todos and journals. A feed of tiny items costs far more to
    /// merge than its bytes (some 3 kB each): a million under the size limit took 3 GB.
    public static let defaultMaxItems = 100_000

    public struct Options: Sendable {
        /// Fetch even when the feed's minimum interval has not passed, and ask unconditionally.
        public var force = false
        /// A conditional request is sent only while the last full answer is younger than this (seconds).
        public var revalidateAfter: Int64 = 86_400
        /// The merge's options (guards, conflict policy, dry run).
        public var merge = MergeOptions()
        /// Now, in Unix seconds (tests set it).
        public var now = Int64(Date().timeIntervalSince1970)
        /// The largest feed read, decompressed, in bytes: a larger answer fails and changes nothing (memory while
        /// merging is some five times the feed's size).
        public var maxSize = Feed.defaultMaxSize
        /// The most events, todos and journals a feed may hold: a feed with more fails and changes nothing.
        public var maxItems = Feed.defaultMaxItems

        public init() {}
    }

    /// What one refresh did.
    public struct Report: Sendable {
        public enum Outcome: Sendable {
            /// The feed's minimum interval has not passed since it was last asked; asked nothing.
            case notDue(nextAt: Int64)
            /// 304 Not Modified.
            case notModified
            /// A full answer, byte for byte the body merged last time.
            case unchanged
            /// A new body, merged.
            case merged(MergeResult)
        }
        /// The calendar refreshed.
        public var calendar: String
        public var outcome: Outcome
        /// The subscription as it now stands (saved unless a dry run or a refused merge).
        public var subscription: Subscription
        /// What the reader found wrong in the body, and what a refresh noticed (a move, a regenerated UID set …).
        public var diagnostics: [Diagnostic] = []
        /// Notes for the user: redirects, retries, validators that did not work.
        public var notes: [String] = []
    }

    /// Whether a refresh may ask the feed now: not before its minimum interval has passed, unless forced.
    public static func nextAllowed(_ subscription: Subscription, options: Options) -> Int64? {
        guard !options.force, let checked = subscription.checkedAt, let interval = subscription.minimumInterval,
            options.now < checked + interval
        else { return nil }
        return checked + interval
    }

    /// The validators to send: none when forced, on the first fetch, or when the last full answer is older than
    /// `revalidateAfter`.
    public static func conditionalHeaders(_ subscription: Subscription, options: Options) -> [(
        name: String, value: String
    )] {
        guard !options.force, let fetched = subscription.fetchedAt, options.now - fetched < options.revalidateAfter
        else { return [] }
        var headers: [(name: String, value: String)] = []
        if let etag = subscription.etag { headers.append(("If-None-Match", etag)) }
        if let modified = subscription.lastModified { headers.append(("If-Modified-Since", modified)) }
        return headers
    }

    /// Fetches a feed and merges a changed body into its calendar, saving what the fetch learnt.
    public static func refresh(
        _ subscription: Subscription, store: some FeedKeeping, client: HTTPClient, options: Options
    ) throws -> Report {
        var report = Report(calendar: subscription.calendar, outcome: .notModified, subscription: subscription)
        if let next = nextAllowed(subscription, options: options) {
            report.outcome = .notDue(nextAt: next)
            return report
        }
        guard let url = httpURL(subscription.fetchURL) else {
            throw HTTPFailure("\(subscription.fetchURL) is not an http(s) or webcal URL")
        }
        let conditional = conditionalHeaders(subscription, options: options)
        var request = HTTPRequest("GET", url, headers: [("Accept", "text/calendar, */*;q=0.5")] + conditional)
        request.maxBodySize = options.maxSize
        let response = try client.send(request, onRetry: { report.notes.append("\(url.absoluteString): \($0)") })
        var updated = subscription
        updated.checkedAt = options.now
        for redirect in response.redirects {
            report.notes.append(
                "\(redirect.from.absoluteString) redirects (\(redirect.status)) to \(redirect.to.absoluteString)")
        }
        if let moved = response.permanentLocation {
            updated.location = moved.absoluteString
            report.notes.append("the feed moved permanently; later refreshes ask \(moved.absoluteString)")
        }
        switch response.status {
        case 304:
            guard !conditional.isEmpty else {
                throw HTTPFailure(
                    "\(url.absoluteString) answered 304 Not Modified to a request that asked nothing conditional")
            }
            report.outcome = .notModified
            report.subscription = updated
            if !options.merge.dryRun { try store.save(updated) }
            return report
        case 200...299:
            break
        default:
            throw HTTPFailure("\(url.absoluteString) answered HTTP \(response.status); nothing merged")
        }
        try checkCalendarBody(response, from: url, options: options)
        updated.etag = response[header: "ETag"]
        updated.lastModified = response[header: "Last-Modified"]
        updated.fetchedAt = options.now
        var taking = Taking(
            subscription: subscription, updated: updated, report: report, url: url, wasConditional: !conditional.isEmpty
        )
        try taking.take(response.body, store: store, options: options)
        return taking.report
    }

    /// Refuses a body that is no calendar (a calendar says so near its start; a login page or an error page does not)
    /// or holds more items than `options.maxItems`.
    private static func checkCalendarBody(_ response: HTTPResponse, from url: URL, options: Options) throws {
        guard
            response.body.count < 16 || response.body.prefix(4096).firstRange(of: Array("BEGIN:VCALENDAR".utf8)) != nil
        else {
            let type = response[header: "Content-Type"] ?? "no content type"
            throw HTTPFailure(
                "\(url.absoluteString) answered with something that is not a calendar (\(type)); nothing merged")
        }
        let items = itemCount(response.body)
        guard items <= options.maxItems else {
            var failure = HTTPFailure(
                "\(url.absoluteString) holds more than \(options.maxItems) items (\(items)); nothing merged")
            failure.isTooManyItems = true
            throw failure
        }
    }

    /// How many events, todos and journals a body holds: its `BEGIN:VEVENT`, `BEGIN:VTODO` and `BEGIN:VJOURNAL`
    /// lines, counted before anything is parsed.
    static func itemCount(_ body: [UInt8]) -> Int {
        let names = ["VEVENT", "VTODO", "VJOURNAL"].map { Array("BEGIN:\($0)".utf8) }
        var count = 0
        var start = 0
        body.withUnsafeBufferPointer { bytes in
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                var line = bytes[start..<end]
                if line.last == 0x0D { line = line.dropLast() }
                if line.count >= 11, line.count <= 14,
                    names.contains(where: { name in
                        name.count == line.count
                            && zip(name, line).allSatisfy { $0 == ($1 >= 0x61 && $1 <= 0x7A ? $1 - 0x20 : $1) }
                    })
                {
                    count += 1
                }
                start = end + 1
            }
        }
        return count
    }

    /// A feed's body taken into its calendar: merged unless it is the body merged last time, and what the fetch
    /// learnt saved with it.
    struct Taking {
        let subscription: Subscription
        var updated: Subscription
        var report: Report
        let url: URL
        let wasConditional: Bool

        mutating func take(_ body: [UInt8], store: some FeedKeeping, options: Options) throws {
            let digest = SourceDigest.of(body)
            if digest == subscription.bodyHash {
                if wasConditional {
                    report.notes.append(
                        "\(url.absoluteString) sent the whole calendar again although nothing changed "
                            + "(its validators do not work); nothing to merge")
                }
                report.outcome = .unchanged
                report.subscription = updated
                if !options.merge.dryRun { try store.save(updated) }
                return
            }
            let source = sourceName(subscription)
            var read = ICS.read(body, file: url.absoluteString)
            report.diagnostics = read.diagnostics
            let base = try store.mergeSnapshot(calendar: subscription.calendar, source: source).base
            if let (calendars, matched) = try matchingRegeneratedUIDs(
                read.calendars, base: base, store: store, calendar: subscription.calendar)
            {
                read.calendars = calendars
                report.notes.append(
                    "the feed gave every item a new UID since the last refresh (matching by UID fails); "
                        + "\(matched) matched by content to the items they were")
            }
            updated.minimumInterval = minimumInterval(read.calendars)
            var merge = options.merge
            merge.digest = digest
            merge.isTruncated = read.isTruncated
            let result = try CalendarMerger.merge(
                read.calendars, into: subscription.calendar, source: source, storage: store, options: merge)
            report.outcome = .merged(result)
            // Validators and the body's digest are remembered only when the merge took the body, so a refused or
            // partial merge (a cut-off download) is fetched and tried again next time.
            if !merge.dryRun {
                if result.withheldDeletions > 0 || read.isTruncated {
                    updated.etag = subscription.etag
                    updated.lastModified = subscription.lastModified
                    updated.bodyHash = subscription.bodyHash
                    updated.fetchedAt = subscription.fetchedAt
                } else {
                    updated.bodyHash = digest
                }
                try store.save(updated)
            }
            report.subscription = updated
        }
    }

    /// REFRESH-INTERVAL (RFC 7986) or X-PUBLISHED-TTL (Microsoft), as seconds: the least time between two fetches.
    static func minimumInterval(_ calendars: [ICalendar]) -> Int64? {
        for calendar in calendars {
            for name in ["REFRESH-INTERVAL", "X-PUBLISHED-TTL"] {
                if let property = calendar.otherProperties.first(where: { $0.name == name }),
                    let duration = try? CalendarDuration.parse(property.value).get(), !duration.isNegative
                {
                    return Int64(duration.totalSeconds)
                }
            }
        }
        return nil
    }

    /// Some feeds give every item a new UID on each fetch, so matching by UID finds nothing and a refresh would
    /// delete and add the whole calendar. When none of the feed's UIDs is in the merge base but the base is not
    /// empty, each UID group (a series with its overrides) whose content — everything but UID, DTSTAMP,
    /// LAST-MODIFIED, CREATED and SEQUENCE — equals that of a stored group from this feed takes the stored UID.
    /// Nil when the UIDs are not regenerated; else the calendars with UIDs matched and how many groups matched.
    static func matchingRegeneratedUIDs(
        _ calendars: [ICalendar], base: [MergeKey: String], store: some FeedKeeping, calendar: String
    ) throws -> ([ICalendar], Int)? {
        let baseUIDs = Set(base.keys.map(\.uid))
        let feedUIDs = Set(calendars.flatMap(\.components).compactMap { $0.core?.uid })
        guard !baseUIDs.isEmpty, !feedUIDs.isEmpty, baseUIDs.isDisjoint(with: feedUIDs) else { return nil }
        let stored = try store.loadCalendars(named: calendar, window: nil).flatMap { $0.calendar.components }
        var storedByContent: [String: String] = [:]
        for (uid, key) in contentKeys(stored) where baseUIDs.contains(uid) {
            storedByContent[key] = storedByContent[key] == nil ? uid : ""  // "" marks a key two groups share
        }
        var renamed: [String: String] = [:]
        for (uid, key) in contentKeys(calendars.flatMap(\.components)) {
            if let old = storedByContent[key], !old.isEmpty { renamed[uid] = old }
        }
        let top = calendars.flatMap(\.topLevelComponents).map { component in
            var component = component
            component.components = component.components.map { child in
                var child = child
                if let index = child.properties.firstIndex(where: { $0.name == "UID" }),
                    let old = renamed[TextEscaping.unescape(child.properties[index].value)]
                {
                    child.properties[index].value = TextEscaping.escape(old)
                }
                return child
            }
            return component
        }
        return (ICS.calendars(from: top).calendars, renamed.count)
    }

    /// Each UID group's content key: the sorted fingerprints of its components without the properties a
    /// regenerating feed changes.
    private static func contentKeys(_ components: [CalendarComponent]) -> [String: String] {
        let volatile: Set<String> = ["UID", "DTSTAMP", "LAST-MODIFIED", "CREATED", "SEQUENCE"]
        var prints: [String: [String]] = [:]
        for component in components where component.isItem {
            guard let uid = component.core?.uid else { continue }
            var generic = component.component
            generic.properties.removeAll { volatile.contains($0.name) }
            prints[uid, default: []].append(generic.fingerprint)
        }
        return prints.mapValues { $0.sorted().joined(separator: "+") }
    }
}
