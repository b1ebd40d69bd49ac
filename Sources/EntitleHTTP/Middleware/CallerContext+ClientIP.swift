import EntitleDomain
import EntitleModel

/// The device's IP address as sent to MVPDs (XACML environment, REST `IPAddress`): the one place to read it.
extension CallerContext {
    /// The client's IP address for MVPD calls: the socket peer, or behind a trusted proxy the address its forwarding
    /// headers name (``ClientAddressMiddleware``).
    package var mvpdClientIP: String? { remoteIP }
}
