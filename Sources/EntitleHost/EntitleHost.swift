import EntitleCore
import DemoMVPD
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import SAML
import ServiceLifecycle

/// The composition root: opens storage, prepares keys, seeds the demo world, mounts the DemoMVPD and builds the HTTP application.
/// `entitle serve` and the end-to-end tests run exactly this.
package struct EntitleHost: Sendable {
    /// Settings used.
    package let configuration: HostConfiguration
    /// The service.
    package let service: EntitleService
    /// The storage engine.
    package let engine: DatabaseEngine
    /// Whether the state is in PostgreSQL (else SQLite in the data directory).
    package var usesPostgreSQL: Bool { engine.kind == .postgres }
    /// The DemoMVPD, when the demo is on.
    package let demo: DemoMVPD?
    /// What the demo seeding produced.
    package let demoInfo: DemoWorldInfo?
    /// The PostgreSQL `LISTEN` connection feeding the in-memory profiles, when there is one.
    package var profileListener: ProfileChangeListener?
    /// The pages' and the console's templates, read from the resources once, before storage is opened.
    package let templates: PageTemplates

    /// Reads the pages' templates (a missing or broken one fails the start with a ``TemplateLoadingError`` that names
    /// it), opens storage, migrates, ensures keys and (when enabled) seeds the demo world.
    package static func prepare(
        configuration: HostConfiguration, logger: Logger,
        clock: any ServiceClock = SystemClock()
    ) async throws -> EntitleHost {
        let templates = try PageTemplates.bundled()
        let databaseURL = try configuration.databaseURL ?? configuration.databaseURLSource?.resolve()
        if configuration.databaseURL == nil, let source = configuration.databaseURLSource, let mode = source.fileReadableByOthers() {
            logger.warning(
                "the database URL file is readable by other users; make it owner-only (chmod 600)",
                metadata: ["file": "\(source.file ?? "")", "mode": "\(String(mode, radix: 8))"])
        }
        let engine = try await DatabaseEngine.open(databaseURL: databaseURL, dataDirectory: configuration.dataDirectory, logger: logger)
        var serviceConfiguration = ServiceConfiguration(publicBaseURL: configuration.baseURL)
        serviceConfiguration.operatorPasswordLogRounds = configuration.operatorPasswordLogRounds
        serviceConfiguration.rateLimitPerSecond = configuration.rateLimitPerSecond
        serviceConfiguration.rateLimitBurst = configuration.rateLimitBurst
        serviceConfiguration.trustedProxies = configuration.trustedProxies
        serviceConfiguration.operatorRoutesOnServicePort = configuration.adminPort == nil && configuration.operationsOnServicePort
        let profileCache = ProfileCache(
            feed: engine.kind == .postgres ? .notified : .polled, bound: configuration.profileCacheBound,
            capacity: configuration.profileCacheDevices)
        var repository = Repository(sql: engine.sql, catalogRefresh: configuration.catalogRefresh, profileCache: profileCache)
        repository.reportRetention = configuration.reportRetentionDays.map { Int64($0) * 86_400_000 }
        let service = EntitleService(configuration: serviceConfiguration, repository: repository, clock: clock, logger: logger)
        var listener: ProfileChangeListener?
        do {
            try await service.prepare()
            logger.info("media tokens signed with RSA by", metadata: ["implementation": "\(RSASigning.implementationName)"])
            if profileCache.isEnabled, let postgres = engine.postgresConfiguration {
                listener = ProfileChangeListener(cache: profileCache, configuration: postgres, logger: logger)
                listener?.start()
            }
            guard configuration.demo else {
                return EntitleHost(
                    configuration: configuration, service: service, engine: engine, demo: nil, demoInfo: nil, profileListener: listener,
                    templates: templates)
            }
            let demoBaseURL = serviceConfiguration.publicBaseURL + "/demo-mvpd"
            let secrets = try await DemoWorld.demoMVPDSecrets(service: service, dataDirectory: configuration.dataDirectory, now: clock.now())
            let spIdentity = try await service.keys.signingIdentity(purpose: KeyPurpose.samlSP)
            // The DemoMVPD follows the certificates our SP metadata publishes (signing key and, during a rotation, its
            // successor), re-read within its refresh bound and at once when a request does not verify.
            let keys = service.keys
            let trusted = TrustedServiceProvider(
                entityID: serviceConfiguration.spEntityID,
                assertionConsumerServiceURL: serviceConfiguration.assertionConsumerServiceURL,
                singleLogoutURL: serviceConfiguration.singleLogoutURL,
                certificates: [spIdentity.certificate],
                certificateSource: { try await keys.samlSPCertificates() })
            var demoConfiguration = DemoMVPDConfiguration(
                baseURL: demoBaseURL, identity: secrets.identity,
                trustedServiceProviders: [trusted],
                authorizationAPIKey: secrets.apiKey,
                clock: clock)
            demoConfiguration.lineupProviders = configuration.demoLineupProviders
            let demo = DemoMVPD(configuration: demoConfiguration, logger: logger)
            let info = try await DemoWorld.seed(
                service: service, demo: demo, demoBaseURL: demoBaseURL, dataDirectory: configuration.dataDirectory,
                proxy: configuration.demoProxy)
            return EntitleHost(
                configuration: configuration, service: service, engine: engine, demo: demo, demoInfo: info, profileListener: listener,
                templates: templates)
        } catch {
            await listener?.stop()
            try? await engine.close()
            throw error
        }
    }

    /// The router: the service's routes plus the DemoMVPD under `/demo-mvpd`.
    package func buildRouter() -> EntitleRouter<AppContext> {
        service.buildRouter(templates: templates) { router in
            if let demo {
                demo.addRoutes(to: router.group("demo-mvpd"))
            }
            router.get("/logos/TempPass.svg") { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "max-age=86400"],
                    body: .init(byteBuffer: ByteBuffer(string: TempPassLogo.svg)))
            }
            router.get("/logos/TempPassPromo.svg") { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "max-age=86400"],
                    body: .init(byteBuffer: ByteBuffer(string: TempPassLogo.promoSVG)))
            }
        }
    }

    /// The HTTP application (Hummingbird), with graceful shutdown on SIGINT/SIGTERM when run with `runService()`.
    /// With an operations address (`adminPort`), a second server for `/metrics` and the admin API runs beside it;
    /// `onOperationsRunning` receives its port.
    package func makeApplication(
        onServerRunning: @escaping @Sendable (Int?) async -> Void = { _ in },
        onOperationsRunning: @escaping @Sendable (Int?) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let limits = configuration.connectionLimits.exempting(configuration.trustedProxies)
        var services: [any Service] = [ReportFlusher(service: service, interval: configuration.reportFlushInterval)]
        if service.repository.catalogCache.refreshInterval > .zero {
            services.append(CatalogVersionPoller(repository: service.repository, logger: service.logger))
        }
        if let interval = configuration.metadataRefreshInterval {
            services.append(MetadataRefresher(service: service, interval: interval, check: configuration.metadataRefreshCheck))
        }
        if let adminPort = configuration.adminPort {
            services.append(
                Application(
                    router: service.buildOperationsRouter(templates: templates),
                    configuration: .init(address: .hostname(configuration.adminHost ?? "127.0.0.1", port: adminPort), serverName: "Entitle"),
                    onServerRunning: { channel in await onOperationsRunning(channel.localAddress?.port) },
                    logger: service.logger))
        }
        return Application(
            router: buildRouter(),
            server: HTTPServerBuilder { responder in GuardedHTTP1Channel(responder: responder, limits: limits) },
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "Entitle",
                availableConnectionsDelegate: MaximumAvailableConnections(limits.maxConnections)),
            services: services,
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port) },
            logger: service.logger)
    }

    /// Closes storage.
    package func shutdown() async {
        await profileListener?.stop()
        try? await engine.close()
    }
}

/// The TempPass logo, served by the service (no external assets).
enum TempPassLogo {
    static let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="160" height="48" viewBox="0 0 160 48" role="img" aria-label="Try it free">\
        <rect width="160" height="48" rx="8" fill="#2f855a"/><text x="80" y="30" font-family="sans-serif" font-size="18" \
        fill="#fff" text-anchor="middle">Try it free</text></svg>
        """
    /// The Promotional TempPass logo ("Free preview"), distinct from the plain TempPass one.
    static let promoSVG = """
        <svg xmlns="http://www.w3.org/2000/svg" width="160" height="48" viewBox="0 0 160 48" role="img" aria-label="Free preview">\
        <rect width="160" height="48" rx="8" fill="#b45309"/><circle cx="22" cy="24" r="11" fill="none" stroke="#fff" stroke-width="3"/>\
        <path d="M18 18 L29 24 L18 30 Z" fill="#fff"/><text x="94" y="30" font-family="sans-serif" font-size="17" \
        fill="#fff" text-anchor="middle">Free preview</text></svg>
        """
}
