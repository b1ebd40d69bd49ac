import EntitleCore
import Foundation
import Hummingbird
import SAML

/// The demo MVPD as a proxy MVPD (Adobe's proxy SAML integration): Demo Proxy's SSO endpoints sign the viewer in with
/// the proxied MVPD the AuthnRequest's `samlp:Scoping/IDPList/IDPEntry ProviderID` names (that MVPD's login page,
/// subscribers and session) and answer in its name — Issuer and NameQualifier the proxied MVPD's entity id, signed with
/// the proxy's key. Its Single Logout ends the session of the proxied MVPD the LogoutRequest's NameQualifier names.
extension DemoSAMLIdentityProvider {
    /// The MVPD a sign-in at `endpoint`'s SSO endpoints is for: `endpoint` itself, or — at a proxy — the proxied MVPD the
    /// request's Scoping names. Only the Scoping is read here; the request is then checked in full as that MVPD's
    /// (``acceptAuthnRequest(query:rawQuery:viaPOST:provider:checkSignature:checkFreshness:now:)``).
    func signInProvider(at endpoint: DemoProvider, samlRequest: String?, viaPOST: Bool) throws(DemoRequestError) -> DemoProvider {
        guard endpoint.isProxy else { return endpoint }
        guard let samlRequest, !samlRequest.isEmpty else {
            throw DemoRequestError(
                status: .badRequest, heading: "Missing sign-in request",
                message: "This page needs a SAML AuthnRequest (the SAMLRequest parameter).")
        }
        let request =
            viaPOST
            ? try? AuthnRequest.fromPOST(samlRequest: samlRequest, verifyWith: [])
            : try? AuthnRequest.fromRedirect(query: ["SAMLRequest": samlRequest], verifyWith: [])
        guard let request else {
            throw DemoRequestError(
                status: .badRequest, heading: "Unreadable sign-in request", message: "The sign-in request could not be read.")
        }
        guard let named = request.scoping?.providerID,
            let proxied = DemoMVPD.proxiedProvider(entityID: named, of: endpoint, baseURL: state.configuration.baseURL)
        else {
            state.logger.notice(
                "demo proxy refused AuthnRequest without a known proxied MVPD",
                metadata: ["proxy": "\(endpoint.id)", "named": "\((request.scoping?.providerID ?? "-").logEscaped)"])
            let names = DemoMVPD.proxiedProviders.filter { $0.proxiedBy == endpoint.id }.map(\.displayName).joined(separator: " and ")
            throw DemoRequestError(
                status: .badRequest, heading: "No TV provider chosen",
                message: "\(endpoint.displayName) signs in the subscribers of \(names); the sign-in request must name one of them.")
        }
        return proxied
    }

    /// The proxied MVPDs of `proxy` whose sessions a LogoutRequest ends: the one its NameQualifier names, else those
    /// whose session in this browser is the NameID's.
    func proxiedSessionsEnding(_ logoutRequest: LogoutRequest, proxy: DemoProvider, request: Request, now: Date) -> [DemoProvider] {
        let proxied = DemoMVPD.proxiedProviders.filter { $0.proxiedBy == proxy.id }
        if let qualifier = logoutRequest.nameQualifier {
            return proxied.filter { $0.entityID(baseURL: state.configuration.baseURL) == qualifier }
        }
        return proxied.filter { currentSession(request, provider: $0, now: now)?.0.userID == logoutRequest.nameID }
    }
}
