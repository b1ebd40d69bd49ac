import EntitleCore
import Foundation
import Hummingbird

/// The demo MVPD as a SAML 2.0 identity provider: AuthnRequests by the HTTP-Redirect and HTTP-POST bindings, the
/// login page, browser sessions (one HMAC-signed cookie per provider), the account page and Single Logout.
struct DemoSAMLIdentityProvider: Sendable {
    /// What the demo MVPD's roles share.
    let state: DemoMVPDState
    /// The AuthnRequests already taken by the HTTP-POST binding (replays are refused).
    let usedPOSTRequests = UsedRequestIDs()

    /// The name of the CSRF cookie.
    static let csrfCookieName = "demo_mvpd_csrf"

    /// Registers `GET|POST {mvpd}/saml/sso`, `POST {mvpd}/saml/login`, `GET {mvpd}/saml/slo`, `GET {mvpd}/login`,
    /// `GET {mvpd}/account` and `POST {mvpd}/logout` under `group`.
    func addRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.get(":mvpd/saml/sso") { request, context in
            await self.singleSignOn(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.post(":mvpd/saml/sso") { request, context in
            await self.singleSignOnPost(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.post(":mvpd/saml/login") { request, context in
            await self.login(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.get(":mvpd/saml/slo") { request, context in
            await self.singleLogout(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.get(":mvpd/login") { request, context in
            self.accountLoginPage(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.get(":mvpd/account") { request, context in
            self.account(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.post(":mvpd/logout") { request, context in
            self.accountLogout(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
    }

    /// The name of the session cookie of a provider (one cookie per MVPD).
    func sessionCookieName(_ provider: DemoProvider) -> String { "demo_mvpd_session_\(provider.id)" }

    /// The path session cookies of a provider are scoped to: under the endpoints that sign it in (a proxied MVPD's
    /// are its proxy's).
    func cookiePath(_ provider: DemoProvider) -> String { "\(state.basePath)/\(provider.endpointID)" }
}
