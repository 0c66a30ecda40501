import CalendarModel
import Foundation

/// A CalDAV calendar collection (RFC 4791) as a `SyncStorage`: PROPFIND lists the resources and their ETags,
/// calendar-multiget fetches them in batches, PUT with `If-None-Match: *` creates, PUT and DELETE with `If-Match`
/// change, and a 412 answer means the resource changed since the listing (left for the next sync, which merges it).
public struct CalDAVStorage: IncrementalSyncStorage {
    /// The collection's URL (ending in `/`).
    public let collection: URL
    /// The collection's path, decoded as `DAV.path` decodes hrefs (worked out once: from a whole URL it goes through
    /// Foundation's parsing, which cost a create a tenth of its time).
    let collectionPath: String
    /// `scheme://authority` of the collection: an href that is an absolute path is appended to it (resolving it
    /// against the collection through Foundation cost a create a twentieth of its time).
    let origin: String?
    let client: HTTPClient
    /// Which hrefs the server may name: those inside the collection.
    let containment: HrefContainment
    /// The most resources a listing may name (PROPFIND, sync-collection); a listing of more, or larger than 2 kB
    /// an entry, fails before it is read (a server that lists a million hrefs is not followed into gigabytes).
    public var maxResources = CalDAVStorage.defaultMaxResources
    /// `maxResources` unless set.
    public static let defaultMaxResources = 100_000
    /// Resources fetched per calendar-multiget REPORT.
    public var batchSize = 200

    public init(collection: URL, client: HTTPClient) {
        let text = collection.absoluteString
        self.collection = text.hasSuffix("/") ? collection : URL(string: text + "/") ?? collection
        collectionPath = DAV.path(self.collection)
        let whole = self.collection.absoluteString
        origin = whole.range(of: "://").flatMap { separator in
            whole[separator.upperBound...].firstIndex(of: "/").map { String(whole[..<$0]) }
        }
        self.client = client
        containment = HrefContainment(collection: self.collection, collectionPath: collectionPath)
    }

    public var identity: String { "caldav:" + collection.absoluteString }

    public func list() throws -> [(href: String, etag: String)] {
        let answer = try DAV.request(
            client, "PROPFIND", collection, depth: "1",
            body: DAV.propfind(["<d:getetag/>", "<d:resourcetype/>"]), maxBodySize: listingLimit)
        var outside: [String] = []
        defer { warnOfOutside(outside) }
        let responses = try DAV.responses(answer)
        try checkCount(responses.count)
        return responses.compactMap { response in
            guard let href = containment.path(of: response.href) else {
                if DAV.path(response.href) != collectionPath { outside.append(response.href) }
                return nil
            }
            guard !response.isCollection, let etag = response.etag else { return nil }
            return (href, etag)
        }
    }

    /// The bytes a listing of `maxResources` may take.
    var listingLimit: Int { min(maxResources, Int.max >> 12) << 11 }

    func checkCount(_ count: Int) throws {
        guard count > maxResources + 1 else { return }  // the collection's own entry besides
        throw SyncStorageError.failed(
            "\(collection.absoluteString) lists \(count - 1) resources, more than the limit of \(maxResources); nothing "
                + "was synced (icskit sync --max-resources raises it)")
    }

    /// One warning for the hrefs a server named outside the collection, which are left alone.
    func warnOfOutside(_ hrefs: [String]) {
        guard let first = hrefs.first else { return }
        client.warning(
            "\(collection.absoluteString) named \(hrefs.count) resource\(hrefs.count == 1 ? "" : "s") outside the "
                + "collection (\(first)\(hrefs.count > 1 ? ", …" : "")); ignored")
    }

