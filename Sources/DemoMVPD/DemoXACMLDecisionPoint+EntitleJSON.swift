import EntitleCore
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Hummingbird

/// The JSON body of `POST {mvpd}/authorize`.
struct AuthorizeRequestBody: Decodable, Sendable {
    /// The subscriber's opaque user id (the `userID` attribute of the assertion).
    var userID: String
    /// The raw resource: a plain channel id or an MRSS fragment.
    var resource: String
}

/// The JSON body of an authorization API error.
struct AuthorizationAPIError: Encodable, Sendable {
    /// `invalid_request`, `invalid_resource`, `unauthorized`, `unknown_mvpd`.
    var error: String
    /// A human-readable explanation.
    var message: String
}

extension DemoXACMLDecisionPoint {
    /// The largest request body the authorization API reads.
    static let maximumAuthorizeBodySize = 64 * 1024

    /// `POST {mvpd}/authorize`: bearer-key protected; decides on `{"userID", "resource"}`.
    func authorize(request: Request, providerID: String) async -> Response {
        guard let provider = DemoMVPD.provider(id: providerID) else {
            return state.jsonResponse(
                AuthorizationAPIError(error: "unknown_mvpd", message: "There is no demo MVPD \"\(providerID)\"."),
                status: .notFound)
        }
        let presented = request.headers[.authorization] ?? ""
        guard !state.configuration.authorizationAPIKey.isEmpty,
            constantTimeEquals(presented, "Bearer \(state.configuration.authorizationAPIKey)")
        else {
            state.logger.notice(
                "demo MVPD authorization API refused a request without the right key",
                metadata: ["mvpd": "\(provider.id)"])
            return state.jsonResponse(
                AuthorizationAPIError(
                    error: "unauthorized",
                    message: "A valid Authorization: Bearer key is required."),
                status: .unauthorized, extraHeaders: [.wwwAuthenticate: "Bearer"])
        }
        var request = request
        guard let buffer = try? await request.collectBody(upTo: Self.maximumAuthorizeBodySize) else {
            return state.jsonResponse(
                AuthorizationAPIError(
                    error: "invalid_request",
                    message: "The request body is larger than \(Self.maximumAuthorizeBodySize) bytes."),
                status: .contentTooLarge)
        }
        let body: AuthorizeRequestBody
        do {
            body = try JSONDecoder().decode(AuthorizeRequestBody.self, from: Data(buffer.readableBytesView))
        } catch {
            return state.jsonResponse(
                AuthorizationAPIError(
                    error: "invalid_request",
                    message: "The body must be JSON {\"userID\": string, \"resource\": string}."),
                status: .badRequest)
        }
        let resource: ProtectedResource
        do throws(EnhancedError) {
            resource = try ProtectedResource(parsing: body.resource)
            guard Self.isWellFormedIfMarkup(body.resource) else {
                throw EnhancedError.invalidResources.with(details: "The MRSS resource is not well-formed XML.")
            }
        } catch {
            return state.jsonResponse(
                AuthorizationAPIError(
                    error: "invalid_resource",
                    message: error.details ?? "The resource is not a channel id or MRSS."),
                status: .badRequest)
        }
        let decision = AuthorizationDecision.decide(
            userID: body.userID, resource: resource, provider: DemoMVPD.deciding(provider, userID: body.userID))
        state.logger.info(
            "demo MVPD authorization decision",
            metadata: [
                "mvpd": "\(provider.id)", "userID": "\(body.userID.logEscaped)", "channel": "\(resource.channel.logEscaped)",
                "authorized": "\(decision.authorized)", "reason": "\((decision.reason ?? "-").logEscaped)",
            ])
        return state.jsonResponse(decision)
    }

    /// Whether a resource that looks like markup is well-formed XML.
    /// TODO(lead): drop once `ProtectedResource(parsing:)` also checks `parser.parserError` — FoundationXML on
    /// Linux returns true from `parse()` for truncated or mismatched documents and only sets `parserError`.
    static func isWellFormedIfMarkup(_ resource: String) -> Bool {
        let trimmed = resource.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("<") else { return true }
        let parser = XMLParser(data: Data(trimmed.utf8))
        parser.shouldResolveExternalEntities = false
        return parser.parse() && parser.parserError == nil
    }
}
