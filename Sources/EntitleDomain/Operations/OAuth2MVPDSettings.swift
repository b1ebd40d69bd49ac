import EntitleCore
import EntitleModel
import EntitleStorage

/// How Entitle signs users in at an OAuth 2.0 MVPD.
package struct OAuth2MVPDSettings: Sendable {
    /// The OpenID issuer whose discovery document gave the endpoints, when they were discovered.
    package var issuer: String?
    /// Authorization endpoint.
    package var authorizeURL: String
    /// Token endpoint.
    package var tokenURL: String
    /// User-profile (userinfo) endpoint.
    package var userinfoURL: String
    /// Logout (end-session) endpoint, when the MVPD has one.
    package var logoutURL: String?
    /// Entitle's client id at the MVPD.
    package var clientID: String
    /// Entitle's client secret at the MVPD (stored encrypted, never logged).
    package var clientSecret: String
    /// Scopes asked for.
    package var scopes: [String] = []
    /// The userinfo claim that is the user id.
    package var userIDClaim = "sub"
    /// `client_secret_basic` (default) or `client_secret_post`.
    package var tokenAuthMethod = "client_secret_basic"
    /// Whether PKCE S256 is sent (unless discovery says the MVPD does not take it).
    package var pkce = true
    /// Accept `http` endpoints on any host (the demo world only).
    package var allowPlainHTTP = false

    /// Creates settings from endpoints given one by one.
    package init(
        authorizeURL: String, tokenURL: String, userinfoURL: String, logoutURL: String? = nil, clientID: String, clientSecret: String
    ) {
        self.authorizeURL = authorizeURL
        self.tokenURL = tokenURL
        self.userinfoURL = userinfoURL
        self.logoutURL = logoutURL
        self.clientID = clientID
        self.clientSecret = clientSecret
    }
}
