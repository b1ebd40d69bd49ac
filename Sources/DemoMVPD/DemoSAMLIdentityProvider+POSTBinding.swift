import EntitleCore
import Foundation
import Hummingbird
import SAML

extension DemoSAMLIdentityProvider {
    /// `POST {mvpd}/saml/sso`: the HTTP-POST binding. The form's `SAMLRequest` (Base64 XML) is checked as the
    /// redirect binding's is: a trusted SP, its enveloped signature verified with the SP's certificates (followed as the
    /// redirect binding follows them), this IdP as
    /// destination, the SP's ACS URL, recent; and an ID posted before is a replay. Then the same answer as
    /// `GET {mvpd}/saml/sso`: the assertion for a browser with a session, else the login page.
    func singleSignOnPost(request: Request, providerID: String) async -> Response {
        guard let endpoint = DemoMVPD.provider(id: providerID), endpoint.proxiedBy == nil else { return state.notFoundPage() }
        guard let form = await state.formFields(request, limit: SAMLResponseValidator.maxBase64Length + 64 * 1024) else {
            return state.errorPage(
                endpoint, status: .contentTooLarge, heading: "Request too large",
                message: "The sign-in request is larger than allowed.")
        }
        let now = state.configuration.now()
        let provider: DemoProvider
        let accepted: AcceptedAuthnRequest
        do {
            provider = try signInProvider(at: endpoint, samlRequest: form["SAMLRequest"], viaPOST: true)
        } catch {
            return state.errorPage(endpoint, status: error.status, heading: error.heading, message: error.message)
        }
        do {
            accepted = try await state.withServiceProviderCertificates { () throws(DemoRequestError) in
                try acceptAuthnRequest(query: form, viaPOST: true, provider: provider, checkSignature: true, checkFreshness: true, now: now)
            }
        } catch {
            return state.errorPage(provider, status: error.status, heading: error.heading, message: error.message)
        }
        guard usedPOSTRequests.use(accepted.request.id, now: now, maxAge: state.configuration.requestMaxAge) else {
            state.logger.notice(
                "demo MVPD refused replayed AuthnRequest",
                metadata: ["mvpd": "\(provider.id)", "sp": "\(accepted.serviceProvider.entityID.logEscaped)"])
            return state.errorPage(
                provider, status: .badRequest, heading: "Sign-in request already used",
                message: "This sign-in request was already received. Go back to the app or website and start again.")
        }
        return answer(accepted, request: request, provider: provider, now: now)
    }
}
