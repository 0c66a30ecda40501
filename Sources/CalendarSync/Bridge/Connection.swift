internal import COpenSSL
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One TCP connection, with TLS (OpenSSL, certificates verified against the system's roots and the host name)
/// for https. Every socket and OpenSSL call of ICSKit lives in this file.
final class Connection {
    private let descriptor: Int32
    private var tls: OpaquePointer?
    private var isClosed = false
    /// Where `read` receives into.
    private var scratch: [UInt8] = []

    /// Connects to `host:port` within `timeout` seconds (each address in turn), then reads and writes with the same
    /// limit per call.
    init(host: String, port: Int, useTLS: Bool, timeout: TimeInterval) throws {
        Connection.ignoreBrokenPipes
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let lookup = getaddrinfo(host, String(port), &hints, &list)
        guard lookup == 0, let first = list else {
            throw HTTPFailure(
                "cannot find \(host): \(String(cString: gai_strerror(lookup)))", isTransient: lookup == EAI_AGAIN)
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var connected: Int32 = -1
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let socketDescriptor = socket(
                address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard socketDescriptor >= 0 else { continue }
            if Connection.connect(
                socketDescriptor, address.pointee.ai_addr, address.pointee.ai_addrlen, timeout: timeout)
            {
                connected = socketDescriptor
                break
            }
            lastError = String(cString: strerror(errno))
            closeDescriptor(socketDescriptor)
        }
        guard connected >= 0 else {
            throw HTTPFailure("cannot connect to \(host) port \(port): \(lastError)", isTransient: true)
        }
        descriptor = connected
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        if useTLS {
            do { try startTLS(host: host) } catch {
                self.close()
                throw error
            }
        }
    }

    deinit { close() }

    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { buffer -> Int in
                if let tls { return Int(SSL_write(tls, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))) }
                return send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { throw failure("cannot send") }
            offset += count
        }
    }

    /// Reads what has arrived (at most `capacity` bytes) into `buffer`; 0 at the end of the stream.
    func read(into buffer: inout [UInt8], capacity: Int = 65_536) throws -> Int {
        // Into the connection's own scratch space, then only what came is appended: growing `buffer` by `capacity`
        // zeros on every read cost more than the reading for the short answers most requests get.
        if scratch.count < capacity { scratch = [UInt8](repeating: 0, count: capacity) }
        let count = scratch.withUnsafeMutableBytes { raw -> Int in
            if let tls { return Int(SSL_read(tls, raw.baseAddress, Int32(capacity))) }
            return recv(descriptor, raw.baseAddress, capacity, 0)
        }
        if count <= 0 {
            if count == 0 { return 0 }
            if let tls, SSL_get_error(tls, Int32(count)) == SSL_ERROR_ZERO_RETURN { return 0 }
            throw failure("cannot receive")
        }
        buffer.append(contentsOf: scratch[..<count])
        return count
    }

    /// Whether the connection is open with nothing to read: a connection kept between requests that the server
    /// closed (or wrote to unasked) is readable, and is not used again.
    var isIdle: Bool {
        guard !isClosed else { return false }
        if let tls, SSL_pending(tls) > 0 { return false }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) == 0
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        if let tls {
            SSL_shutdown(tls)
            SSL_free(tls)
            self.tls = nil
        }
        closeDescriptor(descriptor)
    }

    // MARK: Private

    private func failure(_ what: String) -> HTTPFailure {
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK {
            var failure = HTTPFailure("\(what): timed out", isTransient: true)
            failure.isTimeout = true
            return failure
        }
        if let tls {
            let error = ERR_get_error()
            if error != 0 {
                var text = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(error, &text, text.count)
                _ = tls
                let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
                return HTTPFailure("\(what): \(String(decoding: bytes, as: UTF8.self))")
            }
        }
        return HTTPFailure("\(what): \(String(cString: strerror(code)))", isTransient: code == ECONNRESET)
    }

    private func startTLS(host: String) throws {
        guard let context = Connection.context, let tls = SSL_new(context) else {
            throw HTTPFailure("TLS is not available (OpenSSL could not start)")
        }
        self.tls = tls
        SSL_set_fd(tls, descriptor)
        var address = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1 {
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(tls), host)
        } else {
            _ = icskit_ssl_set_server_name(tls, host)
            SSL_set1_host(tls, host)
        }
        guard SSL_connect(tls) == 1 else {
            let verify = SSL_get_verify_result(tls)
            if verify != X509_V_OK {
                let reason = String(cString: X509_verify_cert_error_string(verify))
                throw HTTPFailure("the certificate of \(host) is not trusted: \(reason)")
            }
            throw failure("TLS handshake with \(host) failed")
        }
    }

    /// One TLS context for the process: TLS 1.2 or newer, peers verified against the system's roots (or
    /// `SSL_CERT_FILE` / `SSL_CERT_DIR`, which OpenSSL reads).
    nonisolated(unsafe) private static let context: OpaquePointer? = {
        guard let context = SSL_CTX_new(TLS_client_method()) else { return nil }
        _ = icskit_ssl_ctx_require_tls12(context)
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        guard SSL_CTX_set_default_verify_paths(context) == 1 else { return nil }
        return context
    }()

    /// A write to a closed connection must fail, not kill the process.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    private static func connect(
        _ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t, timeout: TimeInterval
    ) -> Bool {
        let flags = fcntl(descriptor, F_GETFL, 0)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(descriptor, F_SETFL, flags) }
        if connectDescriptor(descriptor, address, length) == 0 { return true }
        guard errno == EINPROGRESS else { return false }
        var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else {
            errno = ETIMEDOUT
            return false
        }
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &size)
        errno = error
        return error == 0
    }
}

// The C functions, under names the class's own `close()` does not hide.
private func closeDescriptor(_ descriptor: Int32) { close(descriptor) }
private func connectDescriptor(
    _ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t
) -> Int32 { connect(descriptor, address, length) }
