import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// What the operations types share to check their arguments and to show an MVPD: the requestor, MVPD and integration
/// lookups that refuse an unknown id with the same error everywhere, and the MVPD as the admin API shows it.
package struct AdminCatalog: Sendable {
    /// Requestors and MVPDs as the protocols see them.
    package let catalog: CatalogStore
    /// Per-MVPD and per-integration options.
    package let mvpdOptions: MVPDOptionsStore
    /// Requestors, MVPDs and integrations as operators see them (disabled ones included).
    package let onboarding: CatalogAdminStore
    /// OAuth 2.0 MVPD settings.
    package let oauth2: OAuth2Store

    /// A requestor, disabled or not; refuses an unknown id with `hint`.
    @discardableResult
    package func existingRequestor(_ id: String, hint: String = "list them with `entitle admin requestor list`") async throws -> RequestorRecord {
        guard let record = try await onboarding.requestorForAdmin(id: id) else { throw AdminError.unknown("requestor", id, hint: hint) }
        return record
    }

    /// A requestor that is enabled; refuses an unknown or disabled one with `hint`.
    package func enabledRequestor(_ id: String, hint: String = "list them with `entitle admin requestor list`") async throws {
        guard try await catalog.requestor(id: id) != nil else { throw AdminError.unknown("requestor", id, hint: hint) }
    }

    /// An MVPD; refuses an unknown id.
    package func existingMVPD(_ id: String) async throws -> MVPDRecord {
        guard let record = try await catalog.mvpd(id: id) else {
            throw AdminError.unknown("mvpd", id, hint: "list them with `entitle admin mvpd list`")
        }
        return record
    }

    /// One requestor × MVPD integration; refuses one that does not exist.
    @discardableResult
    package func existingIntegration(requestor: String, mvpd: String) async throws -> IntegrationRecord {
        var found = try await onboarding.integrations(requestor: requestor, mvpd: mvpd).first
        // A proxied MVPD's integration may come from its proxy's push only (its settings may still be set).
        if found == nil { found = try await catalog.pushedIntegrations(mvpd: mvpd).first { $0.requestorId == requestor } }
        guard let record = found else {
            throw AdminError(
                "unknown_integration", "\(mvpd) is not integrated with \(requestor) (`entitle admin integration enable` first)", status: 404)
        }
        return record
    }

    /// Refuses a malformed MVPD id.
    package static func checkMVPDID(_ id: String) throws {
        guard !id.isEmpty, id.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
            throw AdminError("invalid_value", "MVPD id \"\(id)\": use 1-64 letters, digits, _ or -")
        }
    }

    /// One MVPD as the admin API shows it (no secrets).
    package func mvpdView(id: String) async throws -> MVPDView {
        try await mvpdView(try await existingMVPD(id))
    }

    /// An MVPD as the admin API shows it (no secrets).
    package func mvpdView(_ record: MVPDRecord) async throws -> MVPDView {
        var view = MVPDView(
            record, protocol: try await catalog.authorizationProtocol(mvpd: record.id),
            xacml: try await mvpdOptions.xacmlOptions(mvpd: record.id),
            preflight: try await mvpdOptions.preflightSettings(mvpd: record.id),
            lineup: try await mvpdOptions.preflightLineupSettings(mvpd: record.id),
            oauth2: try await oauth2.oauth2Settings(mvpd: record.id),
            saml: try await mvpdOptions.samlOptions(mvpd: record.id),
            disabled: try await onboarding.disabledMVPDIDs().contains(record.id),
            integrations: try await onboarding.integrations(requestor: nil, mvpd: record.id))
        // Proxy MVPDs (issue 40): the proxy of a proxied MVPD and what it pushed, or a proxy's settings.
        view.proxyMVPD = record.proxyMvpdId
        view.proxy = try await catalog.proxy(id: record.id)
        if let proxy = record.proxyMvpdId {
            view.proxied = try await catalog.proxiedMVPDs(proxy: proxy).first { $0.id == record.id }
            view.integrations += try await catalog.pushedIntegrations(mvpd: record.id).map { IntegrationView($0, pushed: true) }
        }
        return view
    }
}
