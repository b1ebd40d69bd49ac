import EntitleCore
import Foundation
import Hummingbird
import SAML

/// The DemoMVPD's Policy Decision Point in the forms real MVPDs use (Adobe's MVPD integration guide):
/// `POST {mvpd}/xacml` (XACML 2.0 request context), `POST {mvpd}/xacml/soap` (the OLCA SOAP binding, answered by a
/// signed SAML Response) and `GET {mvpd}/rest/authz?uuID&mrss&IPAddress` (several `mrss`: the REST preflight form), all
/// answered with an XACML 2.0 response; the same decisions as `POST {mvpd}/authorize`. Bearer-key protected like it.
extension DemoXACMLDecisionPoint {
    /// An XACML request to one of the demo's MVPDs: accepted with the MVPD and the body's text, or refused (unknown MVPD,
    /// no valid bearer key, a body over the limit) with the XML answer to send.
    enum AuthorizationRequest {
        case accepted(DemoProvider, body: String)
        case refused(Response)
    }

    /// Checks the MVPD of the path and the bearer key, then reads the body.
    func authorizationRequest(_ request: Request, providerID: String) async -> AuthorizationRequest {
        guard let provider = DemoMVPD.provider(id: providerID) else { return .refused(xmlResponse("unknown MVPD", status: .notFound)) }
        guard keyMatches(request, provider: provider) else {
            return .refused(xmlResponse("A valid Authorization: Bearer key is required.", status: .unauthorized))
        }
        var request = request
        guard let buffer = try? await request.collectBody(upTo: Self.maximumAuthorizeBodySize) else {
            return .refused(xmlResponse("The request body is too large.", status: .contentTooLarge))
        }
        return .accepted(provider, body: String(decoding: buffer.readableBytesView, as: UTF8.self))
    }

    /// `POST {mvpd}/xacml`.
    func authorizeXACML(request: Request, providerID: String) async -> Response {
        let (provider, text): (DemoProvider, String)
        switch await authorizationRequest(request, providerID: providerID) {
        case .refused(let response): return response
        case .accepted(let accepted, let body): (provider, text) = (accepted, body)
        }
        let question: XACML.Question
        do throws(XACML.MalformedResponse) {
            question = try XACML.parseRequest(text)
        } catch {
            return xmlResponse(error.reason, status: .badRequest)
        }
        return decideAll(userID: question.subject, resources: question.resources, provider: provider)
    }

