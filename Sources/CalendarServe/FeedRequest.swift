import Foundation

/// What a request asks for, read from its target alone: a feed, a share's free/busy time, or nothing the server has.
enum FeedRoute: Equatable {
    /// `/feeds/<token>.ics`
    case feed(token: Substring)
    /// `/feeds/<token>/freebusy?start=…&end=…`
    case freeBusy(token: Substring, query: [String: String])
    /// Anything else, a token of the wrong shape included: the same 404 as an unknown token.
    case nothing

    /// The route of a request target. Nothing is decoded: a token is URL-safe as it stands, so `%2e%2e`, `..` and
    /// any other escape are simply no token.
    init(target: String) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts[0]
        guard path.hasPrefix("/feeds/") else {
            self = .nothing
            return
        }
        let rest = path.dropFirst("/feeds/".count)
        if rest.hasSuffix(".ics") {
            let token = rest.dropLast(4)
            self = FeedToken.isWellFormed(token) ? .feed(token: token) : .nothing
        } else if rest.hasSuffix("/freebusy") {
            let token = rest.dropLast("/freebusy".count)
            self =
                FeedToken.isWellFormed(token)
                ? .freeBusy(token: token, query: Self.query(parts.count > 1 ? parts[1] : "")) : .nothing
        } else {
            self = .nothing
        }
    }

    /// A query's fields (`start=…&end=…`), percent-decoded; a field named twice keeps its first value.
    static func query(_ text: Substring) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") where !pair.isEmpty {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(halves[0]).removingPercentEncoding ?? String(halves[0])
            let value = halves.count > 1 ? (String(halves[1]).removingPercentEncoding ?? String(halves[1])) : ""
            if fields[name] == nil { fields[name] = value }
        }
        return fields
    }
}

/// The HTTP rules a feed's responses follow: dates (RFC 9110 §5.6.7), entity tags (§8.8.3, §13.1.2) and which coding
/// a client takes.
enum HTTPRules {
    /// A date as IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// A date in any of the three forms RFC 9110 §5.6.7 says a recipient accepts; nil for anything else (the
    /// header is then ignored, as §13.1.3 says).
    static func date(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text.trimmingCharacters(in: .whitespaces)) { return date }
        }
        return nil
    }

    /// Whether an If-None-Match value names `tag`: `*`, or a list of entity tags compared weakly (a `W/` prefix does
    /// not matter), as §13.1.2 says.
    static func noneMatch(_ header: String, names tag: String) -> Bool {
        let wanted = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
        for item in header.split(separator: ",") {
            let value = item.trimmingCharacters(in: .whitespaces)
            if value == "*" { return true }
            if (value.hasPrefix("W/") ? String(value.dropFirst(2)) : value) == wanted { return true }
        }
        return false
    }

    /// The content coding a response takes for these Accept-Encoding values: gzip when the client takes it (or
    /// `*`), else none. Deflate is never chosen: clients disagree on what it means (RFC 9110 §8.4.1.2), and one coding
    /// keeps one compressed representation, with one entity tag of its own.
    static func coding(accepting values: [String]) -> String? {
        var (gzip, any): (Float?, Float?) = (nil, nil)
        for value in values.flatMap({ $0.split(separator: ",") }) {
            let item = value.trimmingCharacters(in: .whitespaces).lowercased()
            if item.hasPrefix("gzip") || item.hasPrefix("x-gzip") {
                gzip = Self.quality(item)
            } else if item.hasPrefix("*") {
                any = Self.quality(item)
            }
        }
        return (gzip ?? any ?? 0) > 0 ? "gzip" : nil
    }

    /// The `q` of one Accept-Encoding item (1 when it has none; 0 when it cannot be read).
    private static func quality(_ item: String) -> Float {
        guard let semicolon = item.firstIndex(of: ";") else { return 1 }
        let parameter = item[item.index(after: semicolon)...].trimmingCharacters(in: .whitespaces)
        guard parameter.hasPrefix("q=") else { return 1 }
        return Float(parameter.dropFirst(2)) ?? 0
    }

    /// A free/busy bound from a query: `2026-12-01`, `20261201T090000Z` or `2026-12-01T09:00:00Z` (UTC).
    static func instant(_ text: String) -> Date? {
        let digits = text.filter { $0.isNumber }
        let isDay = digits.count == 8 && (text.count == 8 || text.count == 10)
        let isTime = digits.count == 14 && text.hasSuffix("Z")
        guard isDay || isTime else { return nil }
        var parts = DateComponents()
        let values = stride(from: 0, to: digits.count, by: 2).map { offset -> Int in
            let start = digits.index(digits.startIndex, offsetBy: offset)
            return Int(digits[start..<digits.index(start, offsetBy: 2)]) ?? 0
        }
        parts.year = values[0] * 100 + values[1]
        (parts.month, parts.day) = (values[2], values[3])
        if isTime { (parts.hour, parts.minute, parts.second) = (values[4], values[5], values[6]) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard parts.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: parts)
    }
}
