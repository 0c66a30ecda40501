import Foundation
import NIOCore

/// A response as the service decides it, before HTTP writes it.
struct FeedResponse: Sendable {
    var status: Int
    var headers: [(String, String)]
    /// The body: a built feed's buffer is shared by every response that sends it, not copied.
    var body: ByteBuffer
    /// Whether the body may go out compressed (a 200 to a GET).
    var compressible = false

    /// The one answer to an unknown token, a revoked one and any other path: the same bytes each time.
    static let notFound = FeedResponse(
        status: 404, headers: [("Content-Type", "text/plain; charset=utf-8")], body: ByteBuffer(string: "Not found\n"))

    static func text(_ status: Int, _ text: String) -> FeedResponse {
        FeedResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")],
            body: ByteBuffer(string: text + "\n"))
    }
}

/// What a request carries that the answer depends on.
struct FeedRequest: Sendable {
    var route: FeedRoute
    var isHead: Bool
    var ifNoneMatch: String?
    var ifModifiedSince: String?
    /// The coding a GET's body will take (`HTTPRules.coding`), nil for none.
    var coding: String?
}

/// The server's answers, away from the network: find the share a token names (comparing with every share's hash in
/// a time that does not depend on which, if any, matches), then build its feed once per version and hour, or its
/// free/busy time. Runs on a worker thread.
package struct FeedService: Sendable {
    let source: any FeedSource
    let cache = FeedCache()
    /// The longest free/busy span one request may ask for.
    static let longestFreeBusy: TimeInterval = 366 * 86_400
    /// A token no share has, hashed in place of a missing one so every request costs the same.
    private static let noToken = String(repeating: "A", count: 43)

    func answer(_ request: FeedRequest, now: Date = Date()) throws -> FeedResponse {
        let token: Substring
        switch request.route {
        case .feed(let given), .freeBusy(let given, _): token = given
        case .nothing: token = Substring(Self.noToken)
        }
        let shares = try source.liveShares()
        cache.keep(only: Set(shares.map(\.name)))
        let hash = FeedToken.hash(String(token))
        var found: FeedShare?
        for share in shares {
            let matches = FeedToken.equal(share.tokenHash, hash)
            if matches, found == nil { found = share }
        }
        guard let share = found else { return .notFound }
        switch request.route {
        case .feed: return try feed(of: share, request, now: now)
        case .freeBusy(_, let query): return try freeBusy(of: share, query: query, now: now)
        case .nothing: return .notFound
        }
    }

    private func feed(of share: FeedShare, _ request: FeedRequest, now: Date) throws -> FeedResponse {
        let hour = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
        let built = try cache.feed(for: share.name, key: share.version + "@" + String(Int(hour.timeIntervalSince1970)))
        {
            try source.feed(of: share, now: hour)
        }
        let coding = request.isHead ? nil : request.coding
        let tag = coding.map { String(built.entityTag.dropLast()) + "-" + $0 + "\"" } ?? built.entityTag
        let modified = built.lastModified
        let headers: [(String, String)] = [
            ("ETag", tag), ("Last-Modified", built.lastModifiedText), ("Cache-Control", "private, no-cache"),
            ("Vary", "Accept-Encoding"),
        ]
        var notModified = false
        if let ifNoneMatch = request.ifNoneMatch {
            notModified = HTTPRules.noneMatch(ifNoneMatch, names: tag)
        } else if let since = request.ifModifiedSince.flatMap(HTTPRules.date) {
            notModified = modified <= since
        }
        if notModified { return FeedResponse(status: 304, headers: headers, body: ByteBuffer()) }
        return FeedResponse(
            status: 200, headers: [("Content-Type", "text/calendar; charset=utf-8")] + headers, body: built.body,
            compressible: true)
    }

    private func freeBusy(of share: FeedShare, query: [String: String], now: Date) throws -> FeedResponse {
        let from = query["start"].map(HTTPRules.instant) ?? now
        guard let from else { return .text(400, "start= takes 2026-12-01, 20261201T090000Z or 2026-12-01T09:00:00Z") }
        let to = query["end"].map(HTTPRules.instant) ?? from.addingTimeInterval(42 * 86_400)
        guard let to else { return .text(400, "end= takes 2026-12-01, 20261201T090000Z or 2026-12-01T09:00:00Z") }
        guard from < to, to.timeIntervalSince(from) <= Self.longestFreeBusy else {
            return .text(400, "end= must come after start=, at most 366 days later")
        }
        let body = try source.freeBusy(of: share, from: from, to: to)
        return FeedResponse(
            status: 200,
            headers: [("Content-Type", "text/calendar; charset=utf-8"), ("Cache-Control", "private, no-cache")],
            body: ByteBuffer(bytes: body), compressible: true)
    }
}

extension FeedService {
    /// A request head as text (`GET /feeds/… HTTP/1.1`, then `Name: value` lines) answered as the server answers it,
    /// without a network: its status and body length. The fuzz target reads hostile heads through this.
    package static func answer(head text: String, source: any FeedSource, now: Date) -> (status: Int, bodyBytes: Int) {
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        let request = lines.first.map { $0.split(separator: " ", omittingEmptySubsequences: true) } ?? []
        guard request.count >= 2 else { return (400, 0) }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let method = String(request[0])
        guard method == "GET" || method == "HEAD" else { return (405, 0) }
        let field = { (name: String) in headers.first { $0.0 == name }?.1 }
        let feedRequest = FeedRequest(
            route: FeedRoute(target: String(request[1])), isHead: method == "HEAD", ifNoneMatch: field("if-none-match"),
            ifModifiedSince: field("if-modified-since"),
            coding: HTTPRules.coding(accepting: headers.filter { $0.0 == "accept-encoding" }.map(\.1)))
        do {
            let response = try FeedService(source: source).answer(feedRequest, now: now)
            return (response.status, response.body.readableBytes)
        } catch {
            return (500, 0)
        }
    }
}
