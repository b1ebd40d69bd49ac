/// How an authenticated profile came about: the `type` field of a ``Profile`` (and of the service's stored profiles).
///
/// An ``OpenCode``: Adobe documents more types than Entitle issues, and a newer service may add some.
public struct ProfileType: OpenCode {
    /// The type as written on the wire.
    public let rawValue: String
    /// Creates a type from its wire text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A login at the MVPD.
    public static let regular = ProfileType(rawValue: "regular")
    /// A TempPass.
    public static let temporary = ProfileType(rawValue: "temporary")
    /// Granted by an `authn-all` degradation rule, without the MVPD's login.
    public static let degraded = ProfileType(rawValue: "degraded")
    /// Platform single sign-on.
    public static let platformSSO = ProfileType(rawValue: "platformSSO")
    /// Service-token single sign-on.
    public static let serviceTokenSSO = ProfileType(rawValue: "serviceTokenSSO")
    /// Apple's partner single sign-on.
    public static let appleSSO = ProfileType(rawValue: "appleSSO")
}
