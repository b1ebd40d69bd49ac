import EntitleCore
import EntitleModel
import EntitleStorage

/// Removing a requestor (the catalog's `apply --prune`): like an MVPD, only once it is disabled.
extension RequestorOperations {
    /// Removes a disabled requestor with its integrations and their settings (refused while it is enabled) and records it.
    package func remove(id: String, actor: String) async throws {
        let before = try await lookups.existingRequestor(id)
        guard try await onboarding.disabledRequestorIDs().contains(id) else {
            throw AdminError("requestor_enabled", "disable \(id) first (`entitle admin requestor disable --id \(id)`), then remove it", status: 409)
        }
        try await onboarding.deleteRequestor(id: id)
        try await changes.record(actor: actor, action: "requestor.remove", target: id, before: RequestorChangeView(before))
    }
}
