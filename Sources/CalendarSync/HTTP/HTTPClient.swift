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
    /// The largest answer body taken, decompressed, in bytes (nil: the client's own limit, 512 MB); a larger one
    /// fails the request before more is read.
    public var maxBodySize: Int?

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
    /// The server closed the connection before any answer: over a kept connection it had closed it before it read
    /// the request, which then goes once more over a new one.
    var closedBeforeAnswer = false
    /// The answer was larger than the request's `maxBodySize` (or the client's limit): nothing of it was used.
    public var isTooLarge = false
    /// A feed held more items than it may (`Feed.Options.maxItems`): nothing of it was merged.
    public var isTooManyItems = false
    public init(_ description: String, isTransient: Bool = false) {
        self.description = description
        self.isTransient = isTransient
    }
}

/// HTTP for feeds and CalDAV: the policy a calendar client needs, run over an `HTTPTransport` (the network through
/// AsyncHTTPClient unless a test gives another): redirects followed up to ten (permanent ones reported, https → http
/// refused, another scheme refused), credentials sent only to the origin they were given for (Basic, or Digest when
/// the server asks for it), `timeout` the deadline of a whole request, retries included (a server that answers a byte
/// a second is cut off), and network errors, timeouts, 429 and 5xx answers tried again with exponential backoff (0.5 s, 1 s,
/// 2 s …) or after the server's `Retry-After` (seconds, at most `maximumDelay`).
public final class HTTPClient: Sendable {
    /// Seconds a request may take, its whole answer, redirects and retries included.
    public let timeout: TimeInterval
    /// How often a failed request is tried again.
    public let retries: Int
    /// The longest wait between two tries.
    public let maximumDelay: TimeInterval
    /// The first wait between two tries; each later one doubles.
    public let initialDelay: TimeInterval
    /// The user and password for the origin of the requests (Basic or Digest authentication).
    let credentials: (user: String, password: String)?
    /// The exchanges go through this, or fail with why it could not be made (a CA file that cannot be read).
    private let transport: Result<any HTTPTransport, HTTPFailure>
    /// The Digest challenge each origin gave, for the requests after the first.
    private let digests = DigestState()
    /// Hears what a person should know of (a password sent in the clear).
    private let warn: @Sendable (String) -> Void
    /// The plain-HTTP origins that asked for a password (a 401), warned of once each; later requests to them carry
    /// it from the start.
    private let warned = OriginSet()

    /// Says something a person should know of through the client's `warn` (a server that named what it may not).
    package func warning(_ text: String) { warn(text) }

    /// A client. `caFile` adds a private CA's certificates (PEM) to the system's trusted roots; `environment` is
    /// where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read; `transport` replaces the network (tests).
    public init(
        timeout: TimeInterval = 30, retries: Int = 3, initialDelay: TimeInterval = 0.5,
        maximumDelay: TimeInterval = 30, credentials: (user: String, password: String)? = nil, caFile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, transport: (any HTTPTransport)? = nil,
        warn: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.warn = warn
        self.timeout = timeout
        self.retries = retries
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.credentials = credentials
        if let transport {
            self.transport = .success(transport)
        } else {
            do {
                self.transport = .success(try NetworkTransport(caFile: caFile, environment: environment))
            } catch let failure as HTTPFailure {
                self.transport = .failure(failure)
            } catch {
                self.transport = .failure(HTTPFailure("\(error)"))
            }
        }
    }

