import AsyncHTTPClient
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import Logging

/// MVPDs, for every front end (`entitle admin mvpd`, the admin API, the console) and the demo seeding: SAML MVPDs
/// imported from metadata, TempPass pseudo-MVPDs, changes, disabling, removal and the views; each change an operator
/// makes recorded in the changes log. OAuth 2.0 MVPDs are added by ``OAuth2MVPDOperations``.
package struct MVPDOperations: Sendable {
    /// MVPDs and integrations as the protocols see them.
    package let catalog: CatalogStore
    /// Per-MVPD options.
    package let mvpdOptions: MVPDOptionsStore
    /// MVPDs as operators see them, metadata sources.
    package let onboarding: CatalogAdminStore
    /// OAuth 2.0 MVPD settings.
    package let oauth2Store: OAuth2Store
    /// The shared lookups.
    package let lookups: AdminCatalog
    /// Changes to an OAuth 2.0 MVPD's settings.
    package let oauth2: OAuth2MVPDOperations
    /// The changes log.
    package let changes: ChangeRecorder
    /// Fetches metadata from its URL.
    package let httpClient: HTTPClient
    /// Time.
    package let clock: any ServiceClock
    /// Warnings and the scheduled refresh's outcome.
    package let logger: Logger

    /// Every MVPD as the admin API shows it (no secrets).
    package func views() async throws -> [MVPDView] {
        var views: [MVPDView] = []
        for mvpd in try await catalog.allMVPDs() {
            if let view = OperatorReach.visible(try await lookups.mvpdView(mvpd)) { views.append(view) }
        }
        return views
    }

    /// One MVPD as the admin API shows it (no secrets).
    package func view(id: String) async throws -> MVPDView {
        try OperatorReach.requireVisible(try await lookups.mvpdView(id: id))
    }

    /// Adds or updates a TempPass pseudo-MVPD and integrates it with `requestors`.
    /// A `resourceLimit` makes it a Promotional TempPass: that many distinct resources per identity (`AP-TempPass-Identity`).
    package func saveTempPass(
        id: String, displayName: String, logoURL: String, minutes: Int, resourceLimit: Int? = nil,
        requestors: [String]
    ) async throws {
        try await catalog.upsertMVPD(
            MVPDRecord(
                id: id, displayName: displayName, logoUrl: logoURL, kind: .tempPass, entityId: nil, ssoUrl: nil, sloUrl: nil,
                certificates: [], authorizationUrl: nil, authorizationKey: nil, requiresSafariViewController: false, enablePlatformServices: false,
                boardingStatus: nil, platformMappingId: nil, displayInPlatformPicker: false, temppassMinutes: Int64(minutes),
                profileTtlSeconds: Int64(minutes) * 60, encryptedAttributes: [], temppassResourceLimit: resourceLimit.map(Int64.init)))
        for requestor in requestors { try await catalog.setIntegration(requestor: requestor, mvpd: id, enabled: true) }
    }

    /// Disables or enables an MVPD for every requestor (its integrations keep their own state) and records it.
    package func setDisabled(id: String, _ disabled: Bool, actor: String) async throws {
        try OperatorReach.requireMVPD(id)
        let before = try await lookups.mvpdView(id: id)
        try await onboarding.setMVPDDisabled(id: id, disabled, at: clock.nowMilliseconds())
        try await changes.record(
            actor: actor, action: disabled ? "mvpd.disable" : "mvpd.enable", target: id, before: ["disabled": before.disabled],
            after: ["disabled": disabled])
    }

    /// Removes a disabled MVPD with its integrations and settings (refused while it is enabled), and records it. A proxy
    /// goes with its proxied MVPDs; a proxied MVPD is removed only by its proxy's push (refused here: disable it).
    package func remove(id: String, actor: String) async throws {
        try OperatorReach.requireServiceWide("removing an MVPD")
        let before = try await lookups.mvpdView(id: id)
        if let proxy = before.proxyMVPD {
            throw AdminError(
                "proxied_mvpd",
                "\(id) is a proxied MVPD of \(proxy), whose pushes decide which proxied MVPDs exist: disable it instead "
                    + "(`entitle admin mvpd disable --id \(id)`), which its proxy's pushes keep", status: 409)
        }
        guard before.disabled else {
            throw AdminError("mvpd_enabled", "disable \(id) first (`entitle admin mvpd disable --id \(id)`), then remove it", status: 409)
        }
        if before.proxy != nil { try await removeProxiedMVPDs(of: id, actor: actor) }
        try await onboarding.deleteMVPD(id: id)
        try await changes.record(actor: actor, action: "mvpd.remove", target: id, before: before)
    }

    /// Creates the value from each of its stored properties.
    package init(
        catalog: CatalogStore, mvpdOptions: MVPDOptionsStore, onboarding: CatalogAdminStore, oauth2Store: OAuth2Store, lookups: AdminCatalog,
        oauth2: OAuth2MVPDOperations, changes: ChangeRecorder, httpClient: HTTPClient, clock: any ServiceClock, logger: Logger
    ) {
        self.catalog = catalog
        self.mvpdOptions = mvpdOptions
        self.onboarding = onboarding
        self.oauth2Store = oauth2Store
        self.lookups = lookups
        self.oauth2 = oauth2
        self.changes = changes
        self.httpClient = httpClient
        self.clock = clock
        self.logger = logger
    }
}

extension MVPDOperations {
    /// An MVPD of the catalog.
    package func mvpd(id: String) async throws -> MVPDRecord? {
        try await catalog.mvpd(id: id)
    }

    /// How an MVPD is asked for authorization decisions.
    package func authorizationProtocol(mvpd: String) async throws -> MVPDAuthorizationProtocol {
        try await catalog.authorizationProtocol(mvpd: mvpd)
    }
}