    /// sync-collection (RFC 6578), looping while the server truncates its answer (507 for the collection). A
    /// rejected token is recognised by the `DAV:valid-sync-token` precondition in the answer, whatever its status
    /// (Radicale answers 403, Xandikos 412).
    public func changes(since token: String?) throws -> SyncChanges {
        var changes = SyncChanges(changed: [], removed: [], token: token)
        var seen: [String: Int] = [:]
        for _ in 0..<100 {
            let body =
                "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:sync-collection xmlns:d=\"DAV:\">"
                + "<d:sync-token>\(XMLEscaping.escape(changes.token ?? ""))</d:sync-token><d:sync-level>1</d:sync-level>"
                + "<d:prop><d:getetag/></d:prop></d:sync-collection>"
            var request = HTTPRequest(
                "REPORT", collection, headers: [("Depth", "1"), ("Content-Type", "application/xml; charset=utf-8")],
                body: Array(body.utf8))
            request.maxBodySize = listingLimit
            let answer = try client.send(request)
            if answer.status != 207 {
                if String(decoding: answer.body, as: UTF8.self).contains("valid-sync-token") {
                    throw SyncStorageError.tokenRejected
                }
                throw DAV.failure("REPORT sync-collection", collection.absoluteString, answer)
            }
            var truncated = false
            var outside: [String] = []
            defer { warnOfOutside(outside) }
            let (responses, newToken) = try DAV.multistatus(answer)
            try checkCount(changes.changed.count + responses.count)
            for response in responses {
                guard let href = containment.path(of: response.href) else {
                    if DAV.path(response.href) == collectionPath {
                        truncated = truncated || response.status == 507
                    } else {
                        outside.append(response.href)
                    }
                    continue
                }
                if response.status == 404 {
                    changes.removed.append(href)
                    if let index = seen.removeValue(forKey: href) { changes.changed[index].etag = "" }
                } else if let etag = response.etag, !response.isCollection {
                    if let index = seen[href] {
                        changes.changed[index].etag = etag
                    } else {
                        seen[href] = changes.changed.count
                        changes.changed.append((href, etag))
                    }
                    changes.removed.removeAll { $0 == href }
                }
            }
            changes.token = newToken ?? changes.token
            if !truncated { break }
        }
        changes.changed.removeAll { $0.etag.isEmpty }
        return changes
    }

    public func fetch(_ hrefs: [String]) throws -> [(href: String, etag: String, bytes: [UInt8])] {
        var fetched: [(href: String, etag: String, bytes: [UInt8])] = []
        var start = 0
        while start < hrefs.count {
            let batch = hrefs[start..<min(start + batchSize, hrefs.count)]
            start += batchSize
            let body =
                "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
                + "<c:calendar-multiget xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"
                + "<d:prop><d:getetag/><c:calendar-data/></d:prop>"
                + batch.map { "<d:href>\(XMLEscaping.escape(DAV.encoded($0)))</d:href>" }.joined()
                + "</c:calendar-multiget>"
            let answer = try DAV.request(client, "REPORT", collection, depth: "1", body: body)
            for response in try DAV.responses(answer) {
                guard let etag = response.etag, let data = response.calendarData,
                    let href = containment.path(of: response.href)
                else { continue }
                fetched.append((href, etag, Array(data.utf8)))
            }
        }
        return fetched
    }

    public func create(_ href: String, _ bytes: [UInt8]) throws -> String {
        try put(href, bytes, condition: ("If-None-Match", "*"))
    }

    public func update(_ href: String, _ bytes: [UInt8], ifMatch etag: String) throws -> String {
        try put(href, bytes, condition: ("If-Match", etag))
    }

    public func delete(_ href: String, ifMatch etag: String) throws {
        let answer = try client.send(HTTPRequest("DELETE", try url(href), headers: [("If-Match", etag)]))
        switch answer.status {
        case 200...299, 404: return
        case 412: throw SyncStorageError.changed(href)
        default: throw DAV.failure("DELETE", href, answer)
        }
    }

    public func href(forUID uid: String) -> String {
        collectionPath + resourceName(forUID: uid)
    }

    private func put(_ href: String, _ bytes: [UInt8], condition: (String, String)) throws -> String {
        let target = try url(href)
        let answer = try client.send(
            HTTPRequest(
                "PUT", target, headers: [("Content-Type", "text/calendar; charset=utf-8"), condition], body: bytes))
        switch answer.status {
        case 200...299: break
        case 412: throw SyncStorageError.changed(href)
        // This resource is refused (its content, its size, the quota): the others go on.
        case 400, 403, 409, 413, 415, 507:
            throw SyncStorageError.refused(href: href, reason: "HTTP \(answer.status)" + DAV.reason(answer))
        default: throw DAV.failure("PUT", href, answer)
        }
        if let etag = answer[header: "ETag"], !etag.hasPrefix("W/") { return etag }
        // No (strong) ETag in the answer: ask for it.
        let properties = try DAV.request(
            client, "PROPFIND", target, depth: "0", body: DAV.propfind(["<d:getetag/>"]))
        guard let etag = try DAV.responses(properties).first?.etag else {
            throw SyncStorageError.failed("\(href): the server gave no ETag")
        }
        return etag
    }

    func url(_ href: String) throws -> URL {
        guard containment.path(of: href) != nil else {
            throw SyncStorageError.failed(
                "\(href) lies outside the collection \(collection.absoluteString); nothing is sent there")
        }
        let encoded = DAV.encoded(href)
        if let origin, encoded.hasPrefix("/"), !encoded.hasPrefix("//"), let url = URL(string: origin + encoded) {
            return url
        }
        guard let url = URL(string: encoded, relativeTo: collection)?.absoluteURL else {
            throw SyncStorageError.failed("\(href) is not a URL path")
        }
        return url
    }
}

