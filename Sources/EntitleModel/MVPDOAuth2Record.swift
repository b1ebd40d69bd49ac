/// How Entitle signs users in with an OAuth 2.0 MVPD: its endpoints (from OIDC discovery or given one by one) and
/// Entitle's client registered there. The client secret is stored encrypted (``TokenCipher``), never logged.
package struct MVPDOAuth2Record: Sendable, Equatable {
    /// MVPD id.
    package var mvpdId: String
    /// The OpenID issuer the endpoints were discovered from, when they were.
    package var issuer: String?
    /// Authorization endpoint (the browser is sent there).
    package var authorizeURL: String
    /// Token endpoint (code → tokens, refresh token → access token).
    package var tokenURL: String
    /// User-profile (userinfo) endpoint.
    package var userinfoURL: String
    /// Logout (end-session) endpoint, when the MVPD has one.
    package var logoutURL: String?
    /// Entitle's client id at the MVPD.
    package var clientID: String
    /// Entitle's client secret at the MVPD, encrypted (``TokenCipher``).
    package var encryptedClientSecret: String
    /// Scopes asked for.
    package var scopes: [String]
    /// The userinfo claim that is the user id (`sub` by default).
    package var userIDClaim: String
    /// How the client authenticates at the token endpoint: `client_secret_basic` or `client_secret_post`.
    package var tokenAuthMethod: String
    /// Whether PKCE (S256) is sent.
    package var pkce: Bool

    /// Creates a record.
    package init(
        mvpdId: String, issuer: String?, authorizeURL: String, tokenURL: String, userinfoURL: String, logoutURL: String?,
        clientID: String, encryptedClientSecret: String, scopes: [String], userIDClaim: String,
        tokenAuthMethod: String = "client_secret_basic", pkce: Bool = true
    ) {
        self.mvpdId = mvpdId
        self.issuer = issuer
        self.authorizeURL = authorizeURL
        self.tokenURL = tokenURL
        self.userinfoURL = userinfoURL
        self.logoutURL = logoutURL
        self.clientID = clientID
        self.encryptedClientSecret = encryptedClientSecret
        self.scopes = scopes
        self.userIDClaim = userIDClaim
        self.tokenAuthMethod = tokenAuthMethod
        self.pkce = pkce
    }
}
