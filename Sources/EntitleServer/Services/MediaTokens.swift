import _CryptoExtras
import EntitleCore
import Foundation

/// Signs short media tokens with the active media-token key.
struct MediaTokenIssuer: Sendable {
    let signer: MediaTokenSigner
    let ttl: Int64

    /// A media token for a resource authorized for a profile.
    func token(resource: String, profile: ProfileRecord, requestor: String, now: Int64) throws -> MediaTokenInfo {
        let sessionGUID = String(Secrets.sha256Hex([profile.requestorId, profile.clientId, profile.deviceId, profile.mvpdId,
                                                    String(profile.notBefore)].joined(separator: "|")).prefix(32))
        let token = ShortMediaToken(sessionGUID: sessionGUID, requestorID: requestor, resourceID: resource, ttl: ttl,
                                    issueTime: now, mvpdID: profile.mvpdId, proxyMvpdID: "")
        return MediaTokenInfo(notBefore: now, notAfter: now + ttl, issuedAt: now, serializedToken: try signer.serialize(token))
    }
}

extension EntitleService {
    /// The media-token issuer with the current key.
    func mediaTokenSigner() async throws -> MediaTokenIssuer {
        let identity = try await keys.signingIdentity(purpose: ServiceKeys.Purpose.mediaToken)
        return MediaTokenIssuer(signer: MediaTokenSigner(privateKey: identity.privateKey), ttl: configuration.mediaTokenTTL)
    }
}
