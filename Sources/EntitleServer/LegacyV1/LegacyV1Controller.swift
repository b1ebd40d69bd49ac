import Hummingbird

/// REST API v1 ("clientless", protocol notes §3) on the same state as REST v2: registration codes (reggie), the browser
/// leg, AuthN/AuthZ/media tokens, preauthorize, logout, user metadata, platform SSO and TempPass. Its app identity check,
/// v1 envelope and documents are also what ``AdobeServicesController`` answers with.
struct LegacyV1Controller: ClockReading {
    let repository: Repository
    let configuration: ServiceConfiguration
    let tokens: TokenIssuer
    let sessions: AuthenticationSessions
    let tempPass: TempPassService
    let decisions: DecisionService
    let mediaTokens: MediaTokenService
    let profiles: ProfileAnswers
    let partnerSSO: PartnerSingleSignOn
    let clock: any ServiceClock

    /// Adds the routes to the throttled `/api/v1` and `/reggie/v1` groups.
    func addRoutes(api: RouterGroup<AppContext>, reggie: RouterGroup<AppContext>) {
        addAuthenticationRoutes(api: api, reggie: reggie)
        addAuthorizationRoutes(to: api)
        addPlatformSSORoutes(to: api)
    }
}
