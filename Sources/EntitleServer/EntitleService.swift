import AsyncHTTPClient
import EntitleCore
import Foundation
import Logging

/// The composition of one service instance: its infrastructure (settings, storage, keys, tokens, clock, HTTP client,
/// metrics, caches) and the domain services built on it, each given exactly what it uses. The controllers that
/// ``buildRouter(extraRoutes:)`` mounts receive these parts, never the whole service; the service itself keeps only the
/// administration API used by `entitle admin` and the demo seeding.
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

    let tempPass: TempPassService
    let degradation: DegradationService
    let mediaTokens: MediaTokenService
    let sessions: AuthenticationSessions
    let profiles: ProfileAnswers
    let decisions: DecisionService
    let callers: CallerAuthenticator
    let assertions: AssertionConsumer
    let partnerSSO: PartnerSingleSignOn
    let oauth2: OAuth2SignIn
    /// Operator accounts and sessions of the admin API.
    package let operators: OperatorAccounts

    /// Creates the service.
    package init(
        configuration: ServiceConfiguration, repository: Repository, clock: any ServiceClock = SystemClock(),
        httpClient: HTTPClient = .shared, metrics: ServiceMetrics = ServiceMetrics(), logger: Logger
    ) {
        self.configuration = configuration
        self.repository = repository
        self.clock = clock
        let keys = ServiceKeys(store: repository.keys, clock: clock)
        self.keys = keys
        let tokens = TokenIssuer(keys: keys, clock: clock, accessTokenLifetime: configuration.accessTokenLifetime)
        self.tokens = tokens
        self.httpClient = httpClient
        self.metrics = metrics
        self.logger = logger
        let caches = ServiceCaches()
        self.caches = caches
        tempPass = TempPassService(
            passes: repository.tempPasses, profiles: repository.profiles, catalog: repository.catalog, metrics: metrics, clock: clock)
        degradation = DegradationService(
            rules: repository.degradation, profiles: repository.profiles, catalog: repository.catalog, metrics: metrics, clock: clock)
        mediaTokens = MediaTokenService(catalog: repository.catalog, keys: keys, ttl: configuration.mediaTokenTTL)
        sessions = AuthenticationSessions(
            sessionStore: repository.sessions, rateLimits: repository.rateLimits, profiles: repository.profiles,
            catalog: repository.catalog, purgeExpired: { try await repository.purgeExpired(now: $0) }, tempPass: tempPass, degradation: degradation,
            clock: clock,
            sessionLifetime: configuration.sessionLifetime)
        profiles = ProfileAnswers(catalog: repository.catalog, tempPass: tempPass, clock: clock)
        let oauth2 = OAuth2SignIn(
            oauth2: repository.oauth2, sessions: repository.sessions, catalog: repository.catalog, mvpdOptions: repository.mvpdOptions,
            profiles: repository.profiles, configuration: configuration,
            client: OAuth2Client(httpClient: httpClient, timeoutSeconds: configuration.mvpdTimeoutSeconds),
            cipher: TokenCipher(keyStore: repository.keys, keys: keys), authorizations: caches.authorizations, metrics: metrics, clock: clock)
        self.oauth2 = oauth2
        decisions = DecisionService(
            catalog: repository.catalog, mvpdOptions: repository.mvpdOptions, tempPasses: repository.tempPasses,
            profileStore: repository.profiles, authorizations: caches.authorizations,
            mvpdClient: MVPDAuthorizationClient(
                httpClient: httpClient, timeoutSeconds: configuration.mvpdTimeoutSeconds,
                queryIssuer: XACMLQueryIssuer(
                    entityID: configuration.spEntityID, signer: { try await keys.signingIdentity(purpose: .samlSP) }, clock: clock)),
            degradation: degradation, mediaTokens: mediaTokens, oauth2: oauth2, metrics: metrics, clock: clock,
            defaultAuthorizationTTL: configuration.mvpdAuthorizationTTL, decisionLifetime: configuration.decisionLifetime)
        callers = CallerAuthenticator(tokens: tokens, catalog: repository.catalog, clients: repository.clients, caches: caches)
        assertions = AssertionConsumer(
            sessions: repository.sessions, catalog: repository.catalog, mvpdOptions: repository.mvpdOptions, profiles: repository.profiles,
            configuration: configuration, authorizations: caches.authorizations,
            metrics: metrics, clock: clock, logger: logger)
        operators = OperatorAccounts(store: repository.operators, clock: clock, passwordLogRounds: configuration.operatorPasswordLogRounds)
        partnerSSO = PartnerSingleSignOn(
            catalog: repository.catalog, profileStore: repository.profiles, sessions: repository.sessions, configuration: configuration,
            assertions: assertions, profiles: profiles,
            clock: clock)
    }

    /// The current time in ms.
    var now: Int64 { clock.nowMilliseconds() }
}
