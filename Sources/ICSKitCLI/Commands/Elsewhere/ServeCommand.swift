import ArgumentParser
import CalendarModel
import CalendarServe
import CalendarStore
import Dispatch
import Foundation

/// The store as the feed server's source: its shares, and each share's feed built from its calendars. Only reads.
struct StoreFeedSource: FeedSource {
    let store: CalendarStore

    func liveShares() throws -> [FeedShare] {
        let shares = try store.shares()
        let generations = try store.generations(of: Array(Set(shares.flatMap(\.calendars))))
        return shares.map { share in
            let settings = [
                share.level.rawValue, share.window, share.app ?? "", share.todos ? "todos" : "", share.uidKey,
            ]
            let moved = share.calendars.map { "\($0)=\(generations[$0].map { String($0) } ?? "gone")" }
            return FeedShare(
                name: share.name, tokenHash: share.tokenHash, version: (settings + moved).joined(separator: "\u{1F}"))
        }
    }

    func feed(of share: FeedShare, now: Date) throws -> [UInt8] {
        let record = try record(share)
        return ICS.write([try store.sharedFeed(record, now: now, hashUID: FeedToken.uidHasher(key: record.uidKey))])
    }

    func freeBusy(of share: FeedShare, from: Date, to: Date) throws -> [UInt8] {
        let record = try record(share)
        guard let window = SharedFeed.window(record.window, now: Date()) else { return [] }
        let (start, end) = (max(from, window.lowerBound), min(to, window.upperBound))
        var periods: [FreeBusy.BusyTime] = []
        if start < end {
            for name in record.calendars {
                for (calendar, _) in try store.loadCalendars(named: name, window: start..<end) {
                    periods += calendar.busyTime(from: start, to: end, options: ExpansionOptions(), file: nil).periods
                }
            }
        }
        return ICS.write([FreeBusyCommand.calendar([(record.name, periods)], from: from, to: to)])
    }

    private func record(_ share: FeedShare) throws -> ShareRecord {
        guard let record = try store.shares().first(where: { $0.name == share.name }) else {
            throw StoreError("the share \"\(share.name)\" was revoked while its feed was being built")
        }
        return record
    }
}

