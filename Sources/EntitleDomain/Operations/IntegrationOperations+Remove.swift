import EntitleCore
import EntitleModel
import EntitleStorage

/// Removing an integration (the catalog's `apply --prune`), with its overrides, preflight, HBA policy, authorization TTL
/// and degradation rules.
extension IntegrationOperations {
    /// Removes one requestor × MVPD integration and records it.
    package func remove(requestor: String, mvpd: String, actor: String) async throws {
        let before = try await lookups.existingIntegration(requestor: requestor, mvpd: mvpd)
        try await onboarding.deleteIntegration(requestor: requestor, mvpd: mvpd)
        try await changes.record(actor: actor, action: "integration.remove", target: "\(requestor)/\(mvpd)", before: IntegrationView(before))
    }
}
