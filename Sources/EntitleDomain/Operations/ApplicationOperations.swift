import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// Apps of a requestor, for every front end and the demo seeding: software statements (issued, signed again for
/// download, revoked) and registered clients (revoked); each change an operator makes recorded in the changes log.
package struct ApplicationOperations: Sendable {
    /// Requestors.
    package let catalog: CatalogStore
    /// Software statements and registered clients.
    package let clients: ClientStore
    /// Signs software statements.
    package let tokens: TokenIssuer
    /// The shared lookups.
    package let lookups: AdminCatalog
    /// The changes log.
    package let changes: ChangeRecorder
    /// Time.
    package let clock: any ServiceClock

    /// Issues and records a signed software statement for a requestor's application (`serverToServer`: for a network's
    /// backend calling REST API v2 for its devices, whose calls name each device's address in `X-Forwarded-For`).
    package func issueSoftwareStatement(
        requestor: String, name: String, redirectURIs: [String], serverToServer: Bool = false
    ) async throws -> (id: String, jwt: String) {
        guard try await catalog.requestor(id: requestor) != nil else { throw ConfigurationError("Unknown requestor \(requestor).") }
        for uri in redirectURIs where !RedirectURIPolicy.isAcceptableRegistration(uri) {
            throw ConfigurationError("Redirect URI \(uri) is not an absolute http(s) URL or an app's custom-scheme URI.")
        }
        let id = UUID().uuidString.lowercased()
        let issuedAt = Int64(clock.now().timeIntervalSince1970)
        let claims = SoftwareStatementClaims(
            iss: TokenIssuer.issuer, softwareID: id, requestorID: requestor, clientName: name,
            redirectURIs: redirectURIs, iat: issuedAt)
        let jwt = try await tokens.sign(statement: claims)
        try await clients.insertSoftwareStatement(
            SoftwareStatementRecord(
                softwareId: id, requestorId: requestor, name: name, redirectURIs: redirectURIs, issuedAt: issuedAt, revoked: false,
                serverToServer: serverToServer))
        return (id, jwt)
    }

    /// Whether a software statement is signed by this service, known and not revoked.
    package func isApproved(softwareStatement: String) async -> Bool {
        guard !softwareStatement.isEmpty, let claims = await tokens.verify(statement: softwareStatement),
            let record = try? await clients.softwareStatement(id: claims.softwareID)
        else { return false }
        return !record.revoked
    }

    /// Issues a software statement (the requestor must exist and be enabled, at least one redirect URI given) and records
    /// it; returns its id and JWT. `serverToServer` marks a network backend's statement (docs/web-and-server-apps.md).
    package func issueSoftwareStatement(
        requestor: String, name: String, redirectURIs: [String], serverToServer: Bool = false, actor: String
    ) async throws -> (id: String, jwt: String) {
        try OperatorReach.requireRequestor(requestor)
        try await lookups.enabledRequestor(requestor, hint: "list them with `entitle admin requestor list`; a disabled one issues nothing")
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty, name.count <= 200 else {
            throw AdminError("invalid_value", "the application name must be 1-200 characters")
        }
        // A statement without one registers clients that can never complete a sign-in (invalid_redirect_uri).
        guard !redirectURIs.isEmpty else {
            throw AdminError(
                "missing_redirect_uri",
                "a software statement needs at least one redirect URI, the app's (--redirect-uri; the AccessEnabler SDK's default is adobepass://ios.app)"
            )
        }
        let issued = try await issueSoftwareStatement(
            requestor: requestor, name: name, redirectURIs: redirectURIs, serverToServer: serverToServer)
        var after = ["requestor": requestor, "name": name, "redirectURIs": redirectURIs.joined(separator: " ")]
        if serverToServer { after["serverToServer"] = "true" }
        try await changes.record(actor: actor, action: "software-statement.create", target: issued.id, after: after)
        return issued
    }

    /// Revokes a software statement (its clients stop working) and records it.
    package func revokeSoftwareStatement(id: String, actor: String) async throws {
        if OperatorReach.current != nil, let record = try await clients.softwareStatement(id: id) {
            try OperatorReach.requireRequestor(record.requestorId)
        }
        guard try await clients.revokeSoftwareStatement(id: id) else {
            throw AdminError.unknown("software statement", id, hint: "list them with `entitle admin software-statement list`")
        }
        try await changes.record(
            actor: actor, action: "software-statement.revoke", target: id, before: ["status": "active"], after: ["status": "revoked"])
    }

    /// Revokes a registered client (its access tokens stop working) and records it.
    package func revokeClient(id: String, actor: String) async throws {
        if OperatorReach.current != nil, let record = try await clients.client(id: id) { try OperatorReach.requireRequestor(record.requestorId) }
        guard try await clients.revokeClient(id: id) else {
            throw AdminError.unknown("client", id, hint: "list them with `entitle admin client list`")
        }
        try await changes.record(actor: actor, action: "client.revoke", target: id, before: ["status": "active"], after: ["status": "revoked"])
    }

    /// The JWT of a software statement that is not revoked, signed again with the current key (same claims), for an
    /// operator to download and ship in the app.
    package func softwareStatementJWT(id: String) async throws -> String {
        guard let record = try await clients.softwareStatement(id: id) else {
            throw AdminError.unknown("software statement", id, hint: "list them with `entitle admin software-statement list`")
        }
        try OperatorReach.requireVisibleRequestor(record.requestorId)
        guard !record.revoked else { throw AdminError("revoked", "software statement \(id) is revoked; issue a new one", status: 409) }
        let claims = SoftwareStatementClaims(
            iss: TokenIssuer.issuer, softwareID: record.softwareId, requestorID: record.requestorId, clientName: record.name,
            redirectURIs: record.redirectURIs, iat: record.issuedAt)
        return try await tokens.sign(statement: claims)
    }

    /// Creates the value from each of its stored properties.
    package init(
        catalog: CatalogStore, clients: ClientStore, tokens: TokenIssuer, lookups: AdminCatalog, changes: ChangeRecorder, clock: any ServiceClock
    ) {
        self.catalog = catalog
        self.clients = clients
        self.tokens = tokens
        self.lookups = lookups
        self.changes = changes
        self.clock = clock
    }
}

extension ApplicationOperations {
    /// The software statements of a requestor (every requestor's when nil), revoked ones included.
    package func softwareStatements(requestor: String?) async throws -> [SoftwareStatementRecord] {
        try await clients.softwareStatementsForAdmin(requestor: requestor).filter { OperatorReach.maySee(requestor: $0.requestorId) }
    }

    /// Registered clients, of one software statement or all, newest first, at most `limit`.
    package func registeredClients(softwareID: String?, limit: Int) async throws -> [ClientRecord] {
        guard OperatorReach.scoped != nil else { return try await clients.clientsForAdmin(softwareID: softwareID, limit: limit) }
        // A scoped operator's clients: read past the others' (newest first), up to `limit` of its own.
        return Array(
            try await clients.clientsForAdmin(softwareID: softwareID, limit: 10_000).filter { OperatorReach.maySee(requestor: $0.requestorId) }
                .prefix(limit))
    }
}
