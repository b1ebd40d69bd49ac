import EntitleModel
import SQLKit

extension ClientStore {
    /// Software statements for `entitle admin software-statement list`: one requestor's, or all, oldest first.
    package func softwareStatementsForAdmin(requestor: String?) async throws -> [SoftwareStatementRecord] {
        if let requestor { return try await softwareStatements(requestor: requestor) }
        return try await all("SELECT * FROM software_statements ORDER BY issued_at, software_id", as: SoftwareStatementRecord.self)
    }

    /// Registered clients for `entitle admin client list`, newest first, at most `limit`.
    package func clientsForAdmin(softwareID: String?, limit: Int) async throws -> [ClientRecord] {
        if let softwareID {
            return try await all(
                """
                SELECT * FROM clients WHERE software_id = \(bind: softwareID) ORDER BY issued_at DESC, client_id LIMIT \(bind: limit)
                """, as: ClientRecord.self)
        }
        return try await all("SELECT * FROM clients ORDER BY issued_at DESC, client_id LIMIT \(bind: limit)", as: ClientRecord.self)
    }
}
