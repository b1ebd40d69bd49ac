/// A sign-in waiting for the OAuth 2.0 MVPD's callback: the hash of its `state`, the session it completes and the PKCE
/// verifier.
package struct OAuth2PendingRecord: Codable, Sendable, Equatable {
    /// SHA-256 of the `state` sent to the MVPD, hex.
    package var stateHash: String
    /// The registration code of the authentication session.
    package var sessionCode: String
    /// The MVPD.
    package var mvpdId: String
    /// The PKCE code verifier.
    package var codeVerifier: String
    /// Expiry, ms.
    package var expiresAt: Int64

    /// Creates the value from each of its stored properties.
    package init(stateHash: String, sessionCode: String, mvpdId: String, codeVerifier: String, expiresAt: Int64) {
        self.stateHash = stateHash
        self.sessionCode = sessionCode
        self.mvpdId = mvpdId
        self.codeVerifier = codeVerifier
        self.expiresAt = expiresAt
    }
}
