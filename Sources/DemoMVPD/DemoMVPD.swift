import Foundation
import Logging
import SAML

/// The built-in demo MVPD: a SAML 2.0 identity provider (login page, browser sessions, Single Logout) for the demo
/// providers, an authorization API (Entitle's JSON, XACML 2.0, SOAP and the REST form), an OAuth 2.0 provider and a
/// platform single sign-on answer. It talks to the Entitle service only over HTTP.
///
/// It is the composition of one type per protocol it plays — ``DemoSAMLIdentityProvider``, ``DemoXACMLDecisionPoint``,
/// ``DemoOAuth2Provider``, ``DemoPlatformSSO`` — built on one ``DemoMVPDState``; ``addRoutes(to:)`` mounts them all.
package struct DemoMVPD: Sendable {
    /// The demo providers: DemoCable, DemoFiber, DemoSSO (SAML 2.0) and DemoStream (OAuth 2.0).
    package static let providers: [DemoProvider] = [.demoCable, .demoFiber, .demoSSO, .demoStream]
    /// The demo proxy MVPD, Demo Proxy.
    package static let proxies: [DemoProvider] = [.demoProxy]
    /// The MVPDs Demo Proxy signs in: Valley Cable and Hills Fiber (the list the demo world pushes for it).
    package static let proxiedProviders: [DemoProvider] = [.demoValley, .demoHills]
    /// Entitle's client id at the demo OAuth 2.0 providers.
    package static let oauth2ClientID = DemoOAuth2Provider.clientID

    /// The configuration the IdP runs with.
    package let configuration: DemoMVPDConfiguration
    /// Authorization requests received (every protocol), for tests that count the service's MVPD calls.
    package let authorizationRequests: DemoCounter
    /// The trusted SPs' certificates as last read from their sources.
    package let serviceProviderCertificates: ServiceProviderCertificates
    /// What the roles share.
    let state: DemoMVPDState
    /// SAML requests, login, sessions, Single Logout.
    let identityProvider: DemoSAMLIdentityProvider
    /// The authorization API.
    let decisionPoint: DemoXACMLDecisionPoint
    /// OAuth 2.0 / OpenID endpoints.
    let oauth2: DemoOAuth2Provider
    /// The platform single sign-on answer.
    let platformSSO: DemoPlatformSSO

    /// Creates the demo MVPD; routes are added with ``addRoutes(to:)``.
    package init(configuration: DemoMVPDConfiguration, logger: Logger) {
        let state = DemoMVPDState(configuration: configuration, logger: logger)
        self.state = state
        self.configuration = configuration
        self.authorizationRequests = state.authorizationRequests
        self.serviceProviderCertificates = state.serviceProviderCertificates
        self.identityProvider = DemoSAMLIdentityProvider(state: state)
        let oauth2 = DemoOAuth2Provider(state: state)
        self.oauth2 = oauth2
        self.decisionPoint = DemoXACMLDecisionPoint(state: state, oauth2: oauth2)
        self.platformSSO = DemoPlatformSSO(state: state)
    }

    /// The demo provider with this id, or nil.
    package static func provider(id: String) -> DemoProvider? {
        (providers + proxies + proxiedProviders).first { $0.id == id }
    }

    /// The proxied MVPD of `proxy` whose entity id (pushed as its ProviderID) is `entityID`, or nil.
    static func proxiedProvider(entityID: String, of proxy: DemoProvider, baseURL: String) -> DemoProvider? {
        proxiedProviders.first { $0.proxiedBy == proxy.id && $0.entityID(baseURL: baseURL) == entityID }
    }

    /// The MVPD that decides for `userID` at `provider`'s authorization endpoints: for a proxy, the proxied MVPD the
    /// subscriber belongs to (a proxy knows its users' MVPD; Adobe's query does not name it), else `provider` itself.
    static func deciding(_ provider: DemoProvider, userID: String) -> DemoProvider {
        guard provider.isProxy,
            let subscriber = DemoSubscriber.all.first(where: { $0.userID == userID && self.provider(id: $0.providerID)?.proxiedBy == provider.id }),
            let proxied = self.provider(id: subscriber.providerID)
        else { return provider }
        return proxied
    }

    /// The IdP metadata of a demo provider: entity ID `"\(baseURL)/\(id)"`, SSO `…/saml/sso` for both the
    /// HTTP-Redirect and the HTTP-POST binding, SLO `…/saml/slo` (DemoFiber and DemoProxy); nil for an unknown id, an
    /// OAuth 2.0 provider or a proxied MVPD (it has no IdP of its own: its proxy's metadata serves it).
    package func metadata(for providerID: String) -> IdentityProviderMetadata? {
        guard let provider = Self.provider(id: providerID), !provider.signsInWithOAuth2, provider.proxiedBy == nil else { return nil }
        let base = configuration.baseURL
        return IdentityProviderMetadata(
            entityID: provider.entityID(baseURL: base),
            singleSignOnRedirectURL: provider.singleSignOnURL(baseURL: base),
            singleLogoutRedirectURL: provider.singleLogoutURL(baseURL: base),
            signingCertificates: [configuration.identity.certificate],
            singleSignOnPostURL: provider.singleSignOnURL(baseURL: base))
    }
}
