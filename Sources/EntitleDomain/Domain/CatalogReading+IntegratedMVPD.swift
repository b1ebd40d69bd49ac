import EntitleCore
import EntitleModel
import EntitleStorage

extension CatalogReading {
    /// An MVPD integrated with the requestor, or `invalid_parameter_mvpd`.
    package func requireIntegratedMVPD(_ id: String, requestor: String) async throws -> MVPDRecord {
        guard id.utf8.count <= 128, let mvpd = try await integratedMVPD(requestor: requestor, mvpd: id) else {
            throw EnhancedError.invalidMVPD
        }
        return mvpd
    }
}

extension CatalogReading {
    /// How long a sign-in to `mvpd` for `requestor` lasts, in seconds: the integration's profile lifetime
    /// (`entitle admin integration set --profile-ttl`) where it sets one, else the MVPD's. Every sign-in path (SAML,
    /// partner SSO, OAuth 2.0) reads it here, as the MVPD record of a session is read without the integration's overrides.
    package func profileLifetimeSeconds(requestor: String, mvpd: MVPDRecord) async throws -> Int64 {
        try await integratedMVPD(requestor: requestor, mvpd: mvpd.id)?.profileTtlSeconds ?? mvpd.profileTtlSeconds
    }
}
