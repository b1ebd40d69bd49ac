import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// Requestor × MVPD integrations, for every front end (`entitle admin integration`, the admin API, the console): on or
/// off, what each shows and keeps instead of its MVPD's settings, preflight; each change recorded in the changes log.
package struct IntegrationOperations: Sendable {
    /// Integrations as the protocols see them.
    package let catalog: CatalogStore
    /// Per-integration preflight settings.
    package let mvpdOptions: MVPDOptionsStore
    /// Integrations as operators see them.
    package let onboarding: CatalogAdminStore
    /// The shared lookups.
    package let lookups: AdminCatalog
    /// The changes log.
    package let changes: ChangeRecorder

    /// Enables or disables one requestor × MVPD integration (both must exist) and records it.
    package func setEnabled(requestor: String, mvpd: String, enabled: Bool, actor: String) async throws {
        try OperatorReach.requireIntegration(requestor: requestor, mvpd: mvpd)
        try await lookups.existingRequestor(requestor)
        _ = try await lookups.existingMVPD(mvpd)
        let before = try await onboarding.integrations(requestor: requestor, mvpd: mvpd).first.map { $0.enabled != 0 }
        try await catalog.setIntegration(requestor: requestor, mvpd: mvpd, enabled: enabled)
        try await changes.record(
            actor: actor, action: enabled ? "integration.enable" : "integration.disable", target: "\(requestor)/\(mvpd)",
            before: before.map { ["enabled": $0] }, after: ["enabled": enabled])
    }

    /// Changes what one integration shows and keeps instead of its MVPD's settings (nil: unchanged; an empty name or
    /// logo, or a TTL of 0, goes back to the MVPD's) and records it.
    package func setSettings(
        requestor: String, mvpd: String, displayName: String?, logoURL: String?, profileTTLSeconds: Int64?, actor: String
    ) async throws {
        try OperatorReach.requireIntegration(requestor: requestor, mvpd: mvpd)
        let before = try await lookups.existingIntegration(requestor: requestor, mvpd: mvpd)
        var after = before
        if let displayName { after.displayName = displayName.trimmingCharacters(in: .whitespaces).isEmpty ? nil : displayName }
        if let logoURL {
            guard logoURL.isEmpty || URL(string: logoURL)?.scheme.map({ ["https", "http"].contains($0) }) == true else {
                throw AdminError("invalid_value", "the logo URL must be an http(s) URL")
            }
            after.logoUrl = logoURL.isEmpty ? nil : logoURL
        }
        if let profileTTLSeconds {
            guard profileTTLSeconds == 0 || RequestorOperations.profileLifetimeRange.contains(profileTTLSeconds) else {
                throw AdminError("invalid_value", "the profile TTL must be 60 s to 400 days (0: the MVPD's)")
            }
            after.profileTtlSeconds = profileTTLSeconds == 0 ? nil : profileTTLSeconds
        }
        try await onboarding.setIntegrationOverrides(
            requestor: requestor, mvpd: mvpd, displayName: after.displayName, logoURL: after.logoUrl, profileTTLSeconds: after.profileTtlSeconds)
        try await changes.record(
            actor: actor, action: "integration.update", target: "\(requestor)/\(mvpd)", before: IntegrationView(before),
            after: IntegrationView(after))
    }

    /// Integrations, optionally of one requestor and/or MVPD: the recorded ones, then those of proxied MVPDs that come
    /// from their proxy's pushes (`pushed`).
    package func views(requestor: String?, mvpd: String?) async throws -> [IntegrationView] {
        var views: [IntegrationView] = []
        let pushed = try await catalog.pushedIntegrations(mvpd: mvpd).filter { requestor == nil || $0.requestorId == requestor }
        for (record, isPushed) in try await onboarding.integrations(requestor: requestor, mvpd: mvpd).map({ ($0, false) })
            + pushed.map({ ($0, true) })
        where OperatorReach.maySee(requestor: record.requestorId, mvpd: record.mvpdId) {
            let preflight = try await mvpdOptions.integrationPreflightMaxResources(requestor: record.requestorId, mvpd: record.mvpdId)
            let lineup = try await mvpdOptions.preflightLineupAttribute(requestor: record.requestorId, mvpd: record.mvpdId)
            let hba = try await mvpdOptions.hbaPolicy(requestor: record.requestorId, mvpd: record.mvpdId)
            views.append(IntegrationView(record, preflightMaxResources: preflight, lineupAttribute: lineup, hba: hba, pushed: isPushed))
        }
        return views
    }

    /// Creates the value from each of its stored properties.
    package init(catalog: CatalogStore, mvpdOptions: MVPDOptionsStore, onboarding: CatalogAdminStore, lookups: AdminCatalog, changes: ChangeRecorder)
    {
        self.catalog = catalog
        self.mvpdOptions = mvpdOptions
        self.onboarding = onboarding
        self.lookups = lookups
        self.changes = changes
    }
}
