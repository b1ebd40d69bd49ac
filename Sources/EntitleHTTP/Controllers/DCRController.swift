import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import Logging

/// Dynamic Client Registration: `POST /o/client/register` and `POST /o/client/token`.
package struct DCRController: Sendable {
    /// Registered clients.
    package let clients: any ClientStoring
    package let tokens: TokenIssuer
    package let clock: any ServiceClock

    /// Adds the routes to the throttled `/o/client` group.
    package func addRoutes(to group: RouterGroup<AppContext>) {
        group.post("register") { request, context in try await register(request, context: context) }
        group.post("token") { request, context in try await issueToken(request, context: context) }
    }

    /// Registers a client of an approved software statement.
    package func register(_ request: Request, context: AppContext) async throws -> EditedResponse<ClientRegistration> {
        let body: ClientRegistrationRequest
        do {
            body = try await request.decode(as: ClientRegistrationRequest.self, context: context)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw error  // 413 `payload_too_large` (ErrorMiddleware)
        } catch {
            throw OAuthError("invalid_request", "The body must be JSON with a software_statement.")
        }
        guard let claims = await tokens.verify(statement: body.softwareStatement) else {
            throw OAuthError("invalid_software_statement", "The software statement is not a statement signed by this service.")
        }
        guard let statement = try await clients.softwareStatement(id: claims.softwareID), !statement.revoked,
            statement.requestorId == claims.requestorID
        else {
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
        let client = ClientRecord(
            clientId: UUID().uuidString.lowercased(), secretHash: Secrets.sha256Hex(secret),
            softwareId: statement.softwareId, requestorId: statement.requestorId,
            redirectURIs: redirectURIs, issuedAt: Int64(clock.now().timeIntervalSince1970), revoked: false)
        try await clients.insertClient(client)
        context.logger.info(
            "client registered", metadata: ["client_id": "\(client.clientId.logEscaped)", "software_id": "\(client.softwareId.logEscaped)"])
        return EditedResponse(
            status: .created,
            response: ClientRegistration(
                clientID: client.clientId, clientSecret: secret, redirectURIs: redirectURIs, clientIDIssuedAt: client.issuedAt))
    }

    /// Issues an access token for client credentials.
    package func issueToken(_ request: Request, context: AppContext) async throws -> EditedResponse<AccessTokenResponse> {
        let form = try await FormBody.fields(of: request, context: context)
        guard form["grant_type"] == "client_credentials" else {
            throw OAuthError(
                form["grant_type"] == nil ? "invalid_request" : "unsupported_grant_type",
                "grant_type must be client_credentials.")
        }
        guard let clientID = form["client_id"], let secret = form["client_secret"], clientID.count <= 128 else {
            throw OAuthError("invalid_request", "client_id and client_secret are required.")
        }
        guard let client = try await clients.activeClient(id: clientID),
            Secrets.constantTimeEqual(client.secretHash, Secrets.sha256Hex(secret))
        else {
            throw OAuthError("invalid_client", "The client is unknown, revoked or the secret is wrong: register again.")
        }
        let (token, claims) = try await tokens.accessToken(clientID: client.clientId, requestorID: client.requestorId)
        return EditedResponse(
            status: .created,
            response: AccessTokenResponse(id: claims.jti, accessToken: token, createdAt: claims.iat * 1000, expiresIn: claims.exp - claims.iat))
    }

    /// Creates the value from each of its stored properties.
    package init(clients: any ClientStoring, tokens: TokenIssuer, clock: any ServiceClock) {
        self.clients = clients
        self.tokens = tokens
        self.clock = clock
    }
}
