import EntitleCore

/// What REST v1 and the adobe-services protocol keep: AuthZ tokens, adobe-services tokens, request nonces and legacy
/// application keys (`LegacyStore` on SQL).
package protocol LegacyStoring: Sendable {
    /// The AuthZ token of (requestor, client, device, resource).
    func legacyAuthorization(requestor: String, client: String, device: String, resource: String) async throws -> LegacyAuthorizationRecord?
    /// Keeps an AuthZ token (replacing the one for the same resource).
    func upsertLegacyAuthorization(_ a: LegacyAuthorizationRecord) async throws
    /// Forgets every AuthZ token of a device.
    func deleteLegacyAuthorizations(requestor: String, client: String, device: String) async throws
    /// Uses a request nonce once; false when it was used before.
    func useNonce(key: String, expiresAt: Int64, now: Int64) async throws -> Bool
    /// The legacy application key with this public key, unless revoked.
    func activeLegacyAppKey(publicKey: String) async throws -> LegacyAppKeyRecord?
    /// Keeps an adobe-services authentication token.
    func insertAdobeToken(_ t: AdobeTokenRecord, now: Int64) async throws
    /// The adobe-services token with this GUID.
    func adobeToken(guid: String) async throws -> AdobeTokenRecord?
    /// Every adobe-services token of a device.
    func adobeTokens(requestor: String, client: String, device: String) async throws -> [AdobeTokenRecord]
    /// Forgets every adobe-services token of a device.
    func deleteAdobeTokens(requestor: String, client: String, device: String) async throws
}
