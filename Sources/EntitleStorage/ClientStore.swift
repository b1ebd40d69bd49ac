import EntitleModel
import SQLKit

/// Software statements and registered clients (DCR).
package struct ClientStore: SQLStore {
    /// The database and caches this store shares with the others.
    package let base: SQLStoreBase

    /// Creates the value from each of its stored properties.
    package init(base: SQLStoreBase) {
        self.base = base
    }
}

extension ClientStore {
    /// A software statement by `software_id`.
    package func softwareStatement(id: String) async throws -> SoftwareStatementRecord? {
        try await cached(catalogCache.softwareStatements, id) {
            try await first("SELECT * FROM software_statements WHERE software_id = \(bind: id)", as: SoftwareStatementRecord.self)
        }
    }

    /// Records an approved software statement.
    package func insertSoftwareStatement(_ s: SoftwareStatementRecord) async throws {
        try await run(
            """
            INSERT INTO software_statements (software_id, requestor_id, name, redirect_uris, issued_at, revoked, server_to_server)
            VALUES (\(bind: s.softwareId), \(bind: s.requestorId), \(bind: s.name), \(bind: JSONText.encode(s.redirectURIs)),
                    \(bind: s.issuedAt), \(bind: s.revoked.storedFlag), \(bind: s.serverToServer.storedFlag)) ON CONFLICT (software_id) DO NOTHING
            """)
        try await catalogChanged()
    }

    /// Revokes a software statement; returns whether it existed.
    package func revokeSoftwareStatement(id: String) async throws -> Bool {
        let touched = try await touchedRow("UPDATE software_statements SET revoked = 1 WHERE software_id = \(bind: id) RETURNING software_id")
        if touched { try await catalogChanged() }
        return touched
    }

    /// All software statements of a requestor.
    package func softwareStatements(requestor: String) async throws -> [SoftwareStatementRecord] {
        try await all(
            "SELECT * FROM software_statements WHERE requestor_id = \(bind: requestor) ORDER BY issued_at", as: SoftwareStatementRecord.self)
    }

    /// A client by id.
    package func client(id: String) async throws -> ClientRecord? {
        try await cachedIfPresent(catalogCache.clients, id) {
            try await first("SELECT * FROM clients WHERE client_id = \(bind: id)", as: ClientRecord.self)
        }
    }

    /// Records a registered client.
    package func insertClient(_ c: ClientRecord) async throws {
        try await run(
            """
            INSERT INTO clients (client_id, secret_hash, software_id, requestor_id, redirect_uris, issued_at, revoked)
            VALUES (\(bind: c.clientId), \(bind: c.secretHash), \(bind: c.softwareId), \(bind: c.requestorId),
                    \(bind: JSONText.encode(c.redirectURIs)), \(bind: c.issuedAt), \(bind: c.revoked.storedFlag))
            """)
    }

    /// Revokes a client; returns whether it existed.
    package func revokeClient(id: String) async throws -> Bool {
        let touched = try await touchedRow("UPDATE clients SET revoked = 1 WHERE client_id = \(bind: id) RETURNING client_id")
        if touched { try await catalogChanged() }
        return touched
    }

    /// A client whose registration and software statement are both still approved; nil otherwise. From memory once
    /// seen (a revocation bumps the catalog version), one query otherwise.
    package func activeClient(id: String) async throws -> ClientRecord? {
        try await cachedIfPresent(catalogCache.activeClients, id) {
            try await first(
                """
                SELECT c.* FROM clients c JOIN software_statements s ON s.software_id = c.software_id
                WHERE c.client_id = \(bind: id) AND c.revoked = 0 AND s.revoked = 0
                """, as: ClientRecord.self)
        }
    }
}
