import EntitleCore
import Foundation
import SAML  // re-exports X509 (Certificate)

/// Everything the demo MVPD needs to run: where it is mounted, its SAML signing identity, the service providers
/// it serves and the key that protects its authorization API.
package struct DemoMVPDConfiguration: Sendable {
    /// External URL of the mount point, e.g. `http://127.0.0.1:8080/demo-mvpd` (no trailing slash).
    package var baseURL: String
    /// The IdP signing key and certificate (the caller persists it).
    package var identity: SigningIdentity
    /// Service providers allowed to ask for logins and logouts.
    package var trustedServiceProviders: [TrustedServiceProvider]
    /// Bearer key the service must send to `POST /{mvpd}/authorize`.
    package var authorizationAPIKey: String
    /// How long an IdP browser session (and the assertion's `SessionNotOnOrAfter`) lasts.
    package var sessionLifetime: TimeInterval
    /// How long a login page may be left open before its form expires.
    package var loginFormLifetime: TimeInterval
    /// The oldest (and most future) `IssueInstant` accepted on an AuthnRequest or LogoutRequest.
    package var requestMaxAge: TimeInterval
    /// Whether cookies get the `Secure` attribute (set it when `baseURL` is https).
    package var secureCookies: Bool
    /// Whether the login page lists the demo accounts of the MVPD (handy for demos).
    package var showDemoAccounts: Bool
    /// The clock; every time decision reads it.
    package var clock: any EntitleClock
    /// Demo providers whose SOAP XACML endpoint refuses unsigned queries (DemoFiber: an MVPD that requires signing).
    package var signedXACMLQueriesRequired: Set<String> = ["DemoFiber"]
    /// Demo providers whose assertions carry the subscriber's channel lineup in ``lineupAttribute`` (one
    /// `AttributeValue` per channel: preflight by lineup, notes §3 way 2). DemoSSO by default, as the demo world seeds it.
    package var lineupProviders: Set<String> = ["DemoSSO"]
    /// The SAML attribute of the lineup.
    package var lineupAttribute = "authorized_resources"
    /// How long the certificates read from a service provider's ``TrustedServiceProvider/certificateSource`` are used
    /// before they are read again, seconds (on ``clock``).
    package var serviceProviderRefresh: TimeInterval = 60

    /// Creates a configuration; `clock` defaults to the system clock and `secureCookies` to whether `baseURL` is https.
    package init(
        baseURL: String,
        identity: SigningIdentity,
        trustedServiceProviders: [TrustedServiceProvider],
        authorizationAPIKey: String,
        sessionLifetime: TimeInterval = 8 * 3600,
        loginFormLifetime: TimeInterval = 30 * 60,
        requestMaxAge: TimeInterval = 10 * 60,
        secureCookies: Bool? = nil,
        showDemoAccounts: Bool = true,
        clock: any EntitleClock = SystemClock()
    ) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.identity = identity
        self.trustedServiceProviders = trustedServiceProviders
        self.authorizationAPIKey = authorizationAPIKey
        self.sessionLifetime = sessionLifetime
        self.loginFormLifetime = loginFormLifetime
        self.requestMaxAge = requestMaxAge
        self.secureCookies = secureCookies ?? base.lowercased().hasPrefix("https://")
        self.showDemoAccounts = showDemoAccounts
        self.clock = clock
    }
}

/// A SAML service provider the demo MVPD accepts AuthnRequests and LogoutRequests from.
package struct TrustedServiceProvider: Sendable {
    /// The SP's entity ID (the `<Issuer>` of its requests and the assertion's audience).
    package var entityID: String
    /// The only URL responses are posted to; a request naming another ACS URL is refused.
    package var assertionConsumerServiceURL: String
    /// Where LogoutResponses are redirected to; nil when the SP does not do Single Logout.
    package var singleLogoutURL: String?
    /// Certificates that verify the SP's signed redirect requests; empty means unsigned requests are accepted.
    package var certificates: [Certificate]
    /// Where the SP's current signing certificates are read from (what its metadata publishes: the signing key and, during
    /// a rotation, its successor); when set, they replace ``certificates`` once read, and are read again within
    /// ``DemoMVPDConfiguration/serviceProviderRefresh``.
    package var certificateSource: (@Sendable () async throws -> [Certificate])?

    /// Creates a trusted service provider.
    package init(
        entityID: String, assertionConsumerServiceURL: String, singleLogoutURL: String? = nil,
        certificates: [Certificate] = [], certificateSource: (@Sendable () async throws -> [Certificate])? = nil
    ) {
        self.entityID = entityID
        self.assertionConsumerServiceURL = assertionConsumerServiceURL
        self.singleLogoutURL = singleLogoutURL
        self.certificates = certificates
        self.certificateSource = certificateSource
    }
}

extension DemoMVPDConfiguration {
    /// The time on ``clock``.
    package func now() -> Date { clock.now() }
}
