import EntitleCore
import Foundation
import Hummingbird

/// The demo MVPD's authorization API, a Policy Decision Point in every form the service speaks: Entitle's JSON contract
/// (`POST {mvpd}/authorize`), XACML 2.0 (`POST {mvpd}/xacml`), XACML over SOAP (`POST {mvpd}/xacml/soap`) and the REST
/// form (`GET {mvpd}/rest/authz`, several resources: preflight). Every request is counted in
/// ``DemoMVPDState/authorizationRequests``.
struct DemoXACMLDecisionPoint: Sendable {
    /// What the demo MVPD's roles share.
    let state: DemoMVPDState
    /// The OAuth 2.0 provider whose access tokens also open the API (a call on the user's behalf).
    let oauth2: DemoOAuth2Provider

    /// Registers the authorization endpoints under `group`.
    func addRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.post(":mvpd/authorize") { request, context in
            self.state.authorizationRequests.increment()
            return await self.authorize(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.post(":mvpd/xacml") { request, context in
            self.state.authorizationRequests.increment()
            return await self.authorizeXACML(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.post(":mvpd/xacml/soap") { request, context in
            self.state.authorizationRequests.increment()
            return await self.authorizeSOAP(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.get(":mvpd/rest/authz") { request, context in
            self.state.authorizationRequests.increment()
            return await self.authorizeREST(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
    }
}
