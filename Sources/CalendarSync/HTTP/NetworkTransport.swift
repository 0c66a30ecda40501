internal import AsyncHTTPClient
import CalendarModel
import Foundation
internal import NIOCore
internal import NIOHTTP1
internal import NIOHTTPCompression
internal import NIOPosix
internal import NIOSSL

/// One HTTP exchange: a request out and its answer back, no redirect followed and nothing tried again. `HTTPClient`
/// runs its policy (redirects, credentials, retries) over one; tests can give it one that answers without a server.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the answer with its whole body, or fails by `deadline`.
    func exchange(_ request: HTTPRequest, deadline: Date) throws -> HTTPResponse
}

/// The network, through AsyncHTTPClient (SwiftNIO, TLS by swift-nio-ssl): HTTP/1.1 and HTTP/2 where the server
/// offers it over TLS, connections kept and reused, certificates verified against the system's roots (and a
/// private CA's, `caFile`) and the host name, with no way to turn that off; gzip and deflate answers decompressed
/// up to a limit; `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` honoured as curl honours them.
final class NetworkTransport: HTTPTransport {
    /// The largest answer taken (a calendar of this size is an attack or a mistake), decompressed.
    static let bodyLimit = 512 * 1024 * 1024
    /// How far a compressed answer may grow: a calendar shrinks some tenfold; a gzip bomb a thousandfold.
    static let compressionRatioLimit = 200

    private let caFile: String?
    private let proxies: [String: AsyncHTTPClient.HTTPClient.Configuration.Proxy]
    private let bypass: ProxyBypass
    /// The clients made so far, by scheme and whether through the proxy: made on first use, so that a plain http
    /// request (a feed refresh answered 304 in a few milliseconds) reads no certificates.
    private let clients = Clients()

    init(caFile: String?, environment: [String: String]) throws {
        self.caFile = caFile
        var proxies: [String: AsyncHTTPClient.HTTPClient.Configuration.Proxy] = [:]
        for scheme in ["http", "https"] {
            let names = ["\(scheme)_proxy", "\(scheme.uppercased())_PROXY"]
            guard let text = names.lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else { continue }
            proxies[scheme] = try Self.proxy(text)
        }
        self.proxies = proxies
        bypass = ProxyBypass(environment["no_proxy"] ?? environment["NO_PROXY"] ?? "")
    }

    /// The client for a request to `host` over `scheme` (the proxy decided once per host and scheme: a sync asks
    /// for the same one a thousand times).
    private func client(scheme: String, host: String) throws -> AsyncHTTPClient.HTTPClient {
        try clients.client(scheme: scheme, host: host) {
            let proxy = proxies[scheme].flatMap { bypass.bypasses(host) ? nil : $0 }
            return (key: "\(scheme) \(proxy != nil)", proxy: proxy)
        } make: { proxy in
            var tls = TLSConfiguration.makeClientConfiguration()
            if scheme == "https", let caFile {
                let certificates: [NIOSSLCertificate]
                do { certificates = try NIOSSLCertificate.fromPEMFile(caFile) } catch {
                    throw HTTPFailure("cannot read the CA certificates in \(caFile): \(error)")
                }
                guard !certificates.isEmpty else { throw HTTPFailure("\(caFile) holds no PEM certificate") }
                tls.additionalTrustRoots = [.certificates(certificates)]
            }
            var configuration = AsyncHTTPClient.HTTPClient.Configuration(
                tlsConfiguration: tls, redirectConfiguration: .disallow, proxy: proxy,
                decompression: .enabled(limit: .ratio(Self.compressionRatioLimit)))
            configuration.httpVersion = .automatic
            // A connection that cannot be made (refused, a certificate not trusted) fails the exchange at once: the
            // client's own retries decide what is worth another try, instead of AsyncHTTPClient trying again until
            // the deadline.
            configuration.connectionPool.retryConnectionEstablishment = false
            // No tracing: by default every request opens a span with the global no-op tracer, which cost a twentieth
            // of an upload's CPU (type casts and a span name per request) for nothing.
            configuration.tracing.tracer = nil
            return AsyncHTTPClient.HTTPClient(
                eventLoopGroupProvider: .shared(clients.group), configuration: configuration)
        }
    }

    /// The clients made, shut down with the transport, and which one each scheme and host takes (`@unchecked
    /// Sendable`: under `lock`).
    final class Clients: @unchecked Sendable {
        typealias Proxy = AsyncHTTPClient.HTTPClient.Configuration.Proxy
        /// One event-loop thread for every client: the commands send one request at a time, and with the two of
        /// the shared group each answer crossed from the connection's thread to the request's (an upload of 350
        /// resources took a tenth more CPU).
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        private let lock = NSLock()
        private var made: [String: AsyncHTTPClient.HTTPClient] = [:]
        private var chosen: [String: AsyncHTTPClient.HTTPClient] = [:]