/// WebDAV requests and multistatus answers (RFC 4918), as CalDAV uses them.
enum DAV {
    struct Response {
        var href: String
        /// The response's own status (a removed member in sync-collection: 404; a truncated answer: 507).
        var status: Int?
        var etag: String?
        var isCollection = false
        var isCalendar = false
        var displayName: String?
        var color: String?
        var calendarData: String?
        /// Hrefs inside a property (current-user-principal, calendar-home-set).
        var hrefProperties: [String: String] = [:]
    }

    static func propfind(_ properties: [String]) -> String {
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:propfind xmlns:d=\"DAV:\" "
            + "xmlns:c=\"urn:ietf:params:xml:ns:caldav\" xmlns:a=\"http://apple.com/ns/ical/\">"
            + "<d:prop>" + properties.joined() + "</d:prop></d:propfind>"
    }

    static func request(
        _ client: HTTPClient, _ method: String, _ url: URL, depth: String, body: String, maxBodySize: Int? = nil
    ) throws -> HTTPResponse {
        var request = HTTPRequest(
            method, url, headers: [("Depth", depth), ("Content-Type", "application/xml; charset=utf-8")],
            body: Array(body.utf8))
        request.maxBodySize = maxBodySize
        let answer = try client.send(request)
        guard answer.status == 207 else { throw failure(method, url.absoluteString, answer) }
        return answer
    }

    /// What a server said of a refusal, for people: the precondition of a WebDAV error body
    /// (`valid-calendar-object-resource`), else the first line of a text body, at most 200 characters; empty when
    /// it said nothing (`: ` and the reason otherwise).
    static func reason(_ answer: HTTPResponse) -> String {
        let text = String(decoding: answer.body.prefix(64 << 10), as: UTF8.self)
        if let tree = try? XMLElement.parse(Array(text.utf8)), tree.name == "error",
            let condition = tree.children.first?.name
        {
            return ": " + condition
        }
        let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty && !$0.hasPrefix("<") }
        guard let line else { return "" }
        let printable = String(line.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(200))
        return printable.isEmpty ? "" : ": " + printable
    }

    static func failure(_ method: String, _ target: String, _ answer: HTTPResponse) -> SyncStorageError {
        if isWebPage(answer) {
            // A web login screen (a single sign-on page, a captive portal) or the server's web interface.
            return .failed(
                "\(target) answered \(method) \(webPageText): give the collection's CalDAV URL, and the user name "
                    + "and password for it")
        }
        let hint = answer.status == 401 ? " (wrong user or password?)" : answer.status == 403 ? " (not allowed)" : ""
        return .failed("\(method) \(target) answered HTTP \(answer.status)\(hint)")
    }

    /// How a failure says that the server answered with a web page.
    static let webPageText = "with a web page (a login screen?), not CalDAV"

    /// A successful answer that is an HTML page: by its Content-Type, or by how its body starts.
    static func isWebPage(_ answer: HTTPResponse) -> Bool {
        // An error page in HTML (404, 500) is the server's error, said by its status.
        guard (200...299).contains(answer.status) else { return false }
        if answer[header: "Content-Type"]?.lowercased().contains("text/html") == true { return true }
        let start = String(decoding: answer.body.prefix(512), as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines
        )
        .lowercased()
        return start.hasPrefix("<!doctype html") || start.hasPrefix("<html")
    }

    /// The `response` elements of a multistatus body, with the properties found (status 200).
    static func responses(_ answer: HTTPResponse) throws -> [Response] { try multistatus(answer).responses }

    /// The `response` elements of a multistatus body and its sync token (RFC 6578), from one parse.
    static func multistatus(_ answer: HTTPResponse) throws -> (responses: [Response], token: String?) {
        let root: XMLElement
        do { root = try XMLElement.parse(answer.body) } catch {
            if isWebPage(answer) { throw failure("the request", answer.url.absoluteString, answer) }
            throw SyncStorageError.failed("the server's multistatus answer is not XML: \(error)")
        }
        let token = root.children(named: "sync-token").first?.text.trimmingASCIISpace
        let responses = root.children(named: "response").compactMap { element -> Response? in
            guard let href = element.children(named: "href").first?.text.trimmingASCIISpace else {
                return nil
            }
            var response = Response(href: href)
            if let status = element.children(named: "status").first?.text.split(separator: " ").dropFirst().first {
                response.status = Int(status)
            }
            for propstat in element.children(named: "propstat") {
                let status = propstat.children(named: "status").first?.text ?? ""
                guard status.contains(" 200") else { continue }
                for property in propstat.children(named: "prop").flatMap(\.children) {
                    if property.name == "calendar-data" {
                        response.calendarData = property.text
                        continue
                    }
                    let text = property.text.trimmingASCIISpace
                    switch property.name {
                    case "getetag": response.etag = text.isEmpty ? nil : text
                    case "resourcetype":
                        response.isCollection = !property.children(named: "collection").isEmpty
                        response.isCalendar = !property.children(named: "calendar").isEmpty
                    case "displayname": response.displayName = text.isEmpty ? nil : text
                    case "calendar-color": response.color = text.isEmpty ? nil : text
                    default:
                        if let inner = property.children(named: "href").first?.text {
                            response.hrefProperties[property.name] = inner.trimmingASCIISpace
                        }
                    }
                }
            }
            return response
        }
        return (responses, token)
    }

    /// The path of an href or URL, percent-decoded: how hrefs are kept and compared (servers encode `@` or not).
    static func path(_ href: String) -> String {
        // Most servers answer with absolute paths: decoded here byte by byte (Foundation's URL parsing and
        // percent-decoding cost more than the rest of reading a response).
        if href.hasPrefix("/"), !href.utf8.contains(where: { "?#;".utf8.contains($0) }),
            let decoded = percentDecoded(href)
        {
            return decoded
        }
        let path = URL(string: href)?.path ?? href
        return (path.removingPercentEncoding ?? path) + (href.hasSuffix("/") && !path.hasSuffix("/") ? "/" : "")
    }

    static func path(_ url: URL) -> String { path(url.absoluteString) }

    /// `%XX` escapes resolved; nil when one is malformed or the result is not UTF-8.
    static func percentDecoded(_ text: String) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2])
                else { return nil }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// A decoded path as an href a server reads: every byte outside RFC 3986's path characters (Foundation's
    /// `urlPathAllowed`: letters, digits, `!$&'()*+,-./:=@_~`) as `%XX`. Byte by byte: Foundation's encoder cost a
    /// fiftieth of a 5,000-item download.
    static func encoded(_ path: String) -> String {
        guard path.utf8.contains(where: { !isPathByte($0) }) else { return path }
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count + 16)
        for byte in path.utf8 {
            if isPathByte(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default: return "!$&'()*+,-./:=@_~".utf8.contains(byte)
        }
    }
}

