import EntitleModel
import EntitleStorage
import Foundation
import JWTKit

/// Issues and checks the service's JWTs: software statements and access tokens.
package struct TokenIssuer: Sendable {
    /// The `iss` of every JWT the service signs.
    package static let issuer = "entitle"
    /// Access token lifetime.
    package var accessTokenLifetime: Int64

    package let keys: ServiceKeys
    package let clock: any ServiceClock

    /// Creates an issuer.
    package init(keys: ServiceKeys, clock: any ServiceClock, accessTokenLifetime: Int64 = 21_600) {
        self.keys = keys
        self.clock = clock
        self.accessTokenLifetime = accessTokenLifetime
    }

    /// Signs a software statement.
    package func sign(statement: SoftwareStatementClaims) async throws -> String {
        let (collection, kid) = try await keys.jwtKeys()
        return try await collection.sign(statement, kid: JWKIdentifier(string: kid))
    }

    /// Verifies a software statement's signature; nil when it is not a statement signed by this service.
    package func verify(statement: String) async -> SoftwareStatementClaims? {
        guard statement.utf8.count < 16_384, let (collection, _) = try? await keys.jwtKeys(),
            let claims = try? await collection.verify(statement, as: SoftwareStatementClaims.self),
            claims.iss == Self.issuer
        else { return nil }
        return claims
    }

    /// Signs an access token for a client.
    package func accessToken(clientID: String, requestorID: String) async throws -> (token: String, claims: AccessTokenClaims) {
        let now = Int64(clock.now().timeIntervalSince1970)
        let claims = AccessTokenClaims(
            iss: Self.issuer, sub: clientID, requestorID: requestorID, scopes: "api:client:v2",
            iat: now, nbf: now, exp: now + accessTokenLifetime, jti: UUID().uuidString.lowercased())
        let (collection, kid) = try await keys.jwtKeys()
        return (try await collection.sign(claims, kid: JWKIdentifier(string: kid)), claims)
    }

    /// Verifies an access token: signature, issuer, validity window (60 s skew). Nil when any check fails.
    package func verify(accessToken: String) async -> AccessTokenClaims? {
        guard accessToken.utf8.count < 8192 else { return nil }
        let claims: AccessTokenClaims
        if keys.catalogIsFresh, let known = keys.verifiedAccessTokens.claims(for: accessToken, generation: keys.catalogGeneration) {
            // Verified under the current catalog, so with keys that are still there: the key set is not read.
            claims = known
        } else {
            guard let verified = await verifiedWithKeySet(accessToken) else { return nil }
            claims = verified
        }
        let now = Int64(clock.now().timeIntervalSince1970)
        guard claims.nbf <= now + 60, now < claims.exp else { return nil }
        return claims
    }

    /// The claims of `accessToken` once the key set is read (which also brings the catalog up to date): from the
    /// verified-token cache, else by checking its signature and issuer and remembering it. Nil when a check fails.
    private func verifiedWithKeySet(_ accessToken: String) async -> AccessTokenClaims? {
        guard let (collection, _) = try? await keys.jwtKeys() else { return nil }
        let generation = keys.catalogGeneration
        if let known = keys.verifiedAccessTokens.claims(for: accessToken, generation: generation) { return known }
        guard let verified = try? await collection.verify(accessToken, as: AccessTokenClaims.self), verified.iss == Self.issuer else {
            return nil
        }
        keys.verifiedAccessTokens.remember(accessToken, claims: verified, generation: generation)
        return verified
    }
}
