import EntitleCore
import Foundation
import Hummingbird
import SAML

/// The platform single sign-on answer of a demo MVPD that takes part in Apple SSO (Demo SSO TV).
///
/// On Apple platforms the system's TV-provider account relays the service's SAML AuthnRequest to the MVPD and hands
/// the signed answer back to the app (`VSAccountMetadata.samlAttributeQueryResponse`). The portable simulation of that
/// system account in the SDK calls this endpoint with the account's stored credentials:
/// `POST {mvpd}/platform/sso` with form fields `verificationToken` (Base64 AuthnRequest XML), `username`, `password`;
/// answer `{"samlAttributeQueryResponse": "<Base64 SAML Response>"}`.
struct DemoPlatformSSO: Sendable {
    /// What the demo MVPD's roles share.
    let state: DemoMVPDState

    /// Registers `POST {mvpd}/platform/sso` under `group`.
    func addRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.post(":mvpd/platform/sso") { request, context in
            await self.platformSingleSignOn(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
    }

    /// The answer: the signed SAML Response, Base64.
    struct PlatformSSOAnswer: Codable {
        var samlAttributeQueryResponse: String
    }

    /// A refusal.
    struct PlatformSSOError: Codable {
        var error: String
        var message: String
    }

    /// `POST {mvpd}/platform/sso`: checks the AuthnRequest and the system account's credentials, answers the signed assertion.
    func platformSingleSignOn(request: Request, providerID: String) async -> Response {
        guard let provider = DemoMVPD.provider(id: providerID), provider.platformSSO else {
            return state.jsonResponse(
                PlatformSSOError(error: "unsupported_provider", message: "\(providerID) does not take part in platform single sign-on."),
                status: .notFound)
        }
        guard let form = await state.formFields(request) else {
            return state.jsonResponse(PlatformSSOError(error: "invalid_request", message: "The form is too large."), status: .contentTooLarge)
        }
        guard let token = form["verificationToken"], let xmlData = Data(base64Encoded: token),
            let request = try? AuthnRequest.parse(xml: String(decoding: xmlData, as: UTF8.self))
        else {
            return state.jsonResponse(
                PlatformSSOError(error: "invalid_request", message: "verificationToken must be a Base64 SAML AuthnRequest."),
                status: .badRequest)
        }
        let now = state.configuration.now()
        guard let serviceProvider = state.serviceProvider(entityID: request.issuer),
            request.assertionConsumerServiceURL.isEmpty || request.assertionConsumerServiceURL == serviceProvider.assertionConsumerServiceURL,
            request.destination == provider.singleSignOnURL(baseURL: state.configuration.baseURL),
            abs(request.issueInstant.timeIntervalSince(now)) <= state.configuration.requestMaxAge
        else {
            return state.jsonResponse(
                PlatformSSOError(
                    error: "invalid_request", message: "The AuthnRequest is not from a trusted service, not for this provider, or stale."),
                status: .badRequest)
        }
        guard
            let subscriber = DemoSubscriber.authenticate(
                username: form["username"] ?? "", password: form["password"] ?? "",
                providerID: provider.id)
        else {
            return state.jsonResponse(
                PlatformSSOError(error: "access_denied", message: "The system account is not signed in to \(provider.displayName)."),
                status: .unauthorized)
        }
        var builder = SAMLResponseBuilder(issuer: provider.entityID(baseURL: state.configuration.baseURL), signer: state.configuration.identity)
        builder.nameIDFormat = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent"
        do {
            let response = try builder.success(
                inResponseTo: request.id, destination: serviceProvider.assertionConsumerServiceURL, audience: serviceProvider.entityID,
                nameID: subscriber.userID, sessionIndex: AuthnRequest.newID(),
                attributes: state.assertedAttributes(of: subscriber, provider: provider),
                now: now,
                sessionNotOnOrAfter: now.addingTimeInterval(state.configuration.sessionLifetime))
            state.logger.info("demo MVPD platform sign-on", metadata: ["mvpd": "\(provider.id)", "userID": "\(subscriber.userID.logEscaped)"])
            return state.jsonResponse(PlatformSSOAnswer(samlAttributeQueryResponse: response))
        } catch {
            return state.jsonResponse(
                PlatformSSOError(error: "server_error", message: "The SAML response could not be built."), status: .internalServerError)
        }
    }
}
