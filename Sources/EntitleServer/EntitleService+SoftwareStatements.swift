import EntitleCore
import Foundation

/// Software statements (administration): issued by `entitle admin software-statement` and the demo seeding.
extension EntitleService {
    /// Issues and records a signed software statement for a requestor's application.
    package func issueSoftwareStatement(requestor: String, name: String, redirectURIs: [String]) async throws -> (id: String, jwt: String) {
        guard try await repository.catalog.requestor(id: requestor) != nil else { throw ConfigurationError("Unknown requestor \(requestor).") }
        for uri in redirectURIs where !RedirectURIPolicy.isAcceptableRegistration(uri) {
            throw ConfigurationError("Redirect URI \(uri) is not an absolute URI with a scheme.")
        }
        let id = UUID().uuidString.lowercased()
        let issuedAt = Int64(clock.now().timeIntervalSince1970)
        let claims = SoftwareStatementClaims(
            iss: TokenIssuer.issuer, softwareID: id, requestorID: requestor, clientName: name,
            redirectURIs: redirectURIs, iat: issuedAt)
        let jwt = try await tokens.sign(statement: claims)
        try await repository.clients.insertSoftwareStatement(
            SoftwareStatementRecord(
                softwareId: id, requestorId: requestor, name: name, redirectURIs: redirectURIs, issuedAt: issuedAt, revoked: false))
        return (id, jwt)
    }

    /// Whether a software statement is signed by this service, known and not revoked.
    package func isApproved(softwareStatement: String) async -> Bool {
        guard !softwareStatement.isEmpty, let claims = await tokens.verify(statement: softwareStatement),
            let record = try? await repository.clients.softwareStatement(id: claims.softwareID)
        else { return false }
        return !record.revoked
    }
}
