import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage

/// Bounds on the service's HTTP connections, so that slow or silent clients cannot hold connections (and file
/// descriptors) forever: `entitle serve --idle-timeout --request-timeout --max-connections`.
package struct ConnectionLimits: Sendable, Equatable {
    /// Seconds a connection may go without a request part arriving while no response is being produced: bounds a
    /// silent connection, a request header that never completes, a stalled body and an idle keep-alive connection.
    package var idleTimeout: Double = 30
    /// Seconds from the first byte of a request header to the end of its body; a slow drip of body bytes cannot
    /// hold a connection longer.
    package var requestTimeout: Double = 60
    /// Connections served at once; more wait in the listen backlog until one closes (keep it below `ulimit -n`).
    package var maxConnections = 1000
    /// Connections one client address may hold at once; more are answered `503` and closed at once, so that one
    /// address cannot take the slots of everyone else (0: no per-address limit). Addresses of trusted proxies are
    /// exempt: behind a load balancer every client arrives from it.
    package var maxConnectionsPerAddress = 32
    /// Seconds from the first byte of a request header to its end; shorter than the idle timeout, so that a header
    /// sent slowly, or never finished, frees its connection early.
    package var headerTimeout: Double = 10
    /// Socket peers exempt from the per-address limit (the trusted proxies).
    package var exemptAddresses: [IPAddressRange] = []
    /// Seconds a connection is kept open after the server finished its side (an error answer or `Connection: close`),
    /// reading and discarding what the client still sends, before it is closed completely.
    package var lingerTimeout: Double = 2

    /// The defaults, meant for a public deployment.
    package init() {}

    /// These limits with `addresses` also exempt from the per-address limit.
    func exempting(_ addresses: [IPAddressRange]) -> ConnectionLimits {
        var limits = self
        limits.exemptAddresses += addresses
        return limits
    }
}
