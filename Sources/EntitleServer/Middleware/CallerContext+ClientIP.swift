/// The device's IP address as sent to MVPDs (XACML environment, REST `IPAddress`): the one place to read it, so the
/// trusted-proxy resolution can be applied here.
extension CallerContext {
    /// The client's IP address for MVPD calls (today the socket peer).
    var mvpdClientIP: String? { remoteIP }
}