    /// `POST {mvpd}/xacml/soap`: a SOAP `XACMLAuthzDecisionQuery` from a trusted service provider. A signed query must
    /// verify with that SP's certificates; a provider listed in ``DemoMVPDConfiguration/signedXACMLQueriesRequired``
    /// refuses an unsigned one (HTTP 403). The answer is a SOAP envelope with a SAML Response signed by the IdP key.
    func authorizeSOAP(request: Request, providerID: String) async -> Response {
        let (provider, text): (DemoProvider, String)
        switch await authorizationRequest(request, providerID: providerID) {
        case .refused(let response): return response
        case .accepted(let accepted, let body): (provider, text) = (accepted, body)
        }
        let query: XACML.SOAPQuery
        let requireSignature = state.configuration.signedXACMLQueriesRequired.contains(provider.id)
        func parse() throws(XACML.MalformedResponse) -> XACML.SOAPQuery {
            try XACML.parseSOAPQuery(
                text, certificates: { issuer in self.state.serviceProvider(entityID: issuer)?.certificates ?? [] }, requireSignature: requireSignature
            )
        }
        await state.followServiceProviders()
        do throws(XACML.MalformedResponse) {
            do throws(XACML.MalformedResponse) {
                query = try parse()
            } catch  where error.reason.contains("does not verify") {
                // The SP may have promoted its successor key since its certificates were last read.
                await state.followServiceProviders(force: true)
                query = try parse()
            }
        } catch {
            let refused = error.reason.contains("sign")
            state.logger.warning("XACML query refused", metadata: ["mvpd": "\(provider.id)", "reason": "\(error.reason.logEscaped)"])
            return xmlResponse(error.reason, status: refused ? .forbidden : .badRequest)
        }
        guard let issuer = query.issuer, state.serviceProvider(entityID: issuer) != nil else {
            return xmlResponse("The query's Issuer is not a trusted service provider.", status: .forbidden)
        }
        guard case .success(let results) = decisions(userID: query.question.subject, resources: query.question.resources, provider: provider)
        else { return xmlResponse("A resource is not a channel id or MRSS.", status: .badRequest) }
        // A proxy answers in the name of the proxied MVPD whose subscriber is asked about (Adobe's proxy SAML integration).
        let answering = DemoMVPD.deciding(provider, userID: query.question.subject)
        do {
            let body = try XACML.soapResponse(
                response: XACML.response(results), issuer: answering.entityID(baseURL: state.configuration.baseURL), audience: issuer,
                inResponseTo: query.id, signer: state.configuration.identity, now: state.configuration.now())
            var response = Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: body)))
            response.headers[.contentType] = "text/xml; charset=utf-8"
            return response
        } catch {
            return xmlResponse("The answer could not be signed.", status: .internalServerError)
        }
    }

    /// `GET {mvpd}/rest/authz?uuID=…&mrss=…&IPAddress=…` (MRSS base64; several `mrss`: one Result each).
    func authorizeREST(request: Request, providerID: String) async -> Response {
        guard let provider = DemoMVPD.provider(id: providerID) else { return xmlResponse("unknown MVPD", status: .notFound) }
        guard keyMatches(request, provider: provider) else {
            return xmlResponse("A valid Authorization: Bearer key is required.", status: .unauthorized)
        }
        let query = request.uri.queryParameters
        let mrss = query.getAll("mrss").map { Data(base64Encoded: $0).map { String(decoding: $0, as: UTF8.self) } }
        guard let user = query.get("uuID"), !user.isEmpty, !mrss.isEmpty, mrss.count <= 100, !mrss.contains(nil) else {
            return xmlResponse("uuID and one to 100 base64 mrss are required.", status: .badRequest)
        }
        return decideAll(userID: user, resources: mrss.compactMap { $0 }, provider: provider)
    }

    /// The API key, or — for an OAuth 2.0 provider — a subscriber's access token (the call on the user's behalf).
    private func keyMatches(_ request: Request, provider: DemoProvider) -> Bool {
        if provider.signsInWithOAuth2, oauth2.accessTokenSubscriber(request, provider: provider) != nil { return true }
        return !state.configuration.authorizationAPIKey.isEmpty
            && constantTimeEquals(request.headers[.authorization] ?? "", "Bearer \(state.configuration.authorizationAPIKey)")
    }

    private func decideAll(userID: String, resources: [String], provider: DemoProvider) -> Response {
        guard case .success(let results) = decisions(userID: userID, resources: resources, provider: provider) else {
            return xmlResponse("A resource is not a channel id or MRSS.", status: .badRequest)
        }
        var response = Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: XACML.response(results))))
        response.headers[.contentType] = "text/xml; charset=utf-8"
        return response
    }

    /// One XACML result per resource; a failure when one is not a channel id or MRSS.
    private func decisions(
        userID: String, resources: [String], provider: DemoProvider
    ) -> Result<[(resource: String, permit: Bool, obligation: String?, message: String?)], BadResource> {
        let provider = DemoMVPD.deciding(provider, userID: userID)
        var results: [(resource: String, permit: Bool, obligation: String?, message: String?)] = []
        for raw in resources {
            guard let resource = try? ProtectedResource(parsing: raw), Self.isWellFormedIfMarkup(raw) else { return .failure(BadResource()) }
            let decision = AuthorizationDecision.decide(userID: userID, resource: resource, provider: provider)
            let obligation: String? =
                decision.reason == AuthorizationDecision.reasonParentalControls
                ? XACML.restrictParentalControls
                : (decision.reason == AuthorizationDecision.reasonNotEntitled ? XACML.upgrade : nil)
            results.append((resource.channel, decision.authorized, obligation, decision.message))
        }
        return .success(results)
    }

    /// A resource that is neither a channel id nor MRSS.
    struct BadResource: Error {}

    private func xmlResponse(_ message: String, status: HTTPResponse.Status) -> Response {
        var response = Response(status: status, body: .init(byteBuffer: ByteBuffer(string: message)))
        response.headers[.contentType] = "text/plain; charset=utf-8"
        return response
    }
}
