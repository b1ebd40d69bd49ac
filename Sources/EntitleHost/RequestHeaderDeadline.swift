import NIOCore
import NIOHTTPTypes
import Synchronization

/// The deadline of one connection's request header, shared by the handler that sees its first byte and the one that
/// sees its end (both on the connection's event loop; the lock is never contended).
final class RequestHeaderDeadline: Sendable {
    struct State {
        /// Whether the next bytes start a new request header (true until a head is decoded, again after each request).
        var awaitingHeader = true
        var scheduled: Scheduled<Void>?
    }

    let timeout: TimeAmount
    private let state = Mutex(State())

    init(timeout: TimeAmount) { self.timeout = timeout }

    /// Starts the clock at a header's first byte (once per header).
    func headerBytesArrived(context: ChannelHandlerContext) {
        let starting = state.withLock { $0.awaitingHeader && $0.scheduled == nil }
        guard starting else { return }
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let scheduled = context.eventLoop.scheduleTask(in: timeout) { loopBound.value.close(promise: nil) }
        state.withLock { $0.scheduled = scheduled }
    }

    /// The header is complete: no more deadline until the next request.
    func headerEnded() {
        state.withLock { $0.awaitingHeader = false }
        cancel()
    }

    /// The request is complete: the next bytes start a new header.
    func requestEnded() { state.withLock { $0.awaitingHeader = true } }

    func cancel() {
        let scheduled = state.withLock { state in
            defer { state.scheduled = nil }
            return state.scheduled
        }
        scheduled?.cancel()
    }
}

/// Sees raw bytes before the HTTP decoder: a request header's first byte starts its deadline.
final class RequestHeaderStartHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    let deadline: RequestHeaderDeadline

    init(deadline: RequestHeaderDeadline) { self.deadline = deadline }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        deadline.headerBytesArrived(context: context)
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline.cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { deadline.cancel() }
}

/// Sees decoded request parts: a head ends its header's deadline, an end makes the next bytes a new header.
final class RequestHeaderEndHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    let deadline: RequestHeaderDeadline

    init(deadline: RequestHeaderDeadline) { self.deadline = deadline }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: deadline.headerEnded()
        case .end: deadline.requestEnded()
        case .body: break
        }
        context.fireChannelRead(data)
    }
}

/// Answers a connection over its address's limit with `503` and closes it, reading nothing of its request.
final class RefuseConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let answer =
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 5\r\nConnection: close\r\n"
        + "Content-Length: 47\r\n\r\nToo many connections from this client address.\n"

    private var answered = false

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuse(context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}  // nothing of the request is read

    private func refuse(context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: Self.answer))).whenComplete { _ in
            loopBound.value.close(promise: nil)
        }
    }
}
