import _CryptoExtras
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// Signs short media tokens with the active media-token key.
package struct MediaTokenIssuer: Sendable {
    package let signer: MediaTokenSigner
    package let ttl: Int64
    package let sessionGUIDs: SessionGUIDCache

    /// A media token for a resource authorized for a profile (`proxyMVPD`: the proxy of a proxied MVPD, Adobe's
    /// `proxyMvpdId`).
    package func token(resource: String, profile: ProfileRecord, requestor: String, proxyMVPD: String? = nil, now: Int64) throws -> MediaTokenInfo {
        let token = ShortMediaToken(
            sessionGUID: sessionGUIDs.guid(for: profile), requestorID: requestor, resourceID: resource, ttl: ttl,
            issueTime: now, mvpdID: profile.mvpdId, proxyMvpdID: proxyMVPD ?? "")
        return MediaTokenInfo(notBefore: now, notAfter: now + ttl, issuedAt: now, serializedToken: try signer.serialize(token))
    }

    /// Creates the value from each of its stored properties.
    package init(signer: MediaTokenSigner, ttl: Int64, sessionGUIDs: SessionGUIDCache) {
        self.signer = signer
        self.ttl = ttl
        self.sessionGUIDs = sessionGUIDs
    }
}

/// Chooses the key that signs a requestor's media tokens.
package struct MediaTokenService: Sendable {
    /// Catalog reads.
    package let catalog: CatalogStore
    package let keys: ServiceKeys
    /// Media token lifetime, ms.
    package let ttl: Int64
    /// The session GUIDs of the sign-ins tokens were issued for.
    package let sessionGUIDs = SessionGUIDCache()

    /// The media-token issuer with the current key of the requestor's algorithm (RSA by default, and RSA while the
    /// requestor's ECDSA / Ed25519 key is only published and not yet signing).
    package func mediaTokenSigner(requestor: String) async throws -> MediaTokenIssuer {
        let algorithm = try await catalog.mediaTokenAlgorithm(requestor: requestor)
        var key = try await keys.mediaTokenSigningKey(algorithm)
        if key == nil { key = try await keys.mediaTokenSigningKey(.rsaSHA256) }
        guard let key else { throw ConfigurationError("No media-token key in the database.") }
        return MediaTokenIssuer(signer: MediaTokenSigner(signingKey: key), ttl: ttl, sessionGUIDs: sessionGUIDs)
    }

    /// Creates the value from each of its stored properties.
    package init(catalog: CatalogStore, keys: ServiceKeys, ttl: Int64) {
        self.catalog = catalog
        self.keys = keys
        self.ttl = ttl
    }
}
