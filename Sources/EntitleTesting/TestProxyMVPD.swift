import EntitleDomain
import EntitleModel
import EntitleStorage

/// A proxy MVPD for tests: `SmallProxy`, a SAML MVPD at proxy.example marked as a proxy (unlisted, no allowed addresses),
/// integrated with `requestor` when one is given.
package enum TestProxyMVPD {
    /// Its id.
    package static let id = "SmallProxy"

    /// Adds it to `service`.
    package static func add(to service: EntitleService, integratedWith requestor: String? = "REF", actor: String = "test") async throws {
        try await service.repository.catalogStore.upsertMVPD(
            MVPDRecord(
                id: id, displayName: "Small Proxy", logoUrl: "", kind: .saml, entityId: "urn:test:small-proxy",
                ssoUrl: "https://proxy.example/sso", certificates: [], requiresSafariViewController: false, enablePlatformServices: false,
                displayInPlatformPicker: false, profileTtlSeconds: 86_400, encryptedAttributes: []))
        if let requestor { try await service.repository.catalogStore.setIntegration(requestor: requestor, mvpd: id, enabled: true) }
        try await service.proxyMVPDs.markProxy(id: id, listed: false, allowedAddresses: [], actor: actor)
    }
}
