/// Where an authentication session (a registration code) stands, as the service stores it.
///
/// An ``OpenCode`` rather than an enum: several instances of the service share one database, and a row written by a
/// newer one must not make an older one fail to read the session. An unknown status is none of the constants, so
/// every check treats it as not authenticated.
public struct AuthenticationSessionStatus: OpenCode {
    /// The status as stored.
    public let rawValue: String
    /// Creates a status from its stored text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Created; no MVPD login started yet.
    public static let pending = AuthenticationSessionStatus(rawValue: "pending")
    /// An AuthnRequest was sent to the MVPD; waiting for its response.
    public static let authenticating = AuthenticationSessionStatus(rawValue: "authenticating")
    /// The MVPD's response was accepted and a profile stored.
    public static let authenticated = AuthenticationSessionStatus(rawValue: "authenticated")
    /// The MVPD's login failed; the user may try again.
    public static let failed = AuthenticationSessionStatus(rawValue: "failed")
    /// The client cancelled the session.
    public static let cancelled = AuthenticationSessionStatus(rawValue: "cancelled")
}