/// Finding the calendars of an account from a server's root URL: `/.well-known/caldav`, the current user's
/// principal, its calendar-home-set, and the calendar collections in it (RFC 4791 §6.2.1, RFC 5397, RFC 6764).
public enum CalDAVDiscovery {
    public struct Calendar: Sendable {
        public var url: URL
        public var displayName: String?
        public var color: String?
    }

    public static func calendars(at start: URL, client: HTTPClient) throws -> [Calendar] {
        // The URL may already be a calendar.
        let first = Result {
            try DAV.responses(
                DAV.request(
                    client, "PROPFIND", start, depth: "0",
                    body: DAV.propfind(["<d:resourcetype/>", "<d:displayname/>", "<a:calendar-color/>"])))
        }
        if let own = try? first.get().first, own.isCalendar {
            return [Calendar(url: start, displayName: own.displayName, color: own.color)]
        }
        // A web sign-in page is said as such, not as a server without CalDAV.
        if case .failure(let error) = first, case .failed(let text) = error as? SyncStorageError,
            text.contains(DAV.webPageText)
        {
            throw error
        }
        var principal: String?
        for candidate in [start, URL(string: "/.well-known/caldav", relativeTo: start)!.absoluteURL] {
            let answer = try? DAV.request(
                client, "PROPFIND", candidate, depth: "0", body: DAV.propfind(["<d:current-user-principal/>"]))
            if let answer, let found = try DAV.responses(answer).first?.hrefProperties["current-user-principal"] {
                principal = URL(string: found, relativeTo: answer.url)?.absoluteString
                break
            }
        }
        guard let principal, let principalURL = URL(string: principal) else {
            throw SyncStorageError.failed(
                "\(start.absoluteString): no CalDAV account found (no current-user-principal)")
        }
        let homeAnswer = try DAV.request(
            client, "PROPFIND", principalURL, depth: "0", body: DAV.propfind(["<c:calendar-home-set/>"]))
        guard let homeHref = try DAV.responses(homeAnswer).first?.hrefProperties["calendar-home-set"],
            let home = URL(string: homeHref, relativeTo: principalURL)?.absoluteURL
        else {
            throw SyncStorageError.failed("\(principal): no calendar-home-set")
        }
        let listing = try DAV.request(
            client, "PROPFIND", home, depth: "1",
            body: DAV.propfind(["<d:resourcetype/>", "<d:displayname/>", "<a:calendar-color/>"]))
        return try DAV.responses(listing).compactMap { response in
            guard response.isCalendar, let url = URL(string: response.href, relativeTo: home)?.absoluteURL else {
                return nil
            }
            return Calendar(url: url, displayName: response.displayName, color: response.color)
        }
    }
}
