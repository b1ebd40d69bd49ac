import EntitleModel
import EntitleStorage
import Foundation

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
    /// Whether its clients are a network's backend whose calls name each device's address in `X-Forwarded-For`.
    package var serverToServer: Bool

    /// The view of a stored statement.
    package init(_ r: SoftwareStatementRecord) {
        (softwareID, requestor, name, redirectURIs) = (r.softwareId, r.requestorId, r.name, r.redirectURIs)
        issuedAt = Date(timeIntervalSince1970: Double(r.issuedAt)).ISO8601Format()
        revoked = r.revoked
        serverToServer = r.serverToServer
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
