import _CryptoExtras
import EntitleCore
import Foundation

/// Signs short media tokens with the active media-token key.
struct MediaTokenIssuer: Sendable {
    let signer: MediaTokenSigner
    let ttl: Int64
    let sessionGUIDs: SessionGUIDCache

    /// A media token for a resource authorized for a profile.
    func token(resource: String, profile: ProfileRecord, requestor: String, now: Int64) throws -> MediaTokenInfo {
        let token = ShortMediaToken(
            sessionGUID: sessionGUIDs.guid(for: profile), requestorID: requestor, resourceID: resource, ttl: ttl,
            issueTime: now, mvpdID: profile.mvpdId, proxyMvpdID: "")
        return MediaTokenInfo(notBefore: now, notAfter: now + ttl, issuedAt: now, serializedToken: try signer.serialize(token))
    }
}

/// Chooses the key that signs a requestor's media tokens.
struct MediaTokenService: Sendable {
    /// Catalog reads.
    let catalog: CatalogStore
    let keys: ServiceKeys
    /// Media token lifetime, ms.
    let ttl: Int64
    /// The session GUIDs of the sign-ins tokens were issued for.
    let sessionGUIDs = SessionGUIDCache()

    /// The media-token issuer with the current key of the requestor's algorithm (RSA by default, and RSA while the
    /// requestor's ECDSA / Ed25519 key is only published and not yet signing).
    func mediaTokenSigner(requestor: String) async throws -> MediaTokenIssuer {
        let algorithm = try await catalog.mediaTokenAlgorithm(requestor: requestor)
        var key = try await keys.mediaTokenSigningKey(algorithm)
        if key == nil { key = try await keys.mediaTokenSigningKey(.rsaSHA256) }
        guard let key else { throw ConfigurationError("No media-token key in the database.") }
        return MediaTokenIssuer(signer: MediaTokenSigner(signingKey: key), ttl: ttl, sessionGUIDs: sessionGUIDs)
    }
}