    /// Sends a request, retrying what may pass on another try, all within `timeout`: the tries and the waits
    /// between them end at one deadline (a server that answers a byte a second, or fails again and again, costs
    /// `timeout` and no more). `onRetry` hears of each retry and why.
    public func send(_ request: HTTPRequest, onRetry: (String) -> Void = { _ in }) throws -> HTTPResponse {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var attempt = 0
        while true {
            let outcome = once(request, deadline: deadline)
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
            case .failure(let error):
                reason = error.description
            }
            delay = min(max(delay, 0), maximumDelay)
            // No more tries: the last answer, or the last failure, is the outcome.
            if attempt >= retries || Date(timeIntervalSinceNow: delay) >= deadline || outcome.isPermanentFailure {
                switch outcome {
                case .success(let response): return response
                case .failure(var error):
                    error.description = "\(request.method) \(request.url.absoluteString): \(error.description)"
                    throw error
                }
            }
            attempt += 1
            onRetry("\(reason); trying again in \(String(format: "%.1f", delay)) s (\(attempt) of \(retries))")
            Thread.sleep(forTimeInterval: delay)
        }
    }

    /// One exchange, following up to ten redirects.
    private func once(_ request: HTTPRequest, deadline: Date) -> Result<HTTPResponse, HTTPFailure> {
        let transport: any HTTPTransport
        switch self.transport {
        case .success(let made): transport = made
        case .failure(let failure): return .failure(failure)
        }
        var current = request
        var redirects: [Redirect] = []
        do {
            while true {
                // The password goes only where it was meant for: not to another scheme, host or port a redirect
                // points to.
                let sameOrigin = Self.origin(current.url) == Self.origin(request.url)
                var response = try authenticated(
                    current, sameOrigin ? credentials : nil, over: transport, deadline: deadline)
                guard [301, 302, 303, 307, 308].contains(response.status),
                    let location = response[header: "Location"],
                    let next = URL(string: location, relativeTo: current.url)?.absoluteURL
                else {
                    response.redirects = redirects
                    return .success(response)
                }
                guard redirects.count < 10 else { return .failure(HTTPFailure("more than 10 redirects")) }
                // Decided before the next connection opens (RedirectPolicy): no link-local address, no way from a
                // public address into loopback or a private network, no https → http.
                if let refusal = RedirectPolicy.refusal(start: request.url, current: current.url, next: next) {
                    return .failure(HTTPFailure(refusal))
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

    /// `scheme://host:port`, lower-cased, the port spelled out.
    static func origin(_ url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? ""):\(port(of: url))"
    }

    /// The URL's port, or its scheme's (443 for https, else 80).
    static func port(of url: URL) -> Int { url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80) }

    /// One exchange with the credentials, if any: Digest where the origin asked for it before, else Basic; a 401
    /// that offers Digest (a first challenge, or a new nonce for a stale one) is answered once more with Digest.
    private func authenticated(
        _ request: HTTPRequest, _ credentials: (user: String, password: String)?, over transport: any HTTPTransport,
        deadline: Date
    ) throws -> HTTPResponse {
        func exchange(_ request: HTTPRequest) throws -> HTTPResponse {
            do {
                return try transport.exchange(request, deadline: deadline)
            } catch let failure as HTTPFailure where failure.closedBeforeAnswer && request.method != "POST" {
                return try transport.exchange(request, deadline: deadline)
            }
        }
        guard let credentials, !request.headers.contains(where: { $0.name.lowercased() == "authorization" }) else {
            return try exchange(request)
        }
        let origin = Self.origin(request.url)
        func withHeader(_ value: String) -> HTTPRequest {
            var signed = request
            signed.headers.append((name: "Authorization", value: value))
            return signed
        }
        let basic = "Basic " + Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString()
        // Over plain HTTP a password goes out only once the server asked for it (a 401), and then with a warning.
        let isPlain = request.url.scheme?.lowercased() == "http"
        let digest = digests.header(for: origin, request, credentials)
        let unasked = isPlain && !warned.contains(origin)
        let answer = try exchange(digest.map(withHeader) ?? (unasked ? request : withHeader(basic)))
        guard answer.status == 401 else { return answer }
        if let challenge = answer[header: "WWW-Authenticate"].flatMap(DigestChallenge.init) {
            digests.remember(challenge, for: origin)
            guard let header = digests.header(for: origin, request, credentials) else { return answer }
            return try exchange(withHeader(header))
        }
        guard isPlain, digest == nil else { return answer }
        if warned.insert(origin) {
            warn(
                "\(origin) asks for a password over plain http: it is sent unencrypted (use https:// if the server "
                    + "has it)")
        }
        return try exchange(withHeader(basic))
    }
}

/// Origins, for the warnings said once each (`@unchecked Sendable`: under `lock`).
final class OriginSet: @unchecked Sendable {
    private let lock = NSLock()
    private var origins: Set<String> = []

    /// Whether `origin` was new.
    func insert(_ origin: String) -> Bool { lock.withLock { origins.insert(origin).inserted } }

    func contains(_ origin: String) -> Bool { lock.withLock { origins.contains(origin) } }
}

/// The Digest challenge per origin and how many requests answered it (`@unchecked Sendable`: under `lock`).
final class DigestState: @unchecked Sendable {
    private let lock = NSLock()
    private var challenges: [String: (challenge: DigestChallenge, count: Int)] = [:]

    func remember(_ challenge: DigestChallenge, for origin: String) {
        lock.withLock { challenges[origin] = (challenge, 0) }
    }

    /// The `Authorization` header for a request to `origin`, when it asked for Digest before.
    func header(
        for origin: String, _ request: HTTPRequest, _ credentials: (user: String, password: String)
    ) -> String? {
        let counted: (DigestChallenge, Int)? = lock.withLock {
            guard var entry = challenges[origin] else { return nil }
            entry.count += 1
            challenges[origin] = entry
            return (entry.challenge, entry.count)
        }
        guard let (challenge, count) = counted else { return nil }
        // The request target as sent: the path and query as the URL spells them (percent-encoded).
        var target = request.url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = request.url.query(percentEncoded: true) { target += "?" + query }
        let nonce = (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max)) }.joined()
        return challenge.authorization(
            user: credentials.user, password: credentials.password, method: request.method, target: target,
            count: count, clientNonce: nonce)
    }
}

extension Result where Failure == HTTPFailure {
    /// A failure another try cannot mend (a certificate not trusted, a URL that cannot be requested).
    var isPermanentFailure: Bool {
        if case .failure(let failure) = self { return !failure.isTransient }
        return false
    }
}
