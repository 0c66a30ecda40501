import NIOConcurrencyHelpers
import NIOCore

/// The connections the server holds, and the rule for a new one when it holds its most: the one idle longest (no
/// request under way) is closed to make room; when none is idle, the new one is.
final class ConnectionRegistry: Sendable {
    private struct Held {
        var channel: any Channel
        /// When it began waiting for a request; nil while one is under way.
        var idleSince: NIODeadline?
    }

    private let maximum: Int
    private let held = NIOLockedValueBox<[ObjectIdentifier: Held]>([:])

    init(maximum: Int) { self.maximum = maximum }

    /// Registers a new connection; false when it must be closed at once (every held one is busy).
    func admit(_ channel: any Channel) -> Bool {
        let (admitted, evicted) = held.withLockedValue { held -> (Bool, (any Channel)?) in
            var evicted: (any Channel)?
            if held.count >= maximum {
                let idle = held.compactMap { key, value in value.idleSince.map { (key, value.channel, $0) } }
                guard let oldest = idle.min(by: { $0.2 < $1.2 }) else { return (false, nil) }
                evicted = oldest.1
                held[oldest.0] = nil
            }
            held[ObjectIdentifier(channel)] = Held(channel: channel, idleSince: .now())
            return (true, evicted)
        }
        evicted?.close(promise: nil)
        return admitted
    }

    /// Marks a connection busy (a request under way) or idle.
    func mark(_ channel: any Channel, idle: Bool) {
        held.withLockedValue { held in
            held[ObjectIdentifier(channel)]?.idleSince = idle ? .now() : nil
        }
    }

    /// Forgets a closed connection.
    func remove(_ channel: any Channel) {
        held.withLockedValue { $0[ObjectIdentifier(channel)] = nil }
    }

    /// How many connections are held.
    var count: Int { held.withLockedValue { $0.count } }
}

/// The first handler of a connection, on its raw bytes: a request head larger than `headLimit` gets 431 and the
/// connection closes; a connection waiting for a head longer than `idleLimit` (a slow drip, or a kept-alive connection
/// nobody uses) is closed. The HTTP handler tells it when a response is out (`responseSent`).
final class ConnectionGuard: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let headLimit: Int
    private let idleLimit: TimeAmount
    private let registry: ConnectionRegistry
    /// Bytes of the head being read; the length of its current line (CR aside); whether it has a line yet (empty
    /// lines before a request line are skipped, as RFC 9112 §2.2 allows). An empty line ends the head, after CRLF or
    /// a bare LF alike.
    private var headBytes = 0
    private var lineLength = 0
    private var hasLine = false
    /// Heads read and responses sent: the connection waits for a head when they are equal.
    private var heads = 0
    private var responses = 0
    private var deadline: Scheduled<Void>?
    private var context: ChannelHandlerContext?
    private var refused = false

    init(headLimit: Int, idleLimit: TimeAmount, registry: ConnectionRegistry) {
        (self.headLimit, self.idleLimit, self.registry) = (headLimit, idleLimit, registry)
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func channelActive(context: ChannelHandlerContext) {
        guard registry.admit(context.channel) else {
            refused = true
            context.close(promise: nil)
            return
        }
        startWaiting(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        registry.remove(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let buffer = unwrapInboundIn(data)
        for byte in buffer.readableBytesView {
            headBytes += 1
            switch byte {
            case 0x0D: continue
            case 0x0A where lineLength > 0:
                (lineLength, hasLine) = (0, true)
            case 0x0A where hasLine:
                (headBytes, lineLength, hasLine) = (0, 0, false)
                heads += 1
                deadline?.cancel()
                registry.mark(context.channel, idle: false)
            case 0x0A: continue
            default: lineLength += 1
            }
        }
        guard headBytes <= headLimit else {
            refuse(context, status: "431 Request Header Fields Too Large")
            return
        }
        context.fireChannelRead(data)
    }

    /// A response went out: when no other request is under way, the wait for the next head begins.
    func responseSent() {
        responses += 1
        if let context, heads <= responses { startWaiting(context) }
    }

    private func startWaiting(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        registry.mark(context.channel, idle: true)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: idleLimit) {
            let (handler, context) = bound.value
            handler.refuse(context, status: handler.headBytes > 0 ? "408 Request Timeout" : nil)
        }
    }

    /// Answers with `status` (nothing when nil) straight on the wire and closes: the HTTP layer is not asked.
    private func refuse(_ context: ChannelHandlerContext, status: String?) {
        refused = true
        deadline?.cancel()
        guard let status else {
            context.close(promise: nil)
            return
        }
        let text = "HTTP/1.1 \(status)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        let buffer = context.channel.allocator.buffer(string: text)
        let channel = context.channel
        context.writeAndFlush(NIOAny(buffer)).whenComplete { _ in channel.close(promise: nil) }
    }
}