        /// The client for `host` over `scheme`: `route` names the client and its proxy, `make` makes it the first
        /// time that name is asked for.
        func client(
            scheme: String, host: String, route: () -> (key: String, proxy: Proxy?),
            make: (Proxy?) throws -> AsyncHTTPClient.HTTPClient
        ) throws -> AsyncHTTPClient.HTTPClient {
            try lock.withLock {
                let destination = scheme + "://" + host
                if let client = chosen[destination] { return client }
                let (key, proxy) = route()
                let client = try made[key] ?? make(proxy)
                made[key] = client
                chosen[destination] = client
                return client
            }
        }

        deinit {
            for client in made.values { try? client.syncShutdown() }
            try? group.syncShutdownGracefully()
        }
    }

    /// `http://[user:password@]host:port` (a bare `host:port` too).
    static func proxy(_ text: String) throws -> AsyncHTTPClient.HTTPClient.Configuration.Proxy {
        let given = URLUserInfo(text.contains("://") ? text : "http://" + text)
        guard let url = URL(string: given.url), let host = url.host, url.scheme?.lowercased() == "http" else {
            throw HTTPFailure(
                "the proxy \(URLUserInfo.redacting(text)) is not an http:// proxy address (HTTPS_PROXY, HTTP_PROXY)")
        }
        let authorization = given.credentials.map {
            AsyncHTTPClient.HTTPClient.Authorization.basic(username: $0.user, password: $0.password)
        }
        return .server(host: host, port: url.port ?? 80, authorization: authorization)
    }

    func exchange(_ request: HTTPRequest, deadline: Date) throws -> HTTPResponse {
        guard let host = request.url.host, !host.isEmpty, let scheme = request.url.scheme?.lowercased() else {
            throw HTTPFailure("\(request.url.absoluteString) has no host")
        }
        let client = try client(scheme: scheme, host: host)
        var headers = HTTPHeaders()
        for (name, value) in request.headers {
            // A header cannot smuggle another one in.
            guard !name.contains(where: \.isNewline), !value.contains(where: \.isNewline) else { continue }
            headers.add(name: name, value: value)
        }
        if !headers.contains(name: "User-Agent") { headers.add(name: "User-Agent", value: "icskit/\(ICS.version)") }
        if !headers.contains(name: "Accept-Encoding") { headers.add(name: "Accept-Encoding", value: "gzip, deflate") }
        let seconds = max(0, deadline.timeIntervalSinceNow)
        let outgoing: AsyncHTTPClient.HTTPClient.Request
        do {
            outgoing = try AsyncHTTPClient.HTTPClient.Request(
                url: request.url, method: HTTPMethod(rawValue: request.method), headers: headers,
                body: request.body.map { .bytes($0) })
        } catch {
            throw HTTPFailure("\(request.url.absoluteString) cannot be requested (not a URL an HTTP client can ask)")
        }
        // The future API, started on the event loop and waited for on this thread: one hop there and one back per
        // exchange. Started from this thread, AsyncHTTPClient hands the loop four or five tasks one by one, each
        // waking it (an upload of 350 resources took a third more CPU); through a Swift concurrency task an upload
        // of 1,050 took 0.94 s of CPU instead of 0.82. The deadline is the whole exchange's, body included: a server
        // that answers a byte a second is cut off (HTTPStackCLITests).
        let nioDeadline = NIODeadline.now() + .nanoseconds(Int64(seconds * 1_000_000_000))
        let limit = min(request.maxBodySize ?? Self.bodyLimit, Self.bodyLimit)
        let loop = clients.group.next()
        let started = loop.flatSubmit {
            client.execute(
                request: outgoing, delegate: ResponseAccumulator(request: outgoing, maxBodySize: limit),
                eventLoop: .delegate(on: loop), deadline: nioDeadline
            ).futureResult
        }
        let answer: AsyncHTTPClient.HTTPClient.Response
        do { answer = try started.wait() } catch {
            let proxy = proxies[scheme].flatMap { bypass.bypasses(host) ? nil : $0 }
            throw Self.failure(
                error, request: request, host: host, seconds: seconds, limit: limit,
                proxy: proxy.map { "\($0.host) port \($0.port)" })
        }
        var fields: [String: String] = [:]
        for (name, value) in answer.headers {
            let key = name.lowercased()
            fields[key] = fields[key].map { $0 + ", " + value } ?? value
        }
        var body = answer.body ?? ByteBuffer()
        return HTTPResponse(
            status: Int(answer.status.code), headers: fields, body: body.readBytes(length: body.readableBytes) ?? [],
            url: request.url, redirects: [])
    }

