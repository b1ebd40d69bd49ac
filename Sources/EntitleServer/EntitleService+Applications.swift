import EntitleCore
import Foundation

/// Apps of a requestor, for every front end: software statements and registered clients, each change recorded.
extension EntitleService {
    /// Issues a software statement (the requestor must exist and be enabled) and records it; returns its id and JWT.
    package func issueSoftwareStatement(requestor: String, name: String, redirectURIs: [String], actor: String) async throws -> (
        id: String, jwt: String
    ) {
        guard try await repository.catalog.requestor(id: requestor) != nil else {
            throw AdminError.unknown("requestor", requestor, hint: "list them with `entitle admin requestor list`; a disabled one issues nothing")
        }
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty, name.count <= 200 else {
            throw AdminError("invalid_value", "the application name must be 1-200 characters")
        }
        let issued = try await issueSoftwareStatement(requestor: requestor, name: name, redirectURIs: redirectURIs)
        try await recordChange(
            actor: actor, action: "software-statement.create", target: issued.id,
            after: ["requestor": requestor, "name": name, "redirectURIs": redirectURIs.joined(separator: " ")])
        return issued
    }

    /// Revokes a software statement (its clients stop working) and records it.
    package func revokeSoftwareStatement(id: String, actor: String) async throws {
        guard try await repository.clients.revokeSoftwareStatement(id: id) else {
            throw AdminError.unknown("software statement", id, hint: "list them with `entitle admin software-statement list`")
        }
        try await recordChange(
            actor: actor, action: "software-statement.revoke", target: id, before: ["status": "active"], after: ["status": "revoked"])
    }

    /// Revokes a registered client (its access tokens stop working) and records it.
    package func revokeClient(id: String, actor: String) async throws {
        guard try await repository.clients.revokeClient(id: id) else {
            throw AdminError.unknown("client", id, hint: "list them with `entitle admin client list`")
        }
        try await recordChange(actor: actor, action: "client.revoke", target: id, before: ["status": "active"], after: ["status": "revoked"])
    }
}

/// A software statement as the admin API shows it.
package struct SoftwareStatementView: Codable, Sendable, Equatable {
    /// `software_id`.
    package var softwareID: String
    /// Requestor.
    package var requestor: String
    /// Application name.
    package var name: String
    /// Registered redirect URIs.
    package var redirectURIs: [String]
    /// Issue time, ISO 8601.
    package var issuedAt: String
    /// Whether revoked.
    package var revoked: Bool

    /// The view of a stored statement.
    package init(_ r: SoftwareStatementRecord) {
        (softwareID, requestor, name, redirectURIs) = (r.softwareId, r.requestorId, r.name, r.redirectURIs)
        issuedAt = Date(timeIntervalSince1970: Double(r.issuedAt)).ISO8601Format()
        revoked = r.revoked
    }
}

/// A registered client as the admin API shows it (never its secret).
package struct ClientView: Codable, Sendable, Equatable {
    /// `client_id`.
    package var clientID: String
    /// The software statement it registered with.
    package var softwareID: String
    /// Requestor.
    package var requestor: String
    /// Registration time, ISO 8601.
    package var issuedAt: String
    /// Whether revoked.
    package var revoked: Bool

    /// The view of a stored client.
    package init(_ r: ClientRecord) {
        (clientID, softwareID, requestor, revoked) = (r.clientId, r.softwareId, r.requestorId, r.revoked)
        issuedAt = Date(timeIntervalSince1970: Double(r.issuedAt)).ISO8601Format()
    }
}
