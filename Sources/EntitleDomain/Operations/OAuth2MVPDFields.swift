import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// An OAuth 2.0 MVPD's settings in the admin API: all of them to add one (`issuer`, or the three endpoints; client id
/// and secret), any of them to change one. The client secret is write-only.
package struct OAuth2MVPDFields: Codable, Sendable, Equatable {
    /// OpenID issuer: the endpoints come from its discovery document.
    package var issuer: String?
    /// Authorization endpoint.
    package var authorizeURL: String?
    /// Token endpoint.
    package var tokenURL: String?
    /// User-profile (userinfo) endpoint.
    package var userinfoURL: String?
    /// Logout endpoint (empty: none).
    package var logoutURL: String?
    /// Entitle's client id at the MVPD.
    package var clientID: String?
    /// Entitle's client secret at the MVPD (stored encrypted, never shown).
    package var clientSecret: String?
    /// Scopes asked for.
    package var scopes: [String]?
    /// The userinfo claim that is the user id.
    package var userIDClaim: String?

    /// No change.
    package init() {}
}

/// An OAuth 2.0 MVPD's settings as shown: never the client secret.
package struct OAuth2MVPDView: Codable, Sendable, Equatable {
    /// OpenID issuer, when the endpoints were discovered.
    package var issuer: String?
    /// Authorization endpoint.
    package var authorizeURL: String
    /// Token endpoint.
    package var tokenURL: String
    /// User-profile (userinfo) endpoint.
    package var userinfoURL: String
    /// Logout endpoint.
    package var logoutURL: String?
    /// Entitle's client id at the MVPD.
    package var clientID: String
    /// Whether a client secret is stored (always true; the secret itself is never shown).
    package var clientSecretSet: Bool
    /// Scopes asked for.
    package var scopes: [String]
    /// The userinfo claim that is the user id.
    package var userIDClaim: String
    /// `client_secret_basic` or `client_secret_post`.
    package var tokenAuthMethod: String
    /// Whether PKCE S256 is sent.
    package var pkce: Bool

    package init(_ r: MVPDOAuth2Record) {
        (issuer, authorizeURL, tokenURL, userinfoURL, logoutURL) = (r.issuer, r.authorizeURL, r.tokenURL, r.userinfoURL, r.logoutURL)
        (clientID, clientSecretSet, scopes, userIDClaim) = (r.clientID, !r.encryptedClientSecret.isEmpty, r.scopes, r.userIDClaim)
        (tokenAuthMethod, pkce) = (r.tokenAuthMethod, r.pkce)
    }
}
