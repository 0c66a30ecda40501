import CalendarModel
import Foundation

/// One HTTP request.
public struct HTTPRequest: Sendable {
    /// GET, PUT, PROPFIND, REPORT …
    public var method: String
    /// Where to send it.
    public var url: URL
    /// Header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body, if any.
    public var body: [UInt8]?

    /// A request with no body.
    public init(_ method: String, _ url: URL, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One HTTP answer, after redirects.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields by lower-case name.
    public var headers: [String: String]
    /// The body.
    public var body: [UInt8]
    /// The URL that answered (after redirects).
    public var url: URL
    /// The redirects followed on the way, in order.
    public var redirects: [Redirect]
    /// Whether the server answered as HTTP/1.1 (whose connections stay open unless it says `Connection: close`).
    var isHTTP11 = false

    /// A header field by name, any case.
    public subscript(header name: String) -> String? { headers[name.lowercased()] }

    /// Where the resource lives now when every redirect on the way was permanent (301, 308): the URL to remember.
    public var permanentLocation: URL? {
        guard !redirects.isEmpty, redirects.allSatisfy({ $0.status == 301 || $0.status == 308 }) else { return nil }
        return redirects.last?.to
    }
}

/// A redirect followed: its status and both ends.
public struct Redirect: Sendable, Hashable {
    public var status: Int
    public var from: URL
    public var to: URL
}

/// A request that failed for good: no connection after the retries, or a status the caller cannot use.
public struct HTTPFailure: Error, CustomStringConvertible, Sendable {
    public var description: String
    /// Whether another try may pass: a timeout or a lost or refused connection, not a TLS or URL error.
    public var isTransient: Bool
    /// A wait for the server that ran out (such a request may still be under way there).
    var isTimeout = false
    /// Failed before a byte of an answer came back, not for want of time: over a kept connection, the server had
    /// closed it before it read the request.
    var beforeAnswer = false
    public init(_ description: String, isTransient: Bool = false) {
        self.description = description
        self.isTransient = isTransient
    }
}

/// HTTP/1.1 of ICSKit's own over POSIX sockets, with TLS from OpenSSL (Debian's libssl). Not Foundation's
/// URLSession: on Linux that is FoundationNetworking over libcurl, and loading it (libcurl and some thirty libraries
/// behind it) adds about 20 ms to the start of every `icskit` process, whether it goes on the network or not, which
/// alone would take a refresh answered 304 past its 50 ms. Not async-http-client: SwiftNIO and BoringSSL would more
/// than double the build for one request at a time. What a calendar client needs is small: requests one at a
/// time over a connection kept open while the server allows it (an upload of 1,000 items spent a quarter of its CPU
/// opening and closing connections), any method (PROPFIND, REPORT), Content-Length or chunked answers, redirects
/// (permanent ones reported), Basic authentication, and certificates verified against the system's roots and the
/// host name, with no way to turn that off.
///
/// Network errors, timeouts, 429 and 5xx answers are retried with exponential backoff (0.5 s, 1 s, 2 s …) or after
/// the server's `Retry-After` (seconds, at most `maximumDelay`).
public final class HTTPClient: Sendable {
    /// Seconds a request may wait for the server.
    public let timeout: TimeInterval
    /// How often a failed request is tried again.
    public let retries: Int
    /// The longest wait between two tries.
    public let maximumDelay: TimeInterval
    /// The first wait between two tries; each later one doubles.
    public let initialDelay: TimeInterval
    /// Basic authentication (user, password), sent with every request.
    let credentials: (user: String, password: String)?
    /// Connections the last answers left open, one per origin, for the next request.
    private let idle = IdleConnections()

    /// A client; `credentials` become an `Authorization: Basic` header.
    public init(
        timeout: TimeInterval = 30, retries: Int = 3, initialDelay: TimeInterval = 0.5,
        maximumDelay: TimeInterval = 30, credentials: (user: String, password: String)? = nil
    ) {
        self.timeout = timeout
        self.retries = retries
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.credentials = credentials
    }

