import EntitleDomain
import EntitleModel
import Hummingbird

extension EntitleService {
    /// The service's router. Global middleware: metrics, one request log line, errors as the protocol's error bodies.
    /// Route groups: `/api/v2/{sp}` (throttled, the caller authenticated once by ``CallerMiddleware``), `/o/client`,
    /// `/api/v1`, `/reggie/v1` and `/adobe-services` (throttled); pages, SAML legs and operations (neither). Each
    /// controller receives only the parts it uses. `extraRoutes` lets the host mount more routes (for example the
    /// DemoMVPD) on the same server. `templates` are the pages' templates, loaded when the service starts.
    package func buildRouter(templates: PageTemplates, extraRoutes: (Router<AppContext>) -> Void = { _ in }) -> EntitleRouter<AppContext> {
        let pages = Pages(templates)
        let router = Router(context: AppContext.self)
        let hot = HotRouteRecorder(router: router)
        router.add(middleware: ClientAddressMiddleware(trusted: configuration.trustedProxies))
        router.add(middleware: ForwardedDeviceMiddleware())
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: RequestLogMiddleware(logger: logger))
        // Browser apps: CORS on DCR and REST v2 for the requestors' registered origins (errors included).
        router.add(middleware: CORSMiddleware(origins: makeWebOrigins()))
        let routeTable = RouteTable()
        router.add(middleware: ErrorMiddleware<AppContext>(routes: routeTable))
        router.add(middleware: NULRefusalMiddleware(pages: pages))
        let throttle = ThrottleMiddleware(
            limiter: caches.rateLimiter, ratePerSecond: configuration.rateLimitPerSecond,
            burst: configuration.rateLimitBurst, clock: clock)

        PublicDocumentsController(keys: keys, configuration: configuration).addRoutes(to: router)
        if configuration.operatorRoutesOnServicePort { addOperatorRoutes(to: router, templates: templates) }
        let readiness = ReadinessCheck(databaseAnswers: stores.databaseAnswers, keys: keys)
        router.get("/readyz") { _, _ in await readiness.response() }
        DCRController(clients: stores.clients, tokens: tokens, clock: clock)
            .addRoutes(to: router.group("/o/client").add(middleware: throttle))

        // REST v2's calls, the ones a player makes on every play, are answered before the router's trie.
        let api = hot.group("/api/v2/:sp").addMiddleware {
            throttle
            CallerMiddleware(authenticator: callers)
            ServerToServerMiddleware(authenticator: callers)
        }.group(context: CallerContext.self)
        ConfigurationController(configurations: configurations).addRoutes(to: api)
        SessionsController(sessions: sessions, sessionStore: stores.sessions, singleSignOn: singleSignOn, catalog: stores.catalog).addRoutes(to: api)
        let profileChecks = ProfileChecks(profiles: stores.profiles, clock: clock)
        ProfilesController(
            profileStore: stores.profiles, catalog: stores.catalog, sessions: sessions, profiles: profiles, profileChecks: profileChecks,
            singleSignOn: singleSignOn
        ).addRoutes(to: api)
        DecisionsController(catalog: stores.catalog, decisions: decisions, profileChecks: profileChecks, singleSignOn: singleSignOn)
            .addRoutes(to: api)
        LogoutController(catalog: stores.catalog, logout: logout, sessions: sessions, configuration: configuration, singleSignOn: singleSignOn)
            .addRoutes(to: api)
        PartnerSSOController(partnerSSO: partnerSSO, sessions: sessions).addRoutes(to: api)

        let signedIn = SignedInResponder(sessions: stores.sessions, catalog: stores.catalog, configuration: configuration, pages: pages)
        AuthenticateController(
            sessionStore: stores.sessions, catalog: stores.catalog, configuration: configuration, sessions: sessions, signedIn: signedIn,
            clock: clock
        )
        .addRoutes(to: router.group("/api/v2/authenticate").add(middleware: throttle))
        SAMLServiceProviderController(
            logout: logout, sessionStore: stores.sessions, catalog: stores.catalog, mvpdOptions: stores.mvpdOptions, legacy: stores.legacy,
            profiles: stores.profiles, clients: stores.clients, configuration: configuration, keys: keys, sessions: sessions,
            tempPass: tempPass,
            degradation: degradation, assertions: assertions, oauth2: oauth2, signedIn: signedIn, clock: clock
        )
        .addRoutes(to: router)
        OAuth2Controller(oauth2: oauth2, sessions: stores.sessions, catalog: stores.catalog, signedIn: signedIn).addRoutes(to: router)
        ActivationController(
            catalog: stores.catalog, sessionStore: stores.sessions, sessions: sessions, configuration: configuration, pages: pages,
            clock: clock
        ).addRoutes(
            to: router)

