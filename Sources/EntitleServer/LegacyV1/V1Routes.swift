import Hummingbird

/// REST API v1 ("clientless", protocol notes §3) and the adobe-services protocol (§4) on the same state as REST v2: mounted by ``EntitleService/buildRouter(extraRoutes:)``.
extension EntitleService {
    func addLegacyV1Routes(to router: Router<AppContext>) {
        addV1AuthenticationRoutes(to: router)
        addV1AuthorizationRoutes(to: router)
        addV1PlatformSSORoutes(to: router)
        addAdobeServicesRoutes(to: router)
    }
}