    /// Sends a request, retrying what may pass on another try; `onRetry` hears of each retry and why.
    public func send(_ request: HTTPRequest, onRetry: (String) -> Void = { _ in }) throws -> HTTPResponse {
        var attempt = 0
        while true {
            let outcome = once(request)
            let reason: String
            var delay = initialDelay * pow(2, Double(attempt))
            switch outcome {
            case .success(let response):
                guard response.status == 429 || (500...599).contains(response.status) else { return response }
                reason = "HTTP \(response.status)"
                if let after = response[header: "Retry-After"].flatMap({
                    TimeInterval($0.trimmingCharacters(in: .whitespaces))
                }) {
                    delay = after
                }
                if attempt >= retries {
                    return response
                }
            case .failure(let error):
                reason = error.description
                if attempt >= retries || !error.isTransient {
                    throw HTTPFailure("\(request.method) \(request.url.absoluteString): \(error.description)")
                }
            }
            attempt += 1
            delay = min(max(delay, 0), maximumDelay)
            onRetry("\(reason); trying again in \(String(format: "%.1f", delay)) s (\(attempt) of \(retries))")
            Thread.sleep(forTimeInterval: delay)
        }
    }

    /// One exchange, following up to ten redirects.
    private func once(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPFailure> {
        var current = request
        var redirects: [Redirect] = []
        do {
            while true {
                // The password goes only where it was meant for: not to another scheme, host or port a redirect
                // points to.
                let sameOrigin =
                    current.url.scheme?.lowercased() == request.url.scheme?.lowercased()
                    && current.url.host?.lowercased() == request.url.host?.lowercased()
                    && current.url.port == request.url.port
                var response = try HTTP1.exchange(
                    current, credentials: sameOrigin ? credentials : nil, timeout: timeout, idle: idle)
                guard [301, 302, 303, 307, 308].contains(response.status),
                    let location = response[header: "Location"],
                    let next = URL(string: location, relativeTo: current.url)?.absoluteURL
                else {
                    response.redirects = redirects
                    return .success(response)
                }
                guard redirects.count < 10 else { return .failure(HTTPFailure("more than 10 redirects")) }
                guard ["http", "https"].contains(next.scheme?.lowercased() ?? "") else {
                    return .failure(HTTPFailure("a redirect to \(next.absoluteString), which is not http(s)"))
                }
                if current.url.scheme?.lowercased() == "https", next.scheme?.lowercased() == "http" {
                    return .failure(HTTPFailure("a redirect from https to plain http (\(next.absoluteString)) refused"))
                }
                redirects.append(Redirect(status: response.status, from: current.url, to: next))
                // 303 (and 301/302 after a POST, as browsers do) continue with GET; 307 and 308 keep the method.
                if response.status == 303 || ([301, 302].contains(response.status) && current.method == "POST") {
                    current = HTTPRequest("GET", next, headers: current.headers)
                } else {
                    current.url = next
                }
            }
        } catch let failure as HTTPFailure {
            return .failure(failure)
        } catch {
            return .failure(HTTPFailure("\(error)"))
        }
    }
}

/// HTTP/1.1 over `Connection`s kept open between exchanges (`IdleConnections`): the request written whole, the
/// answer read by Content-Length, chunks, or to the end of the stream.
enum HTTP1 {
    /// The largest answer read (a calendar of this size is an attack or a mistake).
    static let bodyLimit = 512 * 1024 * 1024
    static let headLimit = 64 * 1024

    static func exchange(
        _ request: HTTPRequest, credentials: (user: String, password: String)?, timeout: TimeInterval,
        idle: IdleConnections? = nil
    ) throws -> HTTPResponse {
        guard let host = request.url.host, !host.isEmpty else {
            throw HTTPFailure("\(request.url.absoluteString) has no host")
        }
        let isTLS = request.url.scheme?.lowercased() == "https"
        let port = request.url.port ?? (isTLS ? 443 : 80)
        let origin = "\(isTLS ? "https" : "http")://\(host.lowercased()):\(port)"
        var target = request.url.path.isEmpty ? "/" : request.url.path
        if let query = request.url.query { target += "?" + query }
        let hostField = request.url.port.map { "\(host):\($0)" } ?? host
        var head = "\(request.method) \(target) HTTP/1.1\r\nHost: \(hostField)\r\n"
        if idle == nil { head += "Connection: close\r\n" }
        head += "Accept-Encoding: identity\r\n"
        let named = Set(request.headers.map { $0.name.lowercased() })
        if !named.contains("user-agent") { head += "User-Agent: icskit/\(ICS.version)\r\n" }
        if let credentials, !named.contains("authorization") {
            let token = Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString()
            head += "Authorization: Basic \(token)\r\n"
        }
        for (name, value) in request.headers {
            // A header cannot smuggle another one in.
            guard !name.contains(where: \.isNewline), !value.contains(where: \.isNewline) else { continue }
            head += "\(name): \(value)\r\n"
        }
        if let body = request.body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let bytes = Array(head.utf8) + (request.body ?? [])

        // A kept connection the server closed in the meantime fails before any answer arrives: the request then
        // goes once more over a new connection (the server never read it). Any other failure is the caller's.
        if let kept = idle?.take(origin) {
            do {
                return try exchange(bytes, request, over: kept, origin: origin, idle: idle)
            } catch let failure as HTTPFailure where failure.beforeAnswer {
                kept.close()
            }
        }
        let connection = try Connection(host: host, port: port, useTLS: isTLS, timeout: timeout)
        return try exchange(bytes, request, over: connection, origin: origin, idle: idle)
    }