        // REST v1 and adobe-services: the envelope reads the parameters and renders failures once per call, the
        // caller middleware establishes the app identity; the two protocols share LegacyProtocolService.
        let legacyCallers = LegacyCallerAuthenticator(
            catalog: stores.catalog, clients: stores.clients, legacy: stores.legacy, tokens: tokens, clock: clock)
        let legacyShared = LegacyProtocolService(
            catalog: stores.catalog, legacy: stores.legacy, decisions: decisions, profiles: profiles, checks: profileChecks, clock: clock)
        // adobe-services calls that carry a token may prove their caller with it when they send no app credential.
        let tokenCredentials = AdobeTokenCredentials(
            catalog: stores.catalog, clients: stores.clients, legacy: stores.legacy, profileStore: stores.profiles, keys: keys, clock: clock)
        func legacyGroup(
            _ path: RouterPath, format: V1Format?, throttled: Bool, needsDevice: Bool, byToken: Bool = false
        ) -> RouterGroup<LegacyContext> {
            let group = router.group(path)
            if throttled { group.add(middleware: throttle) }
            return group.add(middleware: LegacyEnvelopeMiddleware(format: format))
                .add(
                    middleware: LegacyCallerMiddleware(
                        authenticator: legacyCallers, needsDevice: needsDevice, tokenCredentials: byToken ? tokenCredentials : nil)
                )
                .group(context: LegacyContext.self)
        }
        LegacyV1Controller(
            logout: logout, sessionStore: stores.sessions, catalog: stores.catalog, clients: stores.clients, legacy: stores.legacy,
            profileStore: stores.profiles, configuration: configuration, sessions: sessions, tempPass: tempPass,
            decisions: decisions, mediaTokens: mediaTokens, partnerSSO: partnerSSO, shared: legacyShared, clock: clock, pages: pages
        ).addRoutes(
            api: .init(
                device: legacyGroup("/api/v1", format: nil, throttled: true, needsDevice: true),
                app: legacyGroup("/api/v1", format: nil, throttled: true, needsDevice: false)),
            reggie: .init(
                device: legacyGroup("/reggie/v1", format: nil, throttled: true, needsDevice: true),
                app: legacyGroup("/reggie/v1", format: nil, throttled: true, needsDevice: false)),
            browser: router.group("/api/v1").add(middleware: throttle))
        AdobeServicesController(
            shared: legacyShared, catalog: stores.catalog, sessionStore: stores.sessions, profileStore: stores.profiles,
            legacy: stores.legacy, keys: keys, sessions: sessions, mediaTokens: mediaTokens,
            profiles: profiles, clock: clock
        ).addRoutes(
            to: router,
            groups: .init(
                config: router.group().add(middleware: throttle).add(middleware: LegacyEnvelopeMiddleware(format: .xml))
                    .group(context: V1Context.self),
                // Throttled before the caller is established: a flood of forged tokens costs no RSA check or lookup.
                app: legacyGroup("/adobe-services", format: .xml, throttled: true, needsDevice: false, byToken: true),
                appJSON: legacyGroup("/adobe-services", format: .json, throttled: true, needsDevice: false, byToken: true),
                device: legacyGroup("/adobe-services", format: .xml, throttled: true, needsDevice: true)))

        // Adobe's Proxy MVPD Web Service (issue 40): proxies push their proxied MVPDs.
        ProxyMVPDController(proxies: proxyMVPDs).addRoutes(to: router.group().add(middleware: throttle))

        extraRoutes(router)
        LandingController(
            publicBaseURL: configuration.publicBaseURL,
            demo: router.routes.contains { $0.path.description.hasPrefix("/demo-mvpd") }, pages: pages
        ).addRoutes(to: router)
        routeTable.load(router.routes.map { (path: $0.path.description, method: $0.method.rawValue) })
        return EntitleRouter(router: router, hot: hot)
    }

    /// The router of the operations address (`serve --admin-port`): `/metrics`, the admin API, `/healthz` and `/readyz`.
    package func buildOperationsRouter(templates: PageTemplates) -> Router<AppContext> {
        let router = Router(context: AppContext.self)
        router.add(middleware: ClientAddressMiddleware(trusted: configuration.trustedProxies))
        router.add(middleware: RequestLogMiddleware(logger: logger))
        let routeTable = RouteTable()
        router.add(middleware: ErrorMiddleware<AppContext>(routes: routeTable))
        router.get("/healthz") { _, _ in ["status": "ok"] as [String: String] }
        let readiness = ReadinessCheck(databaseAnswers: stores.databaseAnswers, keys: keys)
        router.get("/readyz") { _, _ in await readiness.response() }
        addOperatorRoutes(to: router, templates: templates)
        routeTable.load(router.routes.map { (path: $0.path.description, method: $0.method.rawValue) })
        return router
    }

    /// What only operators use: `/metrics`, the admin API (`/admin/api`) and the console (`/console`), on the
    /// service's address or on the operations address when one is given.
    package func addOperatorRoutes(to router: Router<AppContext>, templates: PageTemplates) {
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.render())))
        }
        let errors = AdminErrorMiddleware<AppContext>()
        let adminAPI = router.group("/admin/api").add(middleware: errors).add(middleware: AdminAuthMiddleware(accounts: operators))
            .group(context: AdminContext.self)
        AdminAPIController(service: self, accounts: operators).addRoutes(
            open: router.group("/admin/api").add(middleware: errors), authenticated: adminAPI)
        AdminCatalogRoutes(
            requestors: requestors, mvpds: mvpds, oauth2MVPDs: oauth2MVPDs, integrations: integrations, proxyMVPDs: proxyMVPDs,
            catalogAsCode: catalogAsCode
        ).addRoutes(to: adminAPI)
        AdminKeyRoutes(keyOperations: keyOperations, clock: clock).addRoutes(to: adminAPI)
        let consolePages = ConsolePages(templates)
        let console = router.group("/console")
        let signIn = ConsoleSignInController(accounts: operators, pages: consolePages, publicBaseURL: configuration.publicBaseURL)
        let signedIn = router.group("/console").add(middleware: ConsoleAuthMiddleware(accounts: operators, pages: consolePages, signIn: signIn))
            .group(context: AdminContext.self)
        signIn.addRoutes(open: console, authenticated: signedIn)
        ConsoleController(service: self, accounts: operators, pages: consolePages).addRoutes(open: console, authenticated: signedIn)
        ConsoleMVPDRoutes(mvpds: mvpds, oauth2MVPDs: oauth2MVPDs, integrations: integrations, pages: consolePages).addRoutes(to: signedIn)
    }
}
