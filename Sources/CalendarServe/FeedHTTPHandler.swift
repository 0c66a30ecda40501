import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One connection's HTTP requests: GET and HEAD are answered by the service on a worker thread, anything else is
/// 405. A request with a body closes its connection after the answer; so does any answer but 200 and 304.
final class FeedHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// A header the handler puts on a response the compressor may compress; the compressor's predicate removes it.
    static let compressMark = "x-icskit-compress"

    private let service: FeedService
    private let workers: NIOThreadPool
    private let connection: ConnectionGuard
    private var head: HTTPRequestHead?
    private var hadBody = false

    init(service: FeedService, workers: NIOThreadPool, connection: ConnectionGuard) {
        (self.service, self.workers, self.connection) = (service, workers, connection)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let received):
            (head, hadBody) = (received, false)
        case .body:
            hadBody = true
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let keepAlive = head.isKeepAlive && !hadBody
        guard head.method == .GET || head.method == .HEAD else {
            var refusal = FeedResponse.text(405, "Only GET and HEAD are answered here")
            refusal.headers.append(("Allow", "GET, HEAD"))
            send(refusal, isHead: false, keepAlive: false, context: context)
            return
        }
        let request = FeedRequest(
            route: FeedRoute(target: head.uri), isHead: head.method == .HEAD,
            ifNoneMatch: head.headers.first(name: "If-None-Match"),
            ifModifiedSince: head.headers.first(name: "If-Modified-Since"),
            coding: HTTPRules.coding(accepting: head.headers["Accept-Encoding"]))
        let service = self.service
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        workers.runIfActive(eventLoop: context.eventLoop) {
            do {
                return try service.answer(request)
            } catch {
                FileHandle.standardError.write(Data("icskit serve: a feed could not be built: \(error)\n".utf8))
                return FeedResponse.text(500, "The feed could not be built; the server's log says why")
            }
        }.whenComplete { result in
            let (handler, context) = bound.value
            let response = (try? result.get()) ?? .text(503, "The server is stopping")
            let keep = keepAlive && (response.status == 200 || response.status == 304)
            handler.send(response, isHead: request.isHead, keepAlive: keep, context: context)
        }
    }

    private func send(_ response: FeedResponse, isHead: Bool, keepAlive: Bool, context: ChannelHandlerContext) {
        var headers = HTTPHeaders(response.headers)
        headers.add(name: "Content-Length", value: String(response.body.readableBytes))
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        if response.compressible, !isHead { headers.add(name: Self.compressMark, value: "1") }
        let status = HTTPResponseStatus(statusCode: response.status)
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
            promise: nil)
        if !isHead, response.body.readableBytes > 0 {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(response.body))),
                promise: nil)
        }
        let channel = context.channel
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        connection.responseSent()
        if !keepAlive { written.whenComplete { _ in channel.close(promise: nil) } }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// Between the HTTP decoder and NIO's compressor: a request's Accept-Encoding becomes `gzip` when it takes gzip, and
/// goes otherwise, so the compressor never picks deflate and a response's coding is the one its entity tag names.
final class AcceptEncodingFilter: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let coding = HTTPRules.coding(accepting: head.headers["Accept-Encoding"])
        head.headers.remove(name: "Accept-Encoding")
        if let coding { head.headers.add(name: "Accept-Encoding", value: coding) }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}
