import EntitleCore

extension Repository {
    /// An MVPD integrated with the requestor, or `invalid_parameter_mvpd`.
    func requireIntegratedMVPD(_ id: String, requestor: String) async throws -> MVPDRecord {
        guard id.utf8.count <= 128, let mvpd = try await integratedMVPD(requestor: requestor, mvpd: id) else {
            throw EnhancedError.invalidMVPD
        }
        return mvpd
    }
}
