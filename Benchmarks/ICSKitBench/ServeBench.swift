import Foundation

/// `icskit serve` under 200 subscribers at once, each asking 50 times on one kept-alive connection: the feed of
/// `gen_ics.py` at the busy level (the store is the one `icskit import` made of the input), plain and answered 304.
/// Latency per request (p50, p99), requests per second, and the server's resident memory.
enum ServeBench {
    static let subscribers = 200, requestsEach = 50

    static func run(icskit binary: String, input: String, scratch: URL, command: String) throws -> String {
        let store = scratch.appendingPathComponent("serve.sqlite").path
        _ = try StoreBench.timed([binary, "import", input, "--calendar", "Work", "--store", store, "-q"])
        let printed = Pipe()
        let share = Process()
        share.executableURL = URL(fileURLWithPath: binary)
        share.arguments = ["share", "Work", "--level", "busy", "--store", store]
        share.standardOutput = printed
        share.standardError = FileHandle.nullDevice
        try share.run()
        share.waitUntilExit()
        let address = String(decoding: printed.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard let feeds = address.range(of: "/feeds/") else { throw BenchError("icskit share printed no address") }
        let path = String(address[feeds.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines)

        let server = Process()
        server.executableURL = URL(fileURLWithPath: binary)
        server.arguments = ["serve", "--store", store, "--listen", "127.0.0.1:0", "--stop-after", "600"]
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte.first == 0x0A { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...].dropLast(7)) else {
            throw BenchError("icskit serve did not start: \(text)")
        }
        let cold = Measure.now()
        let first = try LoadClient.fetch(port: port, path: path, headers: [])
        let coldSeconds = Measure.now() - cold
        let tag = first.tag ?? ""
        let plain = try LoadClient.load(
            port: port, path: path, headers: [], subscribers: subscribers, each: requestsEach)
        let revalidated = try LoadClient.load(
            port: port, path: path, headers: ["If-None-Match: \(tag)"], subscribers: subscribers, each: requestsEach)
        let rss = serverMemory(server.processIdentifier)
        let rows = [("GET, 200 with the feed", plain), ("GET with If-None-Match, 304", revalidated)].map { name, run in
            "| \(name) | \(run.count) | \(String(format: "%.1f", run.p50 * 1000)) | "
                + "\(String(format: "%.1f", run.p99 * 1000)) | \(Int(run.perSecond)) | \(run.failures) |"
        }
        let file = (input as NSString).lastPathComponent
        let setting =
            "- command: `\(command)`; `icskit serve` on 127.0.0.1 over the store of \(file) (busy level, window "
            + "-30d..+12mo: \(first.bodyBytes / 1024) KB of feed); \(subscribers) client threads, each one kept-alive "
            + "connection"
        let head: [String] = [
            "### Serving a shared feed: \(subscribers) subscribers × \(requestsEach) requests", "",
            "- date: \(ISO8601DateFormatter().string(from: Date()))",
            "- machine: \(Report.machine)",
            setting,
            "",
            "| requests | count | p50 ms | p99 ms | requests/s | failed |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        let tail: [String] = [
            "",
            "- the first request (the feed built from the store): \(String(format: "%.2f", coldSeconds)) s; every "
                + "later one is served from that build (one build per change of the calendars, and per hour).",
            "- the server's resident memory after the runs: \(rss.current / 1024) MB (peak \(rss.peak / 1024) MB).",
        ]
        return (head + rows + tail).joined(separator: "\n")
    }

    /// VmRSS and VmHWM of a process, in KB.
    static func serverMemory(_ pid: Int32) -> (current: Int, peak: Int) {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        func value(_ key: String) -> Int {
            status.split(separator: "\n").first { $0.hasPrefix(key) }.flatMap {
                Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
            } ?? 0
        }
        return (value("VmRSS:"), value("VmHWM:"))
    }
}

/// A small HTTP/1.1 client on blocking sockets, one thread per subscriber, timing each request.
enum LoadClient {
    struct Answer {
        var status: Int
        var tag: String?
        var bodyBytes: Int
    }

    struct Run {
        var count: Int
        var p50: Double
        var p99: Double
        var perSecond: Double
        var failures: Int
    }

    static func fetch(port: Int, path: String, headers: [String]) throws -> Answer {
        let connection = try Connection(port: port)
        defer { close(connection.descriptor) }
        return try connection.ask(path: path, headers: headers)
    }

    static func load(port: Int, path: String, headers: [String], subscribers: Int, each: Int) throws -> Run {
        let results = Results()
        let group = DispatchGroup()
        let began = Measure.now()
        for _ in 0..<subscribers {
            group.enter()
            let thread = Thread {
                var mine: [Double] = []
                var failed = 0
                if let connection = try? Connection(port: port) {
                    for _ in 0..<each {
                        let start = Measure.now()
                        let answer = try? connection.ask(path: path, headers: headers)
                        if answer.map({ $0.status == 200 || $0.status == 304 }) == true {
                            mine.append(Measure.now() - start)
                        } else {
                            failed += 1
                        }
                    }
                    close(connection.descriptor)
                } else {
                    failed = each
                }
                results.add(mine, failed: failed)
                group.leave()
            }
            thread.stackSize = 256 * 1024
            thread.start()
        }
        group.wait()
        let elapsed = Measure.now() - began
        let (latencies, failures) = results.value
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
        return Run(
            count: sorted.count, p50: percentile(0.5), p99: percentile(0.99),
            perSecond: Double(sorted.count) / elapsed, failures: failures)
    }

    /// What the client threads measured, gathered under a lock.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var latencies: [Double] = []
        private var failures = 0

        func add(_ measured: [Double], failed: Int) {
            lock.lock()
            defer { lock.unlock() }
            latencies += measured
            failures += failed
        }

        var value: ([Double], Int) {
            lock.lock()
            defer { lock.unlock() }
            return (latencies, failures)
        }
    }

    /// One kept-alive connection to 127.0.0.1.
    struct Connection {
        let descriptor: Int32

        init(port: Int) throws {
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            guard connected else {
                close(descriptor)
                throw BenchError("cannot connect to 127.0.0.1:\(port)")
            }
        }

        /// Sends a GET and reads its whole answer (by Content-Length).
        func ask(path: String, headers: [String]) throws -> Answer {
            let request = (["GET \(path) HTTP/1.1", "Host: 127.0.0.1"] + headers + ["", ""]).joined(separator: "\r\n")
            let bytes = Array(request.utf8)
            guard bytes.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == bytes.count else {
                throw BenchError("send failed")
            }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            var headEnd: Int?
            var length = 0
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { throw BenchError("the connection closed") }
                received += buffer[0..<count]
                if headEnd == nil, let end = Self.endOfHead(received) {
                    headEnd = end
                    let head = String(decoding: received[0..<end], as: UTF8.self).lowercased()
                    length =
                        head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                        .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
                        ?? 0
                }
                if let headEnd, received.count >= headEnd + length {
                    let head = String(decoding: received[0..<headEnd], as: UTF8.self)
                    let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                    let tag = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }
                        .map { $0.dropFirst(5).trimmingCharacters(in: .whitespaces) }
                    return Answer(status: status, tag: tag, bodyBytes: length)
                }
            }
        }

        static func endOfHead(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for index in 0...(bytes.count - 4)
            where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index + 4
            }
            return nil
        }
    }
}
