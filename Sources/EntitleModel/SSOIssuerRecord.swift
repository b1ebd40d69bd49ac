import Foundation

/// What kind of single sign-on token an issuer signs, and so which request header carries it and which profile type it
/// yields: Amazon's (Fire TV) platform identity in `Adobe-Subject-Token`, Roku's in `X-Roku-Reserved-Roku-Connect-Token`
/// (both `platformSSO`), and a network's own identity service in `AD-Service-Token` (`serviceTokenSSO`).
package struct SSOIssuerType: RawRepresentable, Codable, Hashable, Sendable {
    /// The name stored and shown (`amazon`, `roku`, `service-token`).
    package let rawValue: String
    /// A type from its stored name (any text; ``known`` tells the ones this binary reads).
    package init(rawValue: String) { self.rawValue = rawValue }

    /// Fire TV's platform identity (`Adobe-Subject-Token`).
    package static let amazon = SSOIssuerType(rawValue: "amazon")
    /// Roku's platform identity (`X-Roku-Reserved-Roku-Connect-Token`).
    package static let roku = SSOIssuerType(rawValue: "roku")
    /// A network's identity service (`AD-Service-Token`).
    package static let serviceToken = SSOIssuerType(rawValue: "service-token")
    /// Every type this binary reads.
    package static let known: [SSOIssuerType] = [.amazon, .roku, .serviceToken]
}

/// An SSO token issuer the operator registered: the `iss` its tokens carry, the keys that verify them (PEM public keys
/// or certificates, and/or a JWKS URL), the audience they must name, and the requestors that share its identities.
package struct SSOIssuerRecord: Codable, Sendable, Equatable {
    /// The operator's id of the issuer.
    package var id: String
    /// The kind of token (and so its header).
    package var type: SSOIssuerType
    /// The `iss` claim its tokens carry.
    package var issuer: String
    /// The `aud` its tokens must carry; nil: a service token must say `adobe`, a platform token's audience is not checked.
    package var audience: String?
    /// PEM public keys or certificates (RSA of at least 2048 bits, or EC P-256).
    package var publicKeys: [String]
    /// Where the issuer publishes its keys as a JWKS, fetched and kept for a while.
    package var jwksURL: String?
    /// The requestors whose apps share this issuer's identities.
    package var requestors: [String]
    /// When it was registered and last changed, ms.
    package var createdAt: Int64
    package var updatedAt: Int64

    /// Creates the value from each of its stored properties.
    package init(
        id: String, type: SSOIssuerType, issuer: String, audience: String?, publicKeys: [String], jwksURL: String?, requestors: [String],
        createdAt: Int64, updatedAt: Int64
    ) {
        self.id = id
        self.type = type
        self.issuer = issuer
        self.audience = audience
        self.publicKeys = publicKeys
        self.jwksURL = jwksURL
        self.requestors = requestors
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A sign-in shared under an SSO identity: the sign-in of `sessionCode` for `requestorId` was made (or found) while the
/// device presented a valid token for (issuer, subject). The subject is kept as its SHA-256 only.
package struct SSOSignInRecord: Codable, Sendable, Equatable {
    /// The registered issuer's id.
    package var issuerId: String
    /// SHA-256 (hex) of the token's `sub`.
    package var subjectHash: String
    /// The requestor of the sign-in.
    package var requestorId: String
    /// The session code of the sign-in (its profile keeps it).
    package var sessionCode: String
    /// When it was shared, ms.
    package var createdAt: Int64

    /// Creates the value from each of its stored properties.
    package init(issuerId: String, subjectHash: String, requestorId: String, sessionCode: String, createdAt: Int64) {
        self.issuerId = issuerId
        self.subjectHash = subjectHash
        self.requestorId = requestorId
        self.sessionCode = sessionCode
        self.createdAt = createdAt
    }
}