/// `icskit serve`: answers the store's shared feeds over HTTP until stopped.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Answer the store's shared feeds over HTTP (`icskit share` makes them).",
        discussion: """
            GET and HEAD of /feeds/<token>.ics (ETag, Last-Modified, 304, gzip) and /feeds/<token>/freebusy?\
            start=2026-12-01&end=2026-12-31 (a VFREEBUSY). Anything else, and a revoked token, is 404. A feed is \
            built once per change of its calendars (and hour), however many subscribe. The store is only read.
            It listens on 127.0.0.1 (this machine only) unless --listen says otherwise; it speaks plain HTTP: put \
            a TLS proxy in front to serve others (docs/SHARING.md has a Caddy and an nginx setup).
            Examples:
              icskit serve
              icskit serve --listen 0.0.0.0:8080      # behind a reverse proxy
            """)

    @Option(help: "Where to listen: HOST:PORT (port 0: any free one, printed).")
    var listen = "127.0.0.1:8080"

    @Option(help: "The most connections held at once (the one idle longest makes room).")
    var maxConnections = 1024

    @Option(help: "Close a connection that has not sent a whole request head for this many seconds.")
    var idleTimeout = 10

    @Option(help: "Stop after this many seconds (for scripts and tests).")
    var stopAfter: Int?

    @OptionGroup var store: StoreOption

    func validate() throws {
        guard Self.address(listen) != nil else {
            throw ValidationError("--listen takes HOST:PORT (127.0.0.1:8080, [::1]:8080), not \(listen)")
        }
        guard (1...100_000).contains(maxConnections) else {
            throw ValidationError("--max-connections takes 1 to 100000")
        }
        guard (1...3600).contains(idleTimeout) else { throw ValidationError("--idle-timeout takes 1 to 3600 seconds") }
        if let stopAfter, stopAfter < 1 { throw ValidationError("--stop-after takes a number of seconds above 0") }
    }

    func run() throws {
        let store = try store.open(.readOnly)
        let shares: [ShareRecord]
        do { shares = try store.shares() } catch {
            throw CommandFailure("the store has no shares yet: make one with `icskit share CALENDAR --level busy`")
        }
        let (host, port) = Self.address(listen)!
        var limits = FeedServer.Limits()
        limits.connections = maxConnections
        limits.idleSeconds = Int64(idleTimeout)
        Self.raiseDescriptorLimit(to: maxConnections + 256)
        let server: FeedServer
        do {
            server = try FeedServer.start(source: StoreFeedSource(store: store), host: host, port: port, limits: limits)
        } catch {
            throw CommandFailure("cannot listen on \(listen): \(ErrorText.line(error)); is another server there?")
        }
        // INT and TERM stop it; set before the address is printed, so that whoever reads the address and then stops
        // the server cannot do so before the handlers are there (a TERM in between would be ignored).
        let signals = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler { server.stop() }
            source.resume()
            return source
        }
        if let stopAfter {
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(stopAfter)) { server.stop() }
        }
        let (boundHost, boundPort) = server.address
        let shown = boundHost.contains(":") ? "[\(boundHost)]" : boundHost
        Output.print(
            "Serving \(shares.count) share\(shares.count == 1 ? "" : "s") at http://\(shown):\(boundPort)/feeds/")
        try Output.flushStandardOutput()
        let loopback = ["127.0.0.1", "::1", "localhost"].contains(host)
        Output.standardError(
            loopback
                ? "Only this machine can reach it (--listen 0.0.0.0:\(boundPort) for others, behind a TLS proxy)."
                : "Other machines can reach it over plain HTTP: put a TLS proxy in front (docs/SHARING.md).")
        try server.waitUntilClosed()
        signals.forEach { $0.cancel() }
    }

    /// `HOST:PORT`, `[v6]:PORT` or `:PORT` (127.0.0.1).
    static func address(_ text: String) -> (String, Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.isEmpty { host = "127.0.0.1" }
        guard !host.contains(where: { $0.isWhitespace || $0 == "/" }) else { return nil }
        return (host, port)
    }

    /// Lifts the soft limit on open files towards `wanted` (within the hard limit): each connection is one.
    static func raiseDescriptorLimit(to wanted: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(wanted) else { return }
        limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

/// `icskit publish --to DIR`: the shared feeds as static files, named by token, for any web server.
struct PublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Write the shared feeds as static files (<token>.ics) into a folder any web server serves.",
        discussion: """
            The store keeps no token, only its hash: a share's first file is written by `icskit share --publish \
            DIR` (or `--reset NAME --publish DIR`); from then on `icskit publish --to DIR` rewrites every file \
            whose name is a live share's token and removes those of revoked shares. Files with other names are not \
            touched. Serve DIR as <base>/feeds/ (docs/SHARING.md); run publish from cron to keep the files fresh.
            Example:
              icskit share Work --level busy --base-url https://example.org --publish /var/www/feeds
              icskit publish --to /var/www/feeds     # hourly, from cron
            """)

    @Option(help: "The folder the feeds are written into.")
    var to: String

    @OptionGroup var store: StoreOption

    func run() throws {
        let store = try store.open(.readOnly)
        let shares = (try? store.shares()) ?? []
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: to) } catch {
            throw CommandFailure("cannot read the folder \(to): \(ErrorText.line(error))")
        }
        var written = Set<String>()
        for file in names.sorted() where file.hasSuffix(".ics") {
            let token = file.dropLast(4)
            guard FeedToken.isWellFormed(token) else { continue }
            let hash = FeedToken.hash(String(token))
            if let share = shares.first(where: { FeedToken.equal($0.tokenHash, hash) }) {
                _ = try Self.write(share, token: String(token), into: to, store: store)
                written.insert(share.name)
                Output.print("Wrote \(share.name) (\(share.level.rawValue)).")
            } else {
                try? FileManager.default.removeItem(atPath: (to as NSString).appendingPathComponent(file))
                Output.print("Removed the file of a revoked share.")
            }
        }
        for share in shares where !written.contains(share.name) {
            Output.standardError(
                "\(share.name) has no file in \(to): `icskit share --reset \(share.name) --publish \(to)` writes one "
                    + "(at a new address).")
        }
    }

    /// Writes a share's feed as `<dir>/<token>.ics` (a whole file or none); the path written.
    static func write(_ share: ShareRecord, token: String, into folder: String, store: CalendarStore) throws -> String {
        let path = (folder as NSString).appendingPathComponent(token + ".ics")
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw CommandFailure("cannot make the folder \(folder): \(ErrorText.line(error))")
        }
        let feed = try store.sharedFeed(share, hashUID: FeedToken.uidHasher(key: share.uidKey))
        try Output.emit(ICS.write([feed]), to: path)
        return path
    }
}