    /// One request and its answer over `connection`, which goes back to `idle` when the answer leaves it ready
    /// for another (HTTP/1.1, not `Connection: close`, its body read to the byte), and is closed otherwise.
    private static func exchange(
        _ bytes: [UInt8], _ request: HTTPRequest, over connection: Connection, origin: String,
        idle: IdleConnections?
    ) throws -> HTTPResponse {
        var reusable = false
        defer { if reusable, let idle { idle.put(connection, origin) } else { connection.close() } }
        do { try connection.write(bytes) } catch var failure as HTTPFailure {
            failure.beforeAnswer = !failure.isTimeout
            throw failure
        }
        var buffer: [UInt8] = []
        var response: HTTPResponse
        var headEnd: Int
        // Interim answers (100 Continue) come before the real one.
        repeat {
            headEnd = try readHead(connection, &buffer)
            response = try parseHead(buffer[..<headEnd], url: request.url)
            buffer.removeFirst(headEnd + 4)
        } while (100...199).contains(response.status)
        let keepsOpen = response.isHTTP11 && !hasToken(response[header: "Connection"], "close")
        if request.method == "HEAD" || response.status == 204 || response.status == 304 {
            reusable = keepsOpen && buffer.isEmpty
            return response
        }
        if hasToken(response[header: "Transfer-Encoding"], "chunked") {
            let (body, isComplete) = try readChunked(connection, buffer)
            reusable = keepsOpen && isComplete
            response.body = body
        } else if let lengthText = response[header: "Content-Length"] {
            guard let length = Int(lengthText.trimmingASCIISpace), length >= 0, length <= bodyLimit
            else { throw HTTPFailure("the answer's Content-Length \"\(lengthText)\" cannot be read") }
            while buffer.count < length {
                guard try connection.read(into: &buffer) > 0 else {
                    throw HTTPFailure(
                        "the connection closed after \(buffer.count) of \(length) bytes", isTransient: true)
                }
            }
            reusable = keepsOpen && buffer.count == length
            response.body = Array(buffer.prefix(length))
        } else {
            while try connection.read(into: &buffer) > 0 {
                guard buffer.count <= bodyLimit else { throw HTTPFailure("the answer is larger than 512 MB") }
            }
            response.body = buffer
        }
        return response
    }

    /// Whether a header's comma-separated list holds `token` (lower-case letters), ignoring case and spaces.
    /// Compared as bytes: Foundation's `contains` on a String went through NSString, twice per answer.
    static func hasToken(_ value: String?, _ token: String) -> Bool {
        guard let value else { return false }
        return value.utf8.split(separator: UInt8(ascii: ",")).contains { item in
            var word = item[...]
            while let first = word.first, first == 0x20 || first == 0x09 { word = word.dropFirst() }
            while let last = word.last, last == 0x20 || last == 0x09 { word = word.dropLast() }
            return word.count == token.utf8.count && zip(word, token.utf8).allSatisfy { $0 | 0x20 == $1 }
        }
    }

    /// Reads until the blank line that ends the head; returns where it starts.
    static func readHead(_ connection: Connection, _ buffer: inout [UInt8]) throws -> Int {
        var searched = 0
        while true {
            if buffer.count >= 4 {
                for index in max(0, searched - 3)..<(buffer.count - 3)
                where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13
                    && buffer[index + 3] == 10
                {
                    return index
                }
                searched = buffer.count
            }
            guard buffer.count <= headLimit else { throw HTTPFailure("the answer's header is larger than 64 KB") }
            let count: Int
            do { count = try connection.read(into: &buffer) } catch var failure as HTTPFailure {
                failure.beforeAnswer = buffer.isEmpty && !failure.isTimeout
                throw failure
            }
            guard count > 0 else {
                var failure = HTTPFailure("the server closed the connection without an answer", isTransient: true)
                failure.beforeAnswer = buffer.isEmpty
                throw failure
            }
        }
    }

