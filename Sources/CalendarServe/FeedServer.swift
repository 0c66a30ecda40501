import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix

/// `icskit serve`: shared feeds over HTTP/1.1 on SwiftNIO. GET and HEAD of `/feeds/<token>.ics` and
/// `/feeds/<token>/freebusy`; everything else, an unknown token and a revoked one get the same 404.
///
/// ```swift
/// let server = try FeedServer.start(source: mySource, host: "127.0.0.1", port: 8080)
/// try server.waitUntilClosed()
/// ```
package final class FeedServer: Sendable {
    /// What the server holds a client to.
    package struct Limits: Sendable {
        /// The largest request head (request line and header fields), in bytes: 16 KB.
        package var headBytes = 16 * 1024
        /// How long a connection may wait for (or dribble) a request head: a slow drip, or a kept-alive connection
        /// nobody uses, is closed after it.
        package var idleSeconds: Int64 = 10
        /// The most connections held at once: past it the one idle longest is closed, or the new one when all are
        /// busy.
        package var connections = 1024
        /// Worker threads that read the store and build feeds.
        package var workers = max(2, System.coreCount)

        /// The defaults above.
        package init() {}
    }

    private let group: MultiThreadedEventLoopGroup
    private let workers: NIOThreadPool
    private let channel: any Channel
    private let service: FeedService

    /// The address the server listens on (its port, when 0 was asked, chosen by the system).
    package var address: (host: String, port: Int) {
        (channel.localAddress?.ipAddress ?? "?", channel.localAddress?.port ?? 0)
    }

    /// How many feeds were built since the server started.
    package var feedsBuilt: Int { service.cache.buildCount }

    private init(group: MultiThreadedEventLoopGroup, workers: NIOThreadPool, channel: any Channel, service: FeedService)
    {
        (self.group, self.workers, self.channel, self.service) = (group, workers, channel, service)
    }

    /// Binds `host:port` and starts answering.
    package static func start(source: any FeedSource, host: String, port: Int, limits: Limits = Limits()) throws
        -> FeedServer
    {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, System.coreCount))
        let workers = NIOThreadPool(numberOfThreads: limits.workers)
        workers.start()
        let service = FeedService(source: source)
        let registry = ConnectionRegistry(maximum: limits.connections)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let connection = ConnectionGuard(
                        headLimit: limits.headBytes, idleLimit: .seconds(limits.idleSeconds), registry: registry)
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(connection)
                    try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
                    try pipeline.addHandler(AcceptEncodingFilter())
                    try pipeline.addHandler(
                        HTTPResponseCompressor { head, _ in
                            let marked = head.headers.contains(name: FeedHTTPHandler.compressMark)
                            head.headers.remove(name: FeedHTTPHandler.compressMark)
                            return marked ? .compressIfPossible : .doNotCompress
                        })
                    try pipeline.addHandler(FeedHTTPHandler(service: service, workers: workers, connection: connection))
                }
            }
        do {
            let channel = try bootstrap.bind(host: host, port: port).wait()
            return FeedServer(group: group, workers: workers, channel: channel, service: service)
        } catch {
            try? group.syncShutdownGracefully()
            try? workers.syncShutdownGracefully()
            throw error
        }
    }

    /// Blocks until the server is stopped (`stop()`, from a signal handler or another thread).
    package func waitUntilClosed() throws {
        try channel.closeFuture.wait()
        try? workers.syncShutdownGracefully()
        try? group.syncShutdownGracefully()
    }

    /// Stops listening; `waitUntilClosed` then returns.
    package func stop() {
        channel.close(promise: nil)
    }
}
