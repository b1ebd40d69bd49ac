/// What kind of integration an MVPD is.
///
/// An ``OpenCode``: an MVPD stored by a newer instance sharing the database is read without failing.
public struct MVPDKind: OpenCode {
    /// The kind as stored.
    public let rawValue: String
    /// Creates a kind from its text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A SAML 2.0 identity provider with an authorization adapter.
    public static let saml = MVPDKind(rawValue: "saml")
    /// A TempPass pseudo-MVPD: a timed pass per device, no login.
    public static let tempPass = MVPDKind(rawValue: "temppass")
    /// An OAuth 2.0 MVPD: authorization-code sign-in (PKCE S256) and a user-profile endpoint.
    public static let oauth2 = MVPDKind(rawValue: "oauth2")
}
