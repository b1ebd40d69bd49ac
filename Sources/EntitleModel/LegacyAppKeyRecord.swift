/// A requestor key pair for the legacy HMAC `Authorization` header of REST API v1.
package struct LegacyAppKeyRecord: Sendable, Equatable {
    /// The public key (sent in the header; identifies the pair).
    package var publicKey: String
    /// The requestor the pair belongs to.
    package var requestorId: String
    /// The private key: the HMAC secret (never logged).
    package var privateKey: String
    /// Creation time, ms.
    package var createdAt: Int64
    /// Whether it was revoked.
    package var revoked: Bool

    /// Creates the value from each of its stored properties.
    package init(publicKey: String, requestorId: String, privateKey: String, createdAt: Int64, revoked: Bool) {
        self.publicKey = publicKey
        self.requestorId = requestorId
        self.privateKey = privateKey
        self.createdAt = createdAt
        self.revoked = revoked
    }
}
