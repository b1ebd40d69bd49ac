import EntitleCore
import EntitleModel
import EntitleStorage

/// The requestor part of `GET /api/v2/{sp}/configuration` (its MVPDs) as JSON text, encoded once per catalog change
/// and kept in the catalog cache; the device part is added on each call by the controller.
package struct RequestorConfigurations: Sendable {
    private let catalog: CatalogStore

    package init(catalog: CatalogStore) {
        self.catalog = catalog
    }

    /// The JSON of the requestor's configuration.
    package func json(for requestor: RequestorRecord) async throws -> String {
        try await catalog.cached(catalog.catalogCache.configurationJSON, requestor.id) {
            let mvpds = try await catalog.mvpds(requestor: requestor.id)
            return String(
                decoding: JSONCoding.encode(
                    RequestorConfiguration(
                        id: requestor.id, name: requestor.name, domains: requestor.domains.map { .init(name: $0) },
                        mvpds: mvpds.map(\.configuration))), as: UTF8.self)
        }
    }
}

extension MVPDRecord {
    /// The wire form of this MVPD (`isProxy`: Adobe's flag of a proxied MVPD).
    package var configuration: MVPDConfiguration {
        MVPDConfiguration(
            id: id, displayName: displayName, logoUrl: logoUrl, authPerAggregator: isTempPass, isTempPass: isTempPass,
            isProxy: proxyMvpdId != nil, enablePlatformServices: enablePlatformServices, boardingStatus: boardingStatus,
            platformMappingId: platformMappingId, displayInPlatformPicker: displayInPlatformPicker,
            requiresSafariViewController: requiresSafariViewController, hasLogout: sloUrl != nil,
            encryptedUserMetadata: encryptedAttributes)
    }
}
