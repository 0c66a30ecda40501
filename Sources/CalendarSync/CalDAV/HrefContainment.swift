import Foundation

/// Which hrefs a CalDAV collection's server may name: those inside the collection. An href is resolved against the
/// collection's URL (an absolute URL must have its scheme, host and port; a relative one and dot segments are
/// resolved) and counts only when its path lies below the collection's path. A server that lists anything else
/// (`../../other/x.ics`, `/cal/victim/private.ics`, `https://other.invalid/x.ics`) never gets a request for it.
struct HrefContainment: Sendable {
    /// The collection's path, decoded, ending in `/`.
    let collectionPath: String
    /// The collection's origin (`HTTPClient.origin`: scheme, host, port spelled out).
    let origin: String

    init(collection: URL, collectionPath: String) {
        self.collectionPath = collectionPath
        origin = HTTPClient.origin(collection)
    }

    /// The href's path (decoded, dot segments resolved) when it lies inside the collection; nil when it does not,
    /// or names the collection itself.
    func path(of href: String) -> String? {
        let path: String
        if href.hasPrefix("/"), !href.hasPrefix("//") {
            path = DAV.path(href)
        } else if let colon = href.firstIndex(of: ":"), href[..<colon].allSatisfy({ $0.isLetter }),
            href[colon...].hasPrefix("://")
        {
            guard let url = URL(string: href), HTTPClient.origin(url) == origin else { return nil }
            path = DAV.path(href)
        } else if href.hasPrefix("//") {
            return nil  // another authority, whatever it names
        } else {
            path = collectionPath + (DAV.percentDecoded(href) ?? href)
        }
        let resolved = Self.removingDotSegments(path)
        guard resolved.count > collectionPath.count, resolved.hasPrefix(collectionPath) else { return nil }
        return resolved
    }

    /// `/a/b/../c/./d` → `/a/c/d` (RFC 3986 §5.2.4); a `..` above the root stays at the root.
    static func removingDotSegments(_ path: String) -> String {
        guard path.contains("/.") else { return path }
        var out: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let last = index == segments.count - 1
            switch segment {
            case ".":
                if last { out.append("") }
            case "..":
                if out.count > 1 { out.removeLast() }
                if last { out.append("") }
            default: out.append(segment)
            }
        }
        return out.joined(separator: "/")
    }
}