    /// `100 MB`, `1.5 MB`, `512 kB`.
    static func megabytes(_ bytes: Int) -> String {
        if bytes < 1 << 20 { return "\(bytes >> 10) kB" }
        let value = Double(bytes) / Double(1 << 20)
        return (value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)) + " MB"
    }

    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// What went wrong, as a person can act on it: never the network library's own words. `proxy` names the proxy
    /// the request went through, if any.
    static func failure(
        _ error: any Error, request: HTTPRequest, host: String, seconds: TimeInterval, limit: Int = bodyLimit,
        proxy: String? = nil
    ) -> HTTPFailure {
        let text = "\(error)"
        if let proxy, let blamed = proxyFailure(error, proxy: proxy) { return blamed }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .cancelled:
                return HTTPFailure(
                    "no complete answer from \(host) within \(Self.seconds(seconds)) s", isTransient: true)
            case .remoteConnectionClosed:
                var failure = HTTPFailure("\(host) closed the connection before it answered", isTransient: true)
                failure.closedBeforeAnswer = true
                return failure
            default:
                break
            }
        }
        if error is NIOTooManyBytesError || error is ResponseAccumulator.ResponseTooBigError {
            var failure = HTTPFailure("the answer from \(host) is larger than \(Self.megabytes(limit)); not read")
            failure.isTooLarge = true
            return failure
        }
        if error is NIOHTTPDecompression.DecompressionError {
            return HTTPFailure(
                "the answer from \(host) decompresses to more than \(compressionRatioLimit) times its size "
                    + "(a compression bomb, or a damaged stream); not read")
        }
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return HTTPFailure("the certificate of \(host) is for another host name; not connected")
        }
        if case NIOSSLError.handshakeFailed = error {
            if text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("certificate verify failed") {
                return HTTPFailure(
                    "the certificate of \(host) is not trusted (give a private CA with --ca-file); not connected")
            }
            return HTTPFailure("TLS with \(host) failed (its certificate or protocol was not accepted); not connected")
        }
        if error is IOError || text.contains("connectionRefused") || text.contains("connectTimeout")
            || text.contains("Connection refused") || text.contains("errno:")
        {
            let why = systemReason(text) ?? "the connection failed"
            if let proxy {
                return HTTPFailure(
                    "cannot connect to the proxy \(proxy) (HTTPS_PROXY, HTTP_PROXY): \(why)", isTransient: true)
            }
            return HTTPFailure(
                "cannot connect to \(host) port \(HTTPClient.port(of: request.url)): \(why)", isTransient: true)
        }
        // `send` puts the method and URL before it.
        return HTTPFailure(
            "no answer came" + (proxy.map { " through the proxy \($0)" } ?? "") + "; try again, or check the address",
            isTransient: true)
    }

    /// Through a proxy, what went wrong before the target could answer is the proxy's doing: it closed the
    /// connection, answered what is no HTTP, refused the tunnel or asked for a password. Nil for other failures.
    static func proxyFailure(_ error: any Error, proxy: String) -> HTTPFailure? {
        let named = "the proxy \(proxy) (HTTPS_PROXY, HTTP_PROXY)"
        if let error = error as? HTTPClientError {
            switch error {
            case .remoteConnectionClosed, .invalidProxyResponse, .httpProxyHandshakeTimeout:
                return HTTPFailure(
                    "\(named) closed the connection or answered what is no HTTP; check the proxy", isTransient: true)
            case .proxyAuthenticationRequired:
                return HTTPFailure("\(named) asks for a password (407); give it in the proxy's URL")
            default: return nil
            }
        }
        if error is HTTPParserError {
            return HTTPFailure("\(named) answered what is no HTTP; check the proxy", isTransient: true)
        }
        return nil
    }

    /// The operating system's reason in a network error's text (`… (errno: 111)`: "connection refused").
    static func systemReason(_ text: String) -> String? {
        guard let range = text.range(of: "errno: ") else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isNumber }
        guard let code = Int32(digits) else { return nil }
        return String(cString: strerror(code)).lowercased()
    }
}

/// `NO_PROXY` as curl reads it: comma-separated host names, each matching itself and its subdomains (a leading dot
/// or `*.` the same), IP addresses matching themselves, `*` matching every host.
struct ProxyBypass: Sendable {
    let entries: [String]

    init(_ text: String) {
        entries = text.split(separator: ",").map {
            var entry = $0.trimmingCharacters(in: .whitespaces).lowercased()
            if entry.hasPrefix("*.") { entry.removeFirst(2) } else if entry.hasPrefix(".") { entry.removeFirst() }
            if let colon = entry.lastIndex(of: ":"), !entry.contains("]"), entry.filter({ $0 == ":" }).count == 1 {
                entry = String(entry[..<colon])  // a port is not compared
            }
            return entry
        }.filter { !$0.isEmpty }
    }

    func bypasses(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return entries.contains { $0 == "*" || host == $0 || host.hasSuffix("." + $0) }
    }
}
