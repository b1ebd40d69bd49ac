import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes

/// Hummingbird's HTTP/1.1 child channel with the service's connection limits: its idle timeout, a whole-request read
/// timeout, and a lingering close — once the server has finished its side of a connection (after an error answer such
/// as 400 to an oversized header, or `Connection: close`), it keeps reading and discarding until the client closes or
/// the linger time is up, then closes the connection completely, so no descriptor is left in FIN-WAIT-2.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let responder: HTTPChannelHandler.Responder
    let limits: ConnectionLimits
    let perAddress: ConnectionsPerAddress

    init(responder: @escaping HTTPChannelHandler.Responder, limits: ConnectionLimits) {
        self.responder = responder
        self.limits = limits
        perAddress = ConnectionsPerAddress(limit: limits.maxConnectionsPerAddress, exempt: limits.exemptAddresses)
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let linger = TimeAmount.fromSeconds(limits.lingerTimeout)
        let address = channel.remoteAddress?.ipAddress
        let admitted = address.map(perAddress.open) ?? true
        if admitted, let address {
            let perAddress = self.perAddress
            channel.closeFuture.whenComplete { _ in perAddress.close(address) }
        }
        // The header deadline starts at a request's first byte (seen before the HTTP decoder) and ends at its head.
        let headerDeadline = RequestHeaderDeadline(timeout: .fromSeconds(limits.headerTimeout))
        let base = HTTP1Channel(
            responder: responder,
            configuration: .init(
                additionalChannelHandlers: [
                    RequestReadTimeoutHandler(timeout: .fromSeconds(limits.requestTimeout)),
                    RequestHeaderEndHandler(deadline: headerDeadline),
                ],
                idleTimeout: .fromSeconds(limits.idleTimeout)))
        return channel.eventLoop.makeCompletedFuture {
            let operations = channel.pipeline.syncOperations
            try operations.addHandler(LingeringCloseHandler(linger: linger), position: .first)
            try operations.addHandler(RequestHeaderStartHandler(deadline: headerDeadline), position: .first)
            if !admitted { try operations.addHandler(RefuseConnectionHandler(), position: .first) }
        }.flatMap { base.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await HTTP1Channel(responder: responder).handle(value: value, logger: logger)
    }
}

extension TimeAmount {
    /// A time amount from seconds.
    static func fromSeconds(_ seconds: Double) -> TimeAmount { .nanoseconds(Int64(max(0, seconds) * 1_000_000_000)) }
}

/// Closes a connection whose request (head and body) is not read completely within `timeout` of its head.
final class RequestReadTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) { self.timeout = timeout }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: timeout) { loopBound.value.close(promise: nil) }
        case .end:
            deadline?.cancel()
            deadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }
}

/// After the server closes its output, reads and discards the client's bytes until the client closes too (or `linger`
/// passes), then closes the connection completely.
final class LingeringCloseHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    let linger: TimeAmount
    private var lingering = false
    private var deadline: Scheduled<Void>?

    init(linger: TimeAmount) { self.linger = linger }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard mode == .output, !lingering else {
            context.close(mode: mode, promise: promise)
            return
        }
        lingering = true
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: linger) { loopBound.value.close(mode: .all, promise: nil) }
        context.close(mode: .output, promise: promise)
        context.read()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !lingering else { return }  // the server has answered: what the client still sends is discarded
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        guard !lingering else {
            context.read()
            return
        }
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if lingering, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(mode: .all, promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if lingering {
            context.close(mode: .all, promise: nil)
            return
        }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }
}
