import Hummingbird

/// REST API v1 ("clientless", protocol notes §3) on the same state as REST v2: registration codes (reggie), the browser
/// leg, AuthN/AuthZ/media tokens, preauthorize, logout, user metadata, platform SSO and TempPass. Its handlers run on
/// route groups whose ``LegacyEnvelopeMiddleware`` reads the parameters and renders every failure, and whose
/// ``LegacyCallerMiddleware`` establishes the caller (``LegacyContext``); what it shares with adobe-services is in
/// ``LegacyProtocolService``.
struct LegacyV1Controller: ClockReading {
    /// Authentication sessions.
    let sessionStore: SessionStore
    /// Catalog reads.
    let catalog: CatalogStore
    /// Registered clients.
    let clients: ClientStore
    /// Legacy (v1, adobe-services) records.
    let legacy: LegacyStore
    /// Profiles.
    let profileStore: ProfileStore
    let configuration: ServiceConfiguration
    let sessions: AuthenticationSessions
    let tempPass: TempPassService
    let decisions: DecisionService
    let mediaTokens: MediaTokenService
    let partnerSSO: PartnerSingleSignOn
    let shared: LegacyProtocolService
    let clock: any ServiceClock

    /// The route groups of one path prefix (`/api/v1` or `/reggie/v1`).
    struct Groups {
        /// Calls that name their device (`deviceId`).
        let device: RouterGroup<LegacyContext>
        /// Calls of an app that need no device (registration code reads, the MVPD list).
        let app: RouterGroup<LegacyContext>
    }

    /// Adds the routes to the throttled `/api/v1` and `/reggie/v1` groups; `browser` is `/api/v1` for the browser leg,
    /// which answers HTML pages.
    func addRoutes(api: Groups, reggie: Groups, browser: RouterGroup<AppContext>) {
        addAuthenticationRoutes(api: api, reggie: reggie, browser: browser)
        addAuthorizationRoutes(api: api)
        addPlatformSSORoutes(to: api.device)
    }

    /// An empty answer (`204 No Content`, or `200` for the check endpoints).
    func v1Empty(_ status: HTTPResponse.Status = .noContent) -> Response {
        Response(status: status, headers: [.cacheControl: "no-store"])
    }
}
