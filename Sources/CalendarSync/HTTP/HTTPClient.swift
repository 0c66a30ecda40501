import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
    public init(_ description: String, isTransient: Bool = false) {
        self.description = description
        self.isTransient = isTransient
    }
}

/// HTTP over Foundation's URLSession (FoundationNetworking on Linux). Chosen over async-http-client because it comes
/// with the toolchain on Linux and macOS, sends any method (PROPFIND, REPORT for CalDAV), verifies TLS certificates
/// with the system's roots (no way to turn that off is offered), follows redirects while telling which were
/// permanent, and needs no event loop: the commands are synchronous, so each request simply waits for its answer.
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

    private func once(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPFailure> {
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.addValue(value, forHTTPHeaderField: name) }
        if let credentials {
            let token = Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString()
            urlRequest.setValue("Basic " + token, forHTTPHeaderField: "Authorization")
        }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        let exchange = Exchange()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration, delegate: exchange, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: urlRequest) { data, response, error in
            exchange.finish(data: data, response: response, error: error)
        }.resume()
        exchange.done.wait()
        return exchange.result(for: request.url)
    }
}

/// What one exchange collects on URLSession's queue: the redirects, then the answer.
private final class Exchange: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var redirects: [Redirect] = []
    private var data: Data?
    private var response: URLResponse?
    private var error: Error?

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        lock.withLock {
            if let from = response.url, let to = request.url {
                redirects.append(Redirect(status: response.statusCode, from: from, to: to))
            }
        }
        completionHandler(request)
    }

    func finish(data: Data?, response: URLResponse?, error: Error?) {
        lock.withLock {
            self.data = data
            self.response = response
            self.error = error
        }
        done.signal()
    }

    /// What went wrong, in words: FoundationNetworking keeps libcurl's message in the error's user info (the
    /// localized description may be "(null)").
    static func message(_ error: Error) -> String {
        var current: NSError? = error as NSError
        while let error = current {
            if let text = error.userInfo[NSLocalizedDescriptionKey] as? String, !text.isEmpty, text != "(null)" {
                return text
            }
            current = error.userInfo[NSUnderlyingErrorKey] as? NSError
        }
        return "\(error)"
    }

    func result(for url: URL) -> Result<HTTPResponse, HTTPFailure> {
        lock.withLock {
            if let error {
                let transient: Set<Int> = [
                    NSURLErrorTimedOut, NSURLErrorCannotConnectToHost, NSURLErrorNetworkConnectionLost,
                    NSURLErrorNotConnectedToInternet, NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed,
                ]
                let code = (error as NSError).code
                return .failure(HTTPFailure(Self.message(error), isTransient: transient.contains(code)))
            }
            guard let http = response as? HTTPURLResponse else { return .failure(HTTPFailure("no HTTP answer")) }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            return .success(
                HTTPResponse(
                    status: http.statusCode, headers: headers, body: Array(data ?? Data()), url: http.url ?? url,
                    redirects: redirects))
        }
    }
}
