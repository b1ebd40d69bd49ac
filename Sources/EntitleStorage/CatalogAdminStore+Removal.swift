import EntitleModel
import SQLKit

/// Removal of a requestor or of one integration with their settings (the catalog's `apply --prune`); what devices did
/// under them (profiles, clients, reports) is not catalog and stays until it expires.
extension CatalogAdminStore {
    /// The settings tables keyed by requestor and MVPD.
    private static let integrationTables = [
        "integrations", "integration_overrides", "integration_preflight", "integration_lineup", "integration_hba_policies", "authorization_ttls",
        "degradation_rules",
    ]

    /// Removes one requestor × MVPD integration with its settings.
    package func deleteIntegration(requestor: String, mvpd: String) async throws {
        for table in Self.integrationTables {
            try await run("DELETE FROM \(unsafeRaw: table) WHERE requestor_id = \(bind: requestor) AND mvpd_id = \(bind: mvpd)")
        }
        try await catalogChanged()
    }

    /// Removes a requestor with its integrations and settings.
    package func deleteRequestor(id: String) async throws {
        for table in Self.integrationTables + ["requestor_media_token_algorithms", "disabled_requestors"] {
            try await run("DELETE FROM \(unsafeRaw: table) WHERE requestor_id = \(bind: id)")
        }
        try await run("DELETE FROM requestors WHERE id = \(bind: id)")
        try await catalogChanged()
    }
}
