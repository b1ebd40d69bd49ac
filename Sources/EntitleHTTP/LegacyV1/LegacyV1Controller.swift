import EntitleDomain
import EntitleModel
import Hummingbird

/// REST API v1 ("clientless", protocol notes §3) on the same state as REST v2: registration codes (reggie), the browser
/// leg, AuthN/AuthZ/media tokens, preauthorize, logout, user metadata, platform SSO and TempPass. Its handlers run on
/// route groups whose ``LegacyEnvelopeMiddleware`` reads the parameters and renders every failure, and whose
/// ``LegacyCallerMiddleware`` establishes the caller (``LegacyContext``); what it shares with adobe-services is in
/// ``LegacyProtocolService``.
package struct LegacyV1Controller: ClockReading {
    /// Signing a device out (the same action as REST v2's logout).
    package let logout: Logout
    /// Authentication sessions.
    package let sessionStore: any SignInSessionStoring
    /// Catalog reads.
    package let catalog: any CatalogReading
    /// Registered clients.
    package let clients: any ClientStoring
    /// Legacy (v1, adobe-services) records.
    package let legacy: any LegacyStoring
    /// Profiles.
    package let profileStore: any ProfileStoring
    package let configuration: ServiceConfiguration
    package let sessions: AuthenticationSessions
    package let tempPass: TempPassService
    package let decisions: DecisionService
    package let mediaTokens: MediaTokenService
    package let partnerSSO: PartnerSingleSignOn
    package let shared: LegacyProtocolService
    package let clock: any ServiceClock
    /// The browser pages of `GET /api/v1/authenticate`.
    package let pages: Pages

    /// The route groups of one path prefix (`/api/v1` or `/reggie/v1`).
    package struct Groups {
        /// Calls that name their device (`deviceId`).
        package let device: RouterGroup<LegacyContext>
        /// Calls of an app that need no device (registration code reads, the MVPD list).
        package let app: RouterGroup<LegacyContext>

        /// Creates the value from each of its stored properties.
        package init(device: RouterGroup<LegacyContext>, app: RouterGroup<LegacyContext>) {
            self.device = device
            self.app = app
        }
    }

    /// Adds the routes to the throttled `/api/v1` and `/reggie/v1` groups; `browser` is `/api/v1` for the browser leg,
    /// which answers HTML pages.
    package func addRoutes(api: Groups, reggie: Groups, browser: RouterGroup<AppContext>) {
        addAuthenticationRoutes(api: api, reggie: reggie, browser: browser)
        addAuthorizationRoutes(api: api)
        addPlatformSSORoutes(to: api.device)
    }

    /// An empty answer (`204 No Content`, or `200` for the check endpoints).
    package func v1Empty(_ status: HTTPResponse.Status = .noContent) -> Response {
        Response(status: status, headers: [.cacheControl: "no-store"])
    }

    /// Creates the value from each of its stored properties.
    package init(
        logout: Logout,
        sessionStore: any SignInSessionStoring, catalog: any CatalogReading, clients: any ClientStoring, legacy: any LegacyStoring,
        profileStore: any ProfileStoring,
        configuration: ServiceConfiguration, sessions: AuthenticationSessions, tempPass: TempPassService, decisions: DecisionService,
        mediaTokens: MediaTokenService, partnerSSO: PartnerSingleSignOn, shared: LegacyProtocolService, clock: any ServiceClock,
        pages: Pages
    ) {
        self.logout = logout
        self.sessionStore = sessionStore
        self.catalog = catalog
        self.clients = clients
        self.legacy = legacy
        self.profileStore = profileStore
        self.configuration = configuration
        self.sessions = sessions
        self.tempPass = tempPass
        self.decisions = decisions
        self.mediaTokens = mediaTokens
        self.partnerSSO = partnerSSO
        self.shared = shared
        self.clock = clock
        self.pages = pages
    }
}
