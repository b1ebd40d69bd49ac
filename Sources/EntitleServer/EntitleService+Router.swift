import Hummingbird

extension EntitleService {
    /// The service's router: every REST v2, DCR, SAML and operations route, with error, metrics and rate-limit middleware.
    /// `extraRoutes` lets the host mount more routes (for example the DemoMVPD) on the same server.
    public func buildRouter(extraRoutes: (Router<AppContext>) -> Void = { _ in }) -> Router<AppContext> {
        let router = Router(context: AppContext.self)
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: RequestLogMiddleware(logger: logger))
        let routeTable = RouteTable()
        router.add(middleware: ErrorMiddleware<AppContext>(routes: routeTable))
        router.add(middleware: RateLimitMiddleware(service: self))
        addOperationsRoutes(to: router)
        addDCRRoutes(to: router)
        addConfigurationRoutes(to: router)
        addSessionRoutes(to: router)
        addSessionCancelRoutes(to: router)
        addAuthenticateRoutes(to: router)
        addProfileRoutes(to: router)
        addDecisionRoutes(to: router)
        addLogoutRoutes(to: router)
        addPartnerSSORoutes(to: router)
        addActivationRoutes(to: router)
        addLegacyV1Routes(to: router)
        extraRoutes(router)
        addLandingRoutes(to: router, demo: router.routes.contains { $0.path.description.hasPrefix("/demo-mvpd") })
        routeTable.load(router.routes.map { $0.path.description })
        return router
    }
}
