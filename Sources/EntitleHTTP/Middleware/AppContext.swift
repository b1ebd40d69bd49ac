import EntitleCore
import EntitleDomain
import EntitleModel
import Hummingbird
import NIOCore

/// The request context of the service: the core context and the peer address, with a small upload limit. On the
/// authenticated route groups ``CallerMiddleware`` sets `caller`, and the group's ``CallerContext`` carries it to the
/// handlers.
package struct AppContext: RequestContext {
    /// Hummingbird's core storage.
    package var coreContext: CoreRequestContextStorage
    /// The client's IP address: the connected peer's, or, when the peer is a trusted proxy, the one its forwarding
    /// headers name (``ClientAddressMiddleware``). Throttling, logs and MVPD calls use this one.
    package var remoteIP: String?
    /// The connected socket peer's IP address (a trusted proxy's, behind one).
    package let peerIP: String?
    /// Whether the client reached the service over HTTPS: `X-Forwarded-Proto` / `Forwarded: proto` of a trusted proxy.
    package var forwardedHTTPS = false
    /// The authenticated caller, set by ``CallerMiddleware`` (REST v2) or ``LegacyCallerMiddleware`` (v1, adobe-services).
    package var caller: CallerIdentity?
    /// The parameters and answer format of a REST v1 or adobe-services call, set by ``LegacyEnvelopeMiddleware``.
    package var legacyRequest: V1Request?
    /// The signed-in operator of the admin API, set by ``AdminAuthMiddleware``.
    package var adminOperator: OperatorIdentity?
    /// The device address a REST API v2 call names in `X-Forwarded-For`, believed only for a server-to-server client
    /// (``ForwardedDeviceMiddleware``, ``ServerToServerMiddleware``).
    package var forwardedDevice: ForwardedDevice?

    /// Creates the context for a request on a channel.
    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerIP = source.channel.remoteAddress?.ipAddress
        remoteIP = peerIP
    }

    /// Bodies larger than this are refused with 413.
    package var maxUploadSize: Int { 256 * 1024 }
    /// ``ResponseEncodable`` answers are the wire's JSON (sorted keys, `Cache-Control: no-store`).
    package var responseEncoder: WireJSONEncoder { WireJSONEncoder() }
}

/// The request context of the authenticated route groups: the caller that ``CallerMiddleware`` established is always
/// there, so a handler cannot forget to check it.
package struct CallerContext: ChildRequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The client's IP address (see ``AppContext/remoteIP``).
    package let remoteIP: String?
    /// Who is calling: client application, requestor, device.
    package let caller: CallerIdentity

    /// The context of a request whose caller the parent group's middleware established.
    package init(context: AppContext) throws {
        // Only reachable when a group forgot CallerMiddleware: a programming error, answered 500 and caught by every test.
        guard let caller = context.caller else { throw APIError(.internalServerError) }
        coreContext = context.coreContext
        remoteIP = context.remoteIP
        self.caller = caller
    }

    /// Bodies larger than this are refused with 413.
    package var maxUploadSize: Int { 256 * 1024 }
    /// ``ResponseEncodable`` answers are the wire's JSON (sorted keys, `Cache-Control: no-store`).
    package var responseEncoder: WireJSONEncoder { WireJSONEncoder() }
}
