import EntitleDomain
import EntitleModel
import Foundation
import HTTPTypes
import Hummingbird

/// Puts the client's address in the request context: the socket peer's, unless the peer is a trusted proxy, in
/// which case the forwarding headers name it — `Forwarded` (RFC 7239) when present, else `X-Forwarded-For` — read
/// from the right, past every trusted hop, to the first address not trusted. `X-Forwarded-Proto` (or `proto=`) of a
/// trusted peer tells whether the client used HTTPS. From any other peer the headers are ignored: a client cannot
/// choose its own address.
package struct ClientAddressMiddleware: RouterMiddleware {
    package typealias Context = AppContext
    package let trusted: [IPAddressRange]

    /// The middleware for `trusted` proxies.
    package init(trusted: [IPAddressRange]) { self.trusted = trusted }

    package func handle(_ request: Request, context: AppContext, next: @concurrent (Request, AppContext) async throws -> Response) async throws
        -> Response
    {
        guard !trusted.isEmpty else { return try await next(request, context) }
        var context = context
        let client = ClientAddress.resolve(peer: context.peerIP, headers: request.headers, trusted: trusted)
        context.remoteIP = client.address
        context.forwardedHTTPS = client.https
        return try await next(request, context)
    }
}

/// The client as forwarding headers of trusted proxies name it.
package struct ClientAddress: Sendable, Equatable {
    /// The client's IP address (the peer's when nothing trustworthy says otherwise).
    package var address: String?
    /// Whether the client used HTTPS, as the nearest trusted proxy says.
    package var https: Bool

    /// A resolved client.
    package init(address: String?, https: Bool) {
        self.address = address
        self.https = https
    }

    package static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
    package static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!
    package static let forwarded = HTTPField.Name("Forwarded")!

    /// Resolves the client of a request from `peer` and `headers`.
    package static func resolve(peer: String?, headers: HTTPFields, trusted: [IPAddressRange]) -> ClientAddress {
        guard let peer, trusted.containsAddress(peer) else { return ClientAddress(address: peer, https: false) }
        let forwardedValues = headers[values: forwarded]
        var hops: [String]
        var proto: String?
        if !forwardedValues.isEmpty {
            let elements = forwardedValues.flatMap { $0.split(separator: ",") }.map(parseForwardedElement)
            hops = elements.map { $0.for ?? "" }
            proto = elements.last?.proto
        } else {
            hops = headers[values: forwardedFor].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
            proto = headers[values: forwardedProto].flatMap { $0.split(separator: ",") }.last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        var client = peer
        for hop in hops.reversed() {
            guard IPAddressRange.isAddress(hop) else { break }  // unparseable: the last hop a trusted proxy vouched for
            client = hop
            if !trusted.containsAddress(hop) { break }
        }
        return ClientAddress(address: client, https: proto?.lowercased() == "https")
    }

    /// `for=` and `proto=` of one `Forwarded` element; `for` without quotes, brackets or port.
    package static func parseForwardedElement(_ element: Substring) -> (for: String?, proto: String?) {
        var forValue: String?, protoValue: String?
        for pair in element.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            var value = parts[1].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            switch name {
            case "for":
                if value.hasPrefix("[") {
                    value = String(value.dropFirst().prefix { $0 != "]" })
                } else if value.filter({ $0 == ":" }).count == 1 {
                    value = String(value.prefix { $0 != ":" })
                }
                forValue = value
            case "proto": protoValue = value
            default: continue
            }
        }
        return (forValue, protoValue)
    }
}
