import EntitleCore

/// Software statements and the clients registered with them (`ClientStore` on SQL).
package protocol ClientStoring: Sendable {
    /// A software statement.
    func softwareStatement(id: String) async throws -> SoftwareStatementRecord?
    /// A registered client, whatever its state.
    func client(id: String) async throws -> ClientRecord?
    /// A client that is not revoked, of a statement that is not revoked.
    func activeClient(id: String) async throws -> ClientRecord?
    /// Registers a client.
    func insertClient(_ c: ClientRecord) async throws
    /// The software statements of a requestor (every requestor's when nil), revoked ones included.
    func softwareStatementsForAdmin(requestor: String?) async throws -> [SoftwareStatementRecord]
}
