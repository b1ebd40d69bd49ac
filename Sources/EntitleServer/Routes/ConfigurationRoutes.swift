import EntitleCore
import Hummingbird

/// `GET /api/v2/{serviceProvider}/configuration`.
extension EntitleService {
    func addConfigurationRoutes(to router: Router<AppContext>) {
        router.get("/api/v2/:sp/configuration") { request, context in
            let caller = try await self.caller(request, serviceProvider: try context.parameters.require("sp"))
            let mvpds = try await self.repository.mvpds(requestor: caller.requestor.id)
            let info = caller.deviceInfo
            return JSONCoding.response(ConfigurationResponse(
                device: info?.primaryHardwareType ?? "unknown",
                clientType: info?.osName.map { _ in "native" } ?? "unknown",
                os: info?.osName ?? "Unknown",
                requestor: RequestorConfiguration(
                    id: caller.requestor.id, name: caller.requestor.name,
                    domains: caller.requestor.domainList.map { .init(name: $0) },
                    mvpds: mvpds.map(\.configuration))))
        }
    }
}

extension MVPDRecord {
    /// The wire form of this MVPD.
    var configuration: MVPDConfiguration {
        MVPDConfiguration(id: id, displayName: displayName, logoUrl: logoUrl, authPerAggregator: isTempPass, isTempPass: isTempPass,
                          enablePlatformServices: enablePlatformServices == 1, boardingStatus: boardingStatus,
                          platformMappingId: platformMappingId, displayInPlatformPicker: displayInPlatformPicker == 1,
                          requiresSafariViewController: requiresSvc == 1, hasLogout: sloUrl != nil,
                          encryptedUserMetadata: encryptedAttributeList)
    }
}
