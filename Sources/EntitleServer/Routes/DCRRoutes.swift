import EntitleCore
import Foundation
import Hummingbird

/// Dynamic Client Registration: `POST /o/client/register` and `POST /o/client/token`.
extension EntitleService {
    func addDCRRoutes(to router: Router<AppContext>) {
        router.post("/o/client/register") { request, context in try await self.register(request, context: context) }
        router.post("/o/client/token") { request, context in try await self.issueToken(request, context: context) }
    }

    /// Issues and records a signed software statement for a requestor's application.
    public func issueSoftwareStatement(requestor: String, name: String, redirectURIs: [String]) async throws -> (id: String, jwt: String) {
        guard try await repository.requestor(id: requestor) != nil else { throw ConfigurationError("Unknown requestor \(requestor).") }
        for uri in redirectURIs where !RedirectURIPolicy.isAcceptableRegistration(uri) {
            throw ConfigurationError("Redirect URI \(uri) is not an absolute URI with a scheme.")
        }
        let id = UUID().uuidString.lowercased()
        let issuedAt = Int64(clock.now().timeIntervalSince1970)
        let claims = SoftwareStatementClaims(iss: TokenIssuer.issuer, softwareID: id, requestorID: requestor, clientName: name,
                                             redirectURIs: redirectURIs, iat: issuedAt)
        let jwt = try await tokens.sign(statement: claims)
        try await repository.insertSoftwareStatement(SoftwareStatementRecord(
            softwareId: id, requestorId: requestor, name: name, redirectURIs: redirectURIs, issuedAt: issuedAt, revoked: false))
        return (id, jwt)
    }

    func register(_ request: Request, context: AppContext) async throws -> Response {
        let text = try await FormBody.text(of: request, context: context)
        guard let body = try? JSONDecoder().decode(ClientRegistrationRequest.self, from: Data(text.utf8)) else {
            throw OAuthError("invalid_request", "The body must be JSON with a software_statement.")
        }
        guard let claims = await tokens.verify(statement: body.softwareStatement) else {
            throw OAuthError("invalid_software_statement", "The software statement is not a statement signed by this service.")
        }
        guard let statement = try await repository.softwareStatement(id: claims.softwareID), !statement.revoked,
              statement.requestorId == claims.requestorID else {
            throw OAuthError("unapproved_software_statement", "The software statement is unknown or has been revoked.")
        }
        let allowed = statement.redirectURIs
        var redirectURIs = allowed
        if let requested = body.redirectURI {
            guard allowed.contains(requested) else {
                throw OAuthError("invalid_redirect_uri", "The redirect_uri is not registered for this application.")
            }
            redirectURIs = [requested]
        }
        let secret = Secrets.randomToken()
        let client = ClientRecord(clientId: UUID().uuidString.lowercased(), secretHash: Secrets.sha256Hex(secret),
                                  softwareId: statement.softwareId, requestorId: statement.requestorId,
                                  redirectURIs: redirectURIs, issuedAt: Int64(clock.now().timeIntervalSince1970), revoked: false)
        try await repository.insertClient(client)
        context.logger.info("client registered", metadata: ["client_id": "\(client.clientId.logEscaped)", "software_id": "\(client.softwareId.logEscaped)"])
        return JSONCoding.response(ClientRegistration(clientID: client.clientId, clientSecret: secret, redirectURIs: redirectURIs,
                                                      clientIDIssuedAt: client.issuedAt), status: .created)
    }

    func issueToken(_ request: Request, context: AppContext) async throws -> Response {
        let form = try await FormBody.fields(of: request, context: context)
        guard form["grant_type"] == "client_credentials" else {
            throw OAuthError(form["grant_type"] == nil ? "invalid_request" : "unsupported_grant_type",
                             "grant_type must be client_credentials.")
        }
        guard let clientID = form["client_id"], let secret = form["client_secret"], clientID.count <= 128 else {
            throw OAuthError("invalid_request", "client_id and client_secret are required.")
        }
        guard let client = try await repository.activeClient(id: clientID),
              Secrets.constantTimeEqual(client.secretHash, Secrets.sha256Hex(secret)) else {
            throw OAuthError("invalid_client", "The client is unknown, revoked or the secret is wrong: register again.")
        }
        let (token, claims) = try await tokens.accessToken(clientID: client.clientId, requestorID: client.requestorId)
        return JSONCoding.response(AccessTokenResponse(id: claims.jti, accessToken: token, createdAt: claims.iat * 1000,
                                                       expiresIn: claims.exp - claims.iat), status: .created)
    }
}

/// Redirect URI rules: exact match against the registered list; registered URIs must be absolute.
enum RedirectURIPolicy {
    /// Whether a URI may be registered in a software statement.
    static func isAcceptableRegistration(_ uri: String) -> Bool {
        guard uri.count <= 2048, let url = URL(string: uri), let scheme = url.scheme, !scheme.isEmpty else { return false }
        return !uri.contains(where: { $0.isWhitespace })
    }

    /// Whether `candidate` is allowed for a client: exact string match, also ignoring one trailing slash.
    static func isAllowed(_ candidate: String, registered: [String]) -> Bool {
        registered.contains { $0 == candidate || $0 + "/" == candidate || $0 == candidate + "/" }
    }
}

extension EntitleService {
    /// Whether a software statement is signed by this service, known and not revoked.
    public func isApproved(softwareStatement: String) async -> Bool {
        guard !softwareStatement.isEmpty, let claims = await tokens.verify(statement: softwareStatement),
              let record = try? await repository.softwareStatement(id: claims.softwareID) else { return false }
        return !record.revoked
    }
}
