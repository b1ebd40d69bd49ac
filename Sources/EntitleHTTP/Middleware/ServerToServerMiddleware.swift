import EntitleDomain
import EntitleModel
import HTTPTypes
import Hummingbird
import Synchronization

/// The device address a REST API v2 call names in `X-Forwarded-For` (its first address), kept from before the request
/// log until the caller is known: ``ServerToServerMiddleware`` accepts it for a server-to-server client, and the
/// request log then names it as the client (and the connected peer as `peer`). A class, so that the log's copy of the
/// context sees what the route group's middleware decided.
package final class ForwardedDevice: Sendable {
    /// The address, a valid IPv4 or IPv6 address.
    package let address: String
    private let accepted = Atomic<Bool>(false)

    /// A candidate address, not yet accepted.
    package init(address: String) { self.address = address }

    /// Whether the caller is a server-to-server client, so that the address is the device's.
    package var isAccepted: Bool { accepted.load(ordering: .acquiring) }

    /// Marks the address as the device's.
    package func accept() { accepted.store(true, ordering: .releasing) }

    /// The first address of the first `X-Forwarded-For` field, when it is an IP address (no port, no brackets, no
    /// `unknown` or obfuscated name); nil otherwise.
    package static func firstAddress(_ headers: HTTPFields) -> String? {
        guard let field = headers[ClientAddress.forwardedFor] else { return nil }
        let first = (field.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").trimmingASCIIBlanks
        return IPAddressRange.isAddress(first) ? first : nil
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingASCIIBlanks: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// Router-wide, before the request log: on a REST API v2 path whose request carries `X-Forwarded-For`, keeps its first
/// address as a candidate (``ForwardedDevice``) in the context. Nothing else: whether it is believed is decided once
/// the caller is known.
package struct ForwardedDeviceMiddleware: RouterMiddleware {
    package typealias Context = AppContext

    /// The middleware.
    package init() {}

    package func handle(_ request: Request, context: AppContext, next: @concurrent (Request, AppContext) async throws -> Response) async throws
        -> Response
    {
        guard request.uri.path.utf8.starts(with: "/api/v2/".utf8), let address = ForwardedDevice.firstAddress(request.headers) else {
            return try await next(request, context)
        }
        var context = context
        context.forwardedDevice = ForwardedDevice(address: address)
        return try await next(request, context)
    }
}

/// On the REST API v2 group, after ``CallerMiddleware``: Adobe's server-to-server cookbook — a network's backend calls
/// v2 for its devices and passes each device's address in `X-Forwarded-For`. For a client whose software statement is
/// marked server-to-server, the first `X-Forwarded-For` address becomes the client address of the call (MVPD
/// authorization calls, the request log); for every other client the header keeps counting only through a trusted
/// proxy (``ClientAddressMiddleware``). A marked client's call without a valid address keeps the connection's.
package struct ServerToServerMiddleware: RouterMiddleware {
    package typealias Context = AppContext
    package let authenticator: CallerAuthenticator

    /// The middleware, reading the callers' software statements through `authenticator`.
    package init(authenticator: CallerAuthenticator) { self.authenticator = authenticator }

    package func handle(_ request: Request, context: AppContext, next: @concurrent (Request, AppContext) async throws -> Response) async throws
        -> Response
    {
        guard let device = context.forwardedDevice, let caller = context.caller, await authenticator.isServerToServer(caller) else {
            return try await next(request, context)
        }
        device.accept()
        var context = context
        context.remoteIP = device.address
        return try await next(request, context)
    }
}
