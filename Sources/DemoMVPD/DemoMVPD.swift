import Foundation
import Logging
import SAML

/// The built-in demo MVPD: a SAML 2.0 identity provider (login page, browser sessions, Single Logout) for the
/// demo providers, and an authorization API. It talks to the Entitle service only over HTTP.
package struct DemoMVPD: Sendable {
    /// The demo providers: DemoCable, DemoFiber, DemoSSO (SAML 2.0) and DemoStream (OAuth 2.0).
    package static let providers: [DemoProvider] = [.demoCable, .demoFiber, .demoSSO, .demoStream]

    /// The configuration the IdP runs with.
    package let configuration: DemoMVPDConfiguration
    let logger: Logger
    let tokens: TokenSigner
    let pages: DemoPages
    /// The AuthnRequests already taken by the HTTP-POST binding (replays are refused).
    let usedPOSTRequests = UsedRequestIDs()
    /// The path part of `baseURL` (`/demo-mvpd`), used as the cookie path prefix.
    let basePath: String
    /// Authorization requests received (every protocol), for tests that count the service's MVPD calls.
    package let authorizationRequests = DemoCounter()
    /// The trusted SPs' certificates as last read from their sources.
    package let serviceProviderCertificates = ServiceProviderCertificates()

    /// Creates the demo MVPD; routes are added with ``addRoutes(to:)``.
    package init(configuration: DemoMVPDConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.tokens = TokenSigner(identity: configuration.identity)
        self.pages = DemoPages()
        var path = URLComponents(string: configuration.baseURL)?.path ?? ""
        while path.hasSuffix("/") { path.removeLast() }
        self.basePath = path
    }

    /// The demo provider with this id, or nil.
    package static func provider(id: String) -> DemoProvider? {
        providers.first { $0.id == id }
    }

    /// The IdP metadata of a demo provider: entity ID `"\(baseURL)/\(id)"`, SSO `…/saml/sso` for both the
    /// HTTP-Redirect and the HTTP-POST binding, SLO `…/saml/slo` (DemoFiber only); nil for an unknown id or an
    /// OAuth 2.0 provider.
    package func metadata(for providerID: String) -> IdentityProviderMetadata? {
        guard let provider = Self.provider(id: providerID), !provider.signsInWithOAuth2 else { return nil }
        let base = configuration.baseURL
        return IdentityProviderMetadata(
            entityID: provider.entityID(baseURL: base),
            singleSignOnRedirectURL: provider.singleSignOnURL(baseURL: base),
            singleLogoutRedirectURL: provider.singleLogoutURL(baseURL: base),
            signingCertificates: [configuration.identity.certificate],
            singleSignOnPostURL: provider.singleSignOnURL(baseURL: base))
    }

    /// The SAML attributes asserted for `subscriber` at `provider`: the subscriber's, plus the channel lineup where the
    /// provider sends one (``DemoMVPDConfiguration/lineupProviders``).
    func assertedAttributes(of subscriber: DemoSubscriber, provider: DemoProvider) -> [String: [String]] {
        var attributes = subscriber.samlAttributes
        if configuration.lineupProviders.contains(provider.id) { attributes[configuration.lineupAttribute] = subscriber.channels }
        return attributes
    }

    /// The trusted service provider with this entity ID, or nil.
    func serviceProvider(entityID: String) -> TrustedServiceProvider? {
        guard var provider = configuration.trustedServiceProviders.first(where: { $0.entityID == entityID }) else { return nil }
        if let read = serviceProviderCertificates.certificates(entityID: entityID) { provider.certificates = read }
        return provider
    }

    /// Reads the trusted SPs' certificates again where they are older than the bound, or (`force`: a request did not
    /// verify) at once.
    func followServiceProviders(force: Bool = false) async {
        await serviceProviderCertificates.refresh(
            configuration.trustedServiceProviders, now: configuration.now(), bound: configuration.serviceProviderRefresh, force: force,
            logger: logger)
    }

    /// Runs `accept` with the SPs' certificates followed; when the request's signature does not verify, reads them again
    /// at once and retries (the SP may have promoted its successor key since the last read).
    func withServiceProviderCertificates<T>(_ accept: () throws(DemoRequestError) -> T) async throws(DemoRequestError) -> T {
        await followServiceProviders()
        do {
            return try accept()
        } catch  where error.badSignature && configuration.trustedServiceProviders.contains(where: { $0.certificateSource != nil }) {
            await followServiceProviders(force: true)
            return try accept()
        }
    }

    /// The name of the session cookie of a provider (one cookie per MVPD).
    func sessionCookieName(_ provider: DemoProvider) -> String { "demo_mvpd_session_\(provider.id)" }

    /// The path session cookies of a provider are scoped to.
    func cookiePath(_ provider: DemoProvider) -> String { "\(basePath)/\(provider.id)" }

    /// The name of the CSRF cookie.
    static let csrfCookieName = "demo_mvpd_csrf"
}
