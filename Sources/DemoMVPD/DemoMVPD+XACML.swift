import EntitleCore
import Foundation
import Hummingbird
import SAML

/// The DemoMVPD's Policy Decision Point in the forms real MVPDs use (Adobe's MVPD integration guide):
/// `POST {mvpd}/xacml` (XACML 2.0 request context) and `GET {mvpd}/rest/authz?uuID&mrss&IPAddress`, both answered
/// with an XACML 2.0 response; the same decisions as `POST {mvpd}/authorize`. Bearer-key protected like it.
extension DemoMVPD {
    /// `POST {mvpd}/xacml`.
    func authorizeXACML(request: Request, providerID: String) async -> Response {
        guard let provider = Self.provider(id: providerID) else { return xmlResponse("unknown MVPD", status: .notFound) }
        guard keyMatches(request, provider: provider) else {
            return xmlResponse("A valid Authorization: Bearer key is required.", status: .unauthorized)
        }
        var request = request
        guard let buffer = try? await request.collectBody(upTo: Self.maximumAuthorizeBodySize) else {
            return xmlResponse("The request body is too large.", status: .contentTooLarge)
        }
        let question: XACML.Question
        do throws(XACML.MalformedResponse) {
            question = try XACML.parseRequest(String(decoding: buffer.readableBytesView, as: UTF8.self))
        } catch {
            return xmlResponse(error.reason, status: .badRequest)
        }
        return decideAll(userID: question.subject, resources: question.resources, provider: provider)
    }

    /// `GET {mvpd}/rest/authz?uuID=…&mrss=…&IPAddress=…` (MRSS base64).
    func authorizeREST(request: Request, providerID: String) async -> Response {
        guard let provider = Self.provider(id: providerID) else { return xmlResponse("unknown MVPD", status: .notFound) }
        guard keyMatches(request, provider: provider) else {
            return xmlResponse("A valid Authorization: Bearer key is required.", status: .unauthorized)
        }
        let query = request.uri.queryParameters
        guard let user = query.get("uuID"), !user.isEmpty,
            let mrss = query.get("mrss").flatMap({ Data(base64Encoded: $0) }).map({ String(decoding: $0, as: UTF8.self) })
        else { return xmlResponse("uuID and a base64 mrss are required.", status: .badRequest) }
        return decideAll(userID: user, resources: [mrss], provider: provider)
    }

    /// The API key, or — for an OAuth 2.0 provider — a subscriber's access token (the call on the user's behalf).
    private func keyMatches(_ request: Request, provider: DemoProvider) -> Bool {
        if provider.signsInWithOAuth2, accessTokenSubscriber(request, provider: provider) != nil { return true }
        return !configuration.authorizationAPIKey.isEmpty
            && constantTimeEquals(request.headers[.authorization] ?? "", "Bearer \(configuration.authorizationAPIKey)")
    }

    private func decideAll(userID: String, resources: [String], provider: DemoProvider) -> Response {
        var results: [(resource: String, permit: Bool, obligation: String?, message: String?)] = []
        for raw in resources {
            guard let resource = try? ProtectedResource(parsing: raw), Self.isWellFormedIfMarkup(raw) else {
                return xmlResponse("A resource is not a channel id or MRSS.", status: .badRequest)
            }
            let decision = AuthorizationDecision.decide(userID: userID, resource: resource, provider: provider)
            let obligation: String? =
                decision.reason == AuthorizationDecision.reasonParentalControls
                ? XACML.restrictParentalControls
                : (decision.reason == AuthorizationDecision.reasonNotEntitled ? XACML.upgrade : nil)
            results.append((resource.channel, decision.authorized, obligation, decision.message))
        }
        var response = Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: XACML.response(results))))
        response.headers[.contentType] = "text/xml; charset=utf-8"
        return response
    }

    private func xmlResponse(_ message: String, status: HTTPResponse.Status) -> Response {
        var response = Response(status: status, body: .init(byteBuffer: ByteBuffer(string: message)))
        response.headers[.contentType] = "text/plain; charset=utf-8"
        return response
    }
}
