import EntitleCore
import Foundation
import Logging
import SAML

/// What the demo MVPD's protocol roles share: its configuration (clock, signing identity, trusted service providers,
/// API key), its logger, the HMAC tokens of its browser sessions and forms, its pages, the service providers'
/// certificates as last read, and the count of authorization requests. The subscribers are ``DemoSubscriber/all``.
/// Every role (``DemoSAMLIdentityProvider``, ``DemoXACMLDecisionPoint``, ``DemoOAuth2Provider``, ``DemoPlatformSSO``)
/// receives the same value; its reference-typed parts are shared by every copy.
struct DemoMVPDState: Sendable {
    /// The configuration the IdP runs with.
    let configuration: DemoMVPDConfiguration
    /// Where every role logs (fixed messages, data in metadata).
    let logger: Logger
    /// Session cookies, login forms' CSRF tokens and OAuth 2.0 codes and tokens.
    let tokens: TokenSigner
    /// The HTML pages.
    let pages: DemoPages
    /// The path part of `baseURL` (`/demo-mvpd`), used as the cookie path prefix.
    let basePath: String
    /// Authorization requests received (every protocol), for tests that count the service's MVPD calls.
    let authorizationRequests = DemoCounter()
    /// The trusted SPs' certificates as last read from their sources.
    let serviceProviderCertificates = ServiceProviderCertificates()

    /// Creates the shared state of a demo MVPD.
    init(configuration: DemoMVPDConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.tokens = TokenSigner(identity: configuration.identity)
        self.pages = DemoPages()
        var path = URLComponents(string: configuration.baseURL)?.path ?? ""
        while path.hasSuffix("/") { path.removeLast() }
        self.basePath = path
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
}