    /// The status line and header fields. Read as bytes: Foundation's line splitting and trimming took a seventh of
    /// the CPU of uploading 1,000 items (one answer each). Lines end with CRLF; a bare LF is taken as well
    /// (RFC 9112 §2.2), and spaces and tabs around names and values are dropped.
    static func parseHead(_ bytes: ArraySlice<UInt8>, url: URL) throws -> HTTPResponse {
        func trimmed(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
            guard let first = text.firstIndex(where: { !isSpace($0) }) else { return [] }
            let last = text.lastIndex(where: { !isSpace($0) }) ?? first
            return text[first...last]
        }
        // Line by line, in place: the head of each of a sync's thousands of answers is parsed here.
        var rest = bytes[...]
        func nextLine() -> ArraySlice<UInt8>? {
            guard !rest.isEmpty else { return nil }
            let end = rest.firstIndex(of: 0x0A) ?? rest.endIndex
            var line = rest[..<end]
            rest = end < rest.endIndex ? rest[(end + 1)...] : []
            if line.last == 0x0D { line = line.dropLast() }
            return line
        }
        let statusLine = nextLine() ?? []
        let statusParts = statusLine.split(separator: 0x20, maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].starts(with: "HTTP/1.".utf8),
            let status = Int(String(decoding: statusParts[1], as: UTF8.self))
        else {
            throw HTTPFailure("not an HTTP answer: \"\(String(decoding: statusLine, as: UTF8.self))\"")
        }
        var headers: [String: String] = [:]
        while let line = nextLine() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let name = String(
                decoding: trimmed(line[..<colon]).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
            let value = String(decoding: trimmed(line[(colon + 1)...]), as: UTF8.self)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        var response = HTTPResponse(status: status, headers: headers, body: [], url: url, redirects: [])
        response.isHTTP11 = statusParts[0].elementsEqual("HTTP/1.1".utf8)
        return response
    }

    /// A chunked body, and whether the answer ended where the data read ends (the last chunk and the trailer
    /// section read to their empty line, nothing after them): only then may the connection carry another request.
    static func readChunked(_ connection: Connection, _ start: [UInt8]) throws -> (body: [UInt8], isComplete: Bool) {
        var buffer = start
        var position = 0
        var body: [UInt8] = []
        /// The next line, trimmed; nil when the connection closes first.
        func line() throws -> String? {
            while true {
                if let end = buffer[position...].firstIndex(of: 10) {
                    let text = String(decoding: buffer[position..<end], as: UTF8.self)
                    position = end + 1
                    return text.trimmingASCIISpace
                }
                guard try connection.read(into: &buffer) > 0 else { return nil }
            }
        }
        while true {
            guard let sizeLine = try line() else {
                throw HTTPFailure("the connection closed inside a chunk", isTransient: true)
            }
            let sizeText = sizeLine.split(separator: ";").first.map(String.init) ?? ""
            guard let size = Int(sizeText, radix: 16), size >= 0 else {
                throw HTTPFailure("a chunk size \"\(sizeText)\" cannot be read")
            }
            if size == 0 {
                // Trailer fields (ignored) up to an empty line. A server that closes without that line has sent the
                // whole body all the same.
                while let trailer = try line() {
                    if trailer.isEmpty { return (body, position == buffer.count) }
                }
                return (body, false)
            }
            guard body.count + size <= bodyLimit else { throw HTTPFailure("the answer is larger than 512 MB") }
            while buffer.count < position + size + 2 {
                guard try connection.read(into: &buffer) > 0 else {
                    throw HTTPFailure("the connection closed inside a chunk", isTransient: true)
                }
            }
            body += buffer[position..<position + size]
            position += size + 2
            if position > 1 << 20 {
                buffer.removeFirst(position)
                position = 0
            }
        }
    }
}

/// The connections left open after an answer, at most one per origin (requests go one at a time). `@unchecked
/// Sendable`: every access goes through `lock`.
final class IdleConnections: @unchecked Sendable {
    private let lock = NSLock()
    private var connections: [String: Connection] = [:]

    /// The open connection to `origin`, if one is kept and the server has not closed it since.
    func take(_ origin: String) -> Connection? {
        guard let connection = lock.withLock({ connections.removeValue(forKey: origin) }) else { return nil }
        guard connection.isIdle else {
            connection.close()
            return nil
        }
        return connection
    }

    /// Keeps `connection` for the next request to `origin` (closing the one kept before, if any).
    func put(_ connection: Connection, _ origin: String) {
        lock.withLock { connections.updateValue(connection, forKey: origin) }?.close()
    }
}
