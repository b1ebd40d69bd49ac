import EntitleModel
import EntitleStorage
import Foundation

/// Settings of the Entitle service.
package struct ServiceConfiguration: Sendable {
    /// The externally visible base URL, such as `http://127.0.0.1:8080` (no trailing slash).
    package var publicBaseURL: String
    /// Whether the console, the admin API and `/metrics` are served on the service's own port: only when there is no
    /// operations address (``EntitleService/buildOperationsRouter(templates:)``) and the service is local or told to.
    package var operatorRoutesOnServicePort = true
    /// log2 of scrypt's N for new operator password hashes; lowered only by test harnesses (64 MiB per hash at 16).
    package var operatorPasswordLogRounds = OperatorPassword.logRounds
    /// Per-device token bucket: requests per second (0 disables throttling).
    package var rateLimitPerSecond: Double = 1
    /// Per-device token bucket: burst size.
    package var rateLimitBurst: Double = 10
    /// Socket peers (load balancers, TLS-terminating proxies) whose `Forwarded` / `X-Forwarded-For` /
    /// `X-Forwarded-Proto` name the client; from any other peer those headers are ignored.
    package var trustedProxies: [IPAddressRange] = []
    /// Short media token lifetime, ms (7 minutes).
    package var mediaTokenTTL: Int64 = 7 * 60_000
    /// Authentication session (registration code) lifetime, ms (30 minutes).
    package var sessionLifetime: Int64 = 30 * 60_000
    /// Access token lifetime, seconds (6 hours).
    package var accessTokenLifetime: Int64 = 21_600
    /// Authorization decision lifetime, ms (24 hours, capped by the profile).
    package var decisionLifetime: Int64 = 24 * 3_600_000
    /// How long an MVPD's authorization answer is kept when no TTL is configured for the integration, seconds
    /// (`entitle admin mvpd authz-ttl`; 0 asks the MVPD on every decision).
    package var mvpdAuthorizationTTL: Int64 = 600
    /// Timeout of calls to MVPD authorization APIs, seconds.
    package var mvpdTimeoutSeconds: Int64 = 5
    /// Allowed clock skew for SAML validity checks, seconds.
    package var samlClockSkew: TimeInterval = 120
    /// Whether to sign AuthnRequests.
    package var signAuthnRequests = true

    /// Creates a configuration.
    package init(publicBaseURL: String) {
        var base = publicBaseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.publicBaseURL = base
    }

    /// The SAML entity id of the service provider (its metadata URL).
    package var spEntityID: String { publicBaseURL + "/sp/saml/metadata" }
    /// The Assertion Consumer Service URL.
    package var assertionConsumerServiceURL: String { publicBaseURL + "/sp/saml/SAMLAssertionConsumer" }
    /// The Single Logout response URL.
    package var singleLogoutURL: String { publicBaseURL + "/sp/saml/LogoutServiceHTTPRedirectResponse" }
    /// The page a browser lands on after a login whose session has no redirect URL (second screen).
    package var authenticatedPageURL: String { publicBaseURL + "/authenticated" }
}
