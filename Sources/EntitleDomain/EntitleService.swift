import AsyncHTTPClient
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import Logging

/// The composition of one service instance: its infrastructure (settings, storage, keys, tokens, clock, HTTP client,
/// metrics, caches), the domain services built on it and the operations types of the administration API (used by
/// `entitle admin`, the admin API, the console and the demo seeding: ``requestors``, ``mvpds``, …), each given exactly
/// what it uses. The controllers that ``buildRouter(templates:extraRoutes:)`` mounts receive these parts, never the whole service.
package struct EntitleService: Sendable {
    /// Settings.
    package let configuration: ServiceConfiguration
    /// Persistent state.
    package let repository: Repository
    /// Signing keys.
    package let keys: ServiceKeys
    /// JWT issuer.
    package let tokens: TokenIssuer
    /// Time.
    package let clock: any ServiceClock
    /// HTTP client for MVPD authorization APIs.
    package let httpClient: HTTPClient
    /// Metrics.
    package let metrics: ServiceMetrics
    /// Logger for background work.
    package let logger: Logger
    /// In-memory rate-limit buckets and MVPD authorization answers of this instance.
    package let caches: ServiceCaches

    package let tempPass: TempPassService
    package let degradation: DegradationService
    package let mediaTokens: MediaTokenService
    package let sessions: AuthenticationSessions
    package let profiles: WireProfiles
    package let decisions: DecisionService
    package let callers: CallerAuthenticator
    package let assertions: AssertionConsumer
    package let partnerSSO: PartnerSingleSignOn
    /// Single sign-on by platform identity (Fire TV, Roku) and service token.
    package let singleSignOn: TokenSingleSignOn
    package let oauth2: OAuth2SignIn
    /// Signing a device out, for every protocol.
    package let logout: Logout
    /// The stores the HTTP edge uses, as protocols.
    package let stores: EdgeStores
    /// The requestor part of `GET /configuration`.
    package let configurations: RequestorConfigurations
    /// Operator accounts and sessions of the admin API.
    package let operators: OperatorAccounts

    /// The changes log's writer.
    package let changes: ChangeRecorder
    /// Requestors.
    package let requestors: RequestorOperations
    /// SAML and TempPass MVPDs, changes to any MVPD, metadata refresh.
    package let mvpds: MVPDOperations
    /// OAuth 2.0 MVPDs.
    package let oauth2MVPDs: OAuth2MVPDOperations
    /// Requestor × MVPD integrations and their preflight.
    package let integrations: IntegrationOperations
    /// Key rotation, key views, legacy key pairs.
    package let keyOperations: KeyOperations
    /// Software statements and registered clients.
    package let applications: ApplicationOperations
    /// Degradation rules and TempPass resets.
    package let support: SupportOperations
    /// Report figures.
    package let reports: ReportOperations
    /// Flushing every instance's caches.
    package let cacheFlush: CacheOperations
    /// Recorded changes to operator accounts.
    package let operatorChanges: OperatorOperations
    /// SSO issuers (platform identity and service token).
    package let ssoIssuers: SSOOperations

    /// Creates the service.
    package init(
        configuration: ServiceConfiguration, repository: Repository, clock: any ServiceClock = SystemClock(),
        httpClient: HTTPClient = .shared, metrics: ServiceMetrics = ServiceMetrics(), logger: Logger
    ) {
        self.configuration = configuration
        self.repository = repository
        self.clock = clock
        stores = EdgeStores(repository: repository)
        configurations = RequestorConfigurations(catalog: repository.catalogStore)
        let keys = ServiceKeys(store: repository.keyStore, clock: clock)
        self.keys = keys
        let tokens = TokenIssuer(keys: keys, clock: clock, accessTokenLifetime: configuration.accessTokenLifetime)
        self.tokens = tokens
        self.httpClient = httpClient
        self.metrics = metrics
        self.logger = logger
        let caches = ServiceCaches()
        self.caches = caches
        tempPass = TempPassService(
            passes: repository.tempPassStore, profiles: repository.profileStore, catalog: repository.catalogStore, metrics: metrics, clock: clock)
        degradation = DegradationService(
            rules: repository.degradationStore, profiles: repository.profileStore, catalog: repository.catalogStore, metrics: metrics, clock: clock)
        mediaTokens = MediaTokenService(catalog: repository.catalogStore, keys: keys, ttl: configuration.mediaTokenTTL)
        sessions = AuthenticationSessions(
            sessionStore: repository.sessionStore, rateLimits: repository.rateLimitStore, profiles: repository.profileStore,
            catalog: repository.catalogStore, purgeExpired: { try await repository.purgeExpired(now: $0) }, tempPass: tempPass,
            degradation: degradation,
            clock: clock,
            sessionLifetime: configuration.sessionLifetime)
        profiles = WireProfiles(catalog: repository.catalogStore, tempPass: tempPass, clock: clock)
        logout = Logout(
            catalog: repository.catalogStore, profiles: repository.profileStore, legacy: repository.legacyStore, sessions: repository.sessionStore,
            authorizations: caches.authorizations, logoutRequestLifetime: configuration.sessionLifetime, clock: clock)
        let cipher = TokenCipher(keyStore: repository.keyStore, keys: keys)
        let oauth2 = OAuth2SignIn(
            oauth2: repository.oauth2Store, sessions: repository.sessionStore, catalog: repository.catalogStore,
            mvpdOptions: repository.mvpdOptionsStore,
            profiles: repository.profileStore, configuration: configuration,
            client: OAuth2Client(httpClient: httpClient, timeoutSeconds: configuration.mvpdTimeoutSeconds),
            cipher: cipher, authorizations: caches.authorizations, logout: logout, metrics: metrics, clock: clock)
        self.oauth2 = oauth2
        decisions = DecisionService(
            catalog: repository.catalogStore, mvpdOptions: repository.mvpdOptionsStore, tempPasses: repository.tempPassStore,
            profileStore: repository.profileStore, authorizations: caches.authorizations,
            mvpdClient: MVPDAuthorizationClient(
                httpClient: httpClient, timeoutSeconds: configuration.mvpdTimeoutSeconds,
                queryIssuer: XACMLQueryIssuer(
                    entityID: configuration.spEntityID, signer: { try await keys.signingIdentity(purpose: .samlSP) }, clock: clock)),
            degradation: degradation, mediaTokens: mediaTokens, oauth2: oauth2, metrics: metrics, clock: clock,
            defaultAuthorizationTTL: configuration.mvpdAuthorizationTTL, decisionLifetime: configuration.decisionLifetime)
        callers = CallerAuthenticator(tokens: tokens, catalog: repository.catalogStore, clients: repository.clientStore, caches: caches)
        assertions = AssertionConsumer(
            sessions: repository.sessionStore, catalog: repository.catalogStore, mvpdOptions: repository.mvpdOptionsStore,
            profiles: repository.profileStore,
            configuration: configuration, authorizations: caches.authorizations,
            metrics: metrics, clock: clock, logger: logger)
        operators = OperatorAccounts(store: repository.operatorStore, clock: clock, passwordLogRounds: configuration.operatorPasswordLogRounds)
        partnerSSO = PartnerSingleSignOn(
            catalog: repository.catalogStore, profileStore: repository.profileStore, sessions: repository.sessionStore, configuration: configuration,
            assertions: assertions, profiles: profiles,
            clock: clock)
        let jwks = JWKSKeyCache(httpClient: httpClient)
        singleSignOn = TokenSingleSignOn(
            store: repository.sso, catalog: repository.catalogStore, profiles: repository.profileStore, jwks: jwks, clock: clock,
            sessionLifetime: configuration.sessionLifetime)

        let changes = ChangeRecorder(changeLog: repository.changeLogStore, clock: clock, logger: logger)
        self.changes = changes
        let lookups = AdminCatalog(
            catalog: repository.catalogStore, mvpdOptions: repository.mvpdOptionsStore, onboarding: repository.catalogAdminStore,
            oauth2: repository.oauth2Store)
        requestors = RequestorOperations(
            catalog: repository.catalogStore, onboarding: repository.catalogAdminStore, lookups: lookups, changes: changes, clock: clock)
        let oauth2MVPDs = OAuth2MVPDOperations(
            catalog: repository.catalogStore, mvpdOptions: repository.mvpdOptionsStore, oauth2Store: repository.oauth2Store, cipher: cipher,
            lookups: lookups,
            changes: changes, httpClient: httpClient, configuration: configuration)
        self.oauth2MVPDs = oauth2MVPDs
        mvpds = MVPDOperations(
            catalog: repository.catalogStore, mvpdOptions: repository.mvpdOptionsStore, onboarding: repository.catalogAdminStore,
            oauth2Store: repository.oauth2Store,
            lookups: lookups, oauth2: oauth2MVPDs, changes: changes, httpClient: httpClient, clock: clock, logger: logger)
        integrations = IntegrationOperations(
            catalog: repository.catalogStore, mvpdOptions: repository.mvpdOptionsStore, onboarding: repository.catalogAdminStore, lookups: lookups,
            changes: changes)
        keyOperations = KeyOperations(
            keys: keys, keyStore: repository.keyStore, clients: repository.clientStore, oauth2: repository.oauth2Store,
            legacy: repository.legacyStore,
            catalog: repository.catalogStore, cipher: cipher, changes: changes, clock: clock, logger: logger)
        applications = ApplicationOperations(
            catalog: repository.catalogStore, clients: repository.clientStore, tokens: tokens, lookups: lookups, changes: changes, clock: clock)
        support = SupportOperations(
            tempPass: tempPass, degradation: degradation, degradationRules: repository.degradationStore, lookups: lookups, changes: changes)
        reports = ReportOperations(metrics: metrics, reports: repository.reportStore)
        operatorChanges = OperatorOperations(accounts: operators, changes: changes)
        cacheFlush = CacheOperations(repository: repository, changes: changes)
        ssoIssuers = SSOOperations(store: repository.sso, lookups: lookups, changes: changes, jwks: jwks, clock: clock)
    }

    /// The current time in ms.
    package var now: Int64 { clock.nowMilliseconds() }

    /// Prepares the database: schema and signing keys.
    package func prepare() async throws {
        let now = self.now
        try await repository.migrate(logger: logger, now: now)
        try await keys.ensureKeys()
        try await repository.purgeExpired(now: now)
    }
}
