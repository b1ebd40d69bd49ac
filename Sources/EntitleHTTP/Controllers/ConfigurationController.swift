import EntitleCore
import EntitleDomain
import EntitleModel
import EntitleStorage
import Hummingbird

/// `GET /api/v2/{serviceProvider}/configuration`.
package struct ConfigurationController {
    /// The requestor's MVPDs, and the cache of the requestor part of the answer.
    package let catalog: CatalogStore

    /// Adds the route to the authenticated `/api/v2/{sp}` group (the caller is in the context).
    package func addRoutes(to group: RouterGroup<CallerContext>) {
        group.get("configuration") { _, context in
            let caller = context.caller
            let requestor = caller.requestor
            // The requestor part (its MVPDs) is encoded once per catalog change; the device part on each call.
            let requestorJSON = try await catalog.cached(catalog.catalogCache.configurationJSON, requestor.id) {
                let mvpds = try await catalog.mvpds(requestor: requestor.id)
                return String(
                    decoding: JSONCoding.encode(
                        RequestorConfiguration(
                            id: requestor.id, name: requestor.name, domains: requestor.domains.map { .init(name: $0) },
                            mvpds: mvpds.map(\.configuration))), as: UTF8.self)
            }
            let info = caller.deviceInfo
            // Byte for byte what JSONCoding.encode(ConfigurationResponse) writes (sorted keys).
            let body =
                "{\"clientType\":" + FastJSON.string(info?.osName.map { _ in "native" } ?? "unknown")
                + ",\"device\":" + FastJSON.string(info?.primaryHardwareType ?? "unknown")
                + ",\"os\":" + FastJSON.string(info?.osName ?? "Unknown")
                + ",\"requestor\":" + requestorJSON + "}"
            return Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: body)))
        }
    }

    /// Creates the value from each of its stored properties.
    package init(catalog: CatalogStore) {
        self.catalog = catalog
    }
}

extension MVPDRecord {
    /// The wire form of this MVPD.
    package var configuration: MVPDConfiguration {
        MVPDConfiguration(
            id: id, displayName: displayName, logoUrl: logoUrl, authPerAggregator: isTempPass, isTempPass: isTempPass,
            enablePlatformServices: enablePlatformServices, boardingStatus: boardingStatus,
            platformMappingId: platformMappingId, displayInPlatformPicker: displayInPlatformPicker,
            requiresSafariViewController: requiresSafariViewController, hasLogout: sloUrl != nil,
            encryptedUserMetadata: encryptedAttributes)
    }
}
