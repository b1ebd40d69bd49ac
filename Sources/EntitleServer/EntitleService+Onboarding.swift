import AsyncHTTPClient
import EntitleCore
import Foundation
import NIOCore
import SAML

/// Onboarding, for every front end (`entitle admin`, the admin API, the console): requestors, MVPDs and their
/// integrations, each change recorded in the changes log with who made it and the values before and after.
extension EntitleService {
    /// Creates a requestor and records it.
    package func addRequestor(_ record: RequestorRecord, actor: String) async throws {
        try await addRequestor(record)
        try await recordChange(actor: actor, action: "requestor.add", target: record.id, after: RequestorChangeView(record))
    }

    /// Replaces a requestor's settings and records the change.
    package func updateRequestor(_ record: RequestorRecord, actor: String) async throws {
        let before = try await updateRequestor(record)
        try await recordChange(
            actor: actor, action: "requestor.update", target: record.id, before: RequestorChangeView(before), after: RequestorChangeView(record))
    }

    /// Disables or enables a requestor: a disabled one is unknown to every protocol within the catalog bound.
    package func setRequestorDisabled(id: String, _ disabled: Bool, actor: String) async throws {
        guard try await repository.onboarding.requestorForAdmin(id: id) != nil else {
            throw AdminError.unknown("requestor", id, hint: "list them with `entitle admin requestor list`")
        }
        let wasDisabled = try await repository.onboarding.disabledRequestorIDs().contains(id)
        try await repository.onboarding.setRequestorDisabled(id: id, disabled, at: now)
        try await recordChange(
            actor: actor, action: disabled ? "requestor.disable" : "requestor.enable", target: id, before: ["disabled": wasDisabled],
            after: ["disabled": disabled])
    }

    /// Every requestor as the admin API shows it.
    package func requestorViews() async throws -> [RequestorView] {
        let disabled = try await repository.onboarding.disabledRequestorIDs()
        let integrations = try await repository.onboarding.integrations(requestor: nil, mvpd: nil)
        return try await allRequestors().map { RequestorView($0, disabled: disabled.contains($0.id), integrations: integrations) }
    }

    /// One requestor as the admin API shows it.
    package func requestorView(id: String) async throws -> RequestorView {
        guard let record = try await repository.onboarding.requestorForAdmin(id: id) else {
            throw AdminError.unknown("requestor", id, hint: "list them with `entitle admin requestor list`")
        }
        return RequestorView(
            record, disabled: try await repository.onboarding.disabledRequestorIDs().contains(id),
            integrations: try await repository.onboarding.integrations(requestor: id, mvpd: nil))
    }

    /// Every MVPD as the admin API shows it (no secrets).
    package func mvpdViews() async throws -> [MVPDView] {
        var views: [MVPDView] = []
        for mvpd in try await repository.catalog.allMVPDs() { views.append(try await mvpdView(mvpd)) }
        return views
    }

    /// One MVPD as the admin API shows it (no secrets).
    package func mvpdView(id: String) async throws -> MVPDView {
        try await mvpdView(try await existingMVPD(id))
    }

    /// Adds or replaces a SAML MVPD from its metadata, integrated with `requestors` (which must exist), and records it.
    @discardableResult
    package func importSAMLMVPD(
        id: String, metadataXML: String, options: MVPDOptions, requestors: [String], actor: String
    ) async throws -> IdentityProviderMetadata {
        try Self.checkMVPDID(id)
        for requestor in requestors where try await repository.onboarding.requestorForAdmin(id: requestor) == nil {
            throw AdminError.unknown("requestor", requestor, hint: "create it with `entitle admin requestor add`")
        }
        let before = try await repository.catalog.mvpd(id: id) == nil ? nil : try await mvpdView(id: id)
        let metadata: IdentityProviderMetadata
        do {
            metadata = try await importSAMLMVPD(id: id, metadataXML: metadataXML, options: options, requestors: requestors)
        } catch let error as SAMLError {
            throw AdminError("invalid_metadata", "the SAML metadata cannot be used: \(error)")
        } catch let error as ConfigurationError {
            throw AdminError("invalid_value", error.description)
        }
        try await recordChange(
            actor: actor, action: before == nil ? "mvpd.add" : "mvpd.update", target: id, before: before, after: try await mvpdView(id: id))
        return metadata
    }

    /// Changes some settings of an MVPD (nil: unchanged) and records the change.
    package func updateMVPD(id: String, _ update: MVPDUpdate, actor: String) async throws {
        var metadataXML = update.samlMetadataXML
        if let url = update.samlMetadataURL {
            guard metadataXML == nil else { throw AdminError("invalid_value", "give the SAML metadata or its URL, not both") }
            metadataXML = try await fetchMetadata(url)
        }
        try await applyMVPDUpdate(id: id, update, metadataXML: metadataXML, actor: actor)
    }

    /// Applies an update whose metadata (if any) is already at hand, and remembers or forgets its URL.
    private func applyMVPDUpdate(id: String, _ update: MVPDUpdate, metadataXML: String?, actor: String) async throws {
        var record = try await existingMVPD(id)
        let before = try await mvpdView(record)
        if let name = update.displayName {
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw AdminError("invalid_value", "the display name must not be empty") }
            record.displayName = name
        }
        if let logo = update.logoURL {
            guard logo.isEmpty || URL(string: logo)?.scheme.map({ ["https", "http"].contains($0) }) == true else {
                throw AdminError("invalid_value", "the logo URL must be an http(s) URL")
            }
            record.logoUrl = logo
        }
        if let value = update.requiresSafariViewController { record.requiresSafariViewController = value }
        if let value = update.enablePlatformServices {
            record.enablePlatformServices = value
            record.platformMappingId = value ? (record.platformMappingId ?? id) : nil
        }
        if let value = update.boardingStatus {
            let known = ["SUPPORTED", "PICKER", "NOT_SUPPORTED", ""]
            guard known.contains(value) else { throw AdminError("invalid_value", "boarding status \(value): use SUPPORTED, PICKER or NOT_SUPPORTED") }
            record.boardingStatus = value.isEmpty ? nil : value
        }
        if let value = update.displayInPlatformPicker { record.displayInPlatformPicker = value }
        if let seconds = update.profileTTLSeconds {
            guard Self.profileLifetimeRange.contains(seconds) else { throw AdminError("invalid_value", "the profile TTL must be 60 s to 400 days") }
            record.profileTtlSeconds = seconds
        }
        if let url = update.authorizationURL {
            guard url.isEmpty || URL(string: url)?.scheme.map({ ["https", "http"].contains($0) }) == true else {
                throw AdminError("invalid_value", "the authorization URL must be an http(s) URL")
            }
            record.authorizationUrl = url.isEmpty ? nil : url
        }
        if let key = update.authorizationKey { record.authorizationKey = key.isEmpty ? nil : key }
        let authorization = try await checkAuthorizationSettings(
            mvpd: id, authorizationURL: record.authorizationUrl,
            AuthorizationSettings(
                authorizationProtocol: update.authorizationProtocol, xacmlBinding: update.xacmlBinding, signQueries: update.signAuthorizationQueries))
        var oauth2: MVPDOAuth2Record?
        if let fields = update.oauth2 {
            guard record.kind == .oauth2 else { throw AdminError("invalid_value", "\(id) is not an OAuth 2.0 MVPD") }
            oauth2 = try await changedOAuth2Settings(mvpd: id, fields)
            record.ssoUrl = oauth2?.authorizeURL
            record.sloUrl = oauth2?.logoutURL
        }
        if let xml = metadataXML {
            guard record.kind == .saml else { throw AdminError("invalid_value", "\(id) is not a SAML MVPD") }
            let metadata: IdentityProviderMetadata
            do { metadata = try IdentityProviderMetadata.parse(xml: xml) } catch {
                throw AdminError("invalid_metadata", "the SAML metadata cannot be used: \(error)")
            }
            record.entityId = metadata.entityID
            record.ssoUrl = metadata.singleSignOnRedirectURL
            record.sloUrl = metadata.singleLogoutRedirectURL
            record.certificates = try metadata.signingCertificates.map { try $0.serializeAsPEM().pemString }
            try await recordSSOPostBinding(mvpd: id, metadataXML: xml)
        }
        try await repository.catalog.upsertMVPD(record)
        try await storeAuthorizationSettings(mvpd: id, authorization)
        if let oauth2 { try await repository.oauth2.upsertOAuth2Settings(oauth2) }
        if let url = update.samlMetadataURL {
            try await repository.onboarding.setMetadataSource(mvpd: id, url: url, at: now)
        } else if update.samlMetadataXML != nil {
            try await repository.onboarding.setMetadataSource(mvpd: id, url: nil, at: now)
        }
        try await recordChange(actor: actor, action: "mvpd.update", target: id, before: before, after: try await mvpdView(id: id))
    }

    /// Fetches the SAML metadata of every MVPD that has a metadata URL (or of `only`) and applies what changed, recorded
    /// as `mvpd.update` by `actor`. Returns the MVPDs whose metadata changed; a failed fetch leaves that MVPD as it was
    /// and is reported in `failures`.
    package func refreshMetadata(only: String? = nil, actor: String) async throws -> (changed: [String], failures: [String: String]) {
        let sources = try await repository.onboarding.metadataSources().filter { only == nil || $0.mvpd == only }
        if let only, sources.isEmpty {
            throw AdminError(
                "no_metadata_url", "\(only) has no metadata URL (set one with `entitle admin mvpd update --saml-metadata-url`)", status: 404)
        }
        var changed: [String] = [], failures: [String: String] = [:]
        for source in sources {
            do {
                let xml = try await fetchMetadata(source.url)
                let metadata = try IdentityProviderMetadata.parse(xml: xml)
                let pems = try metadata.signingCertificates.map { try $0.serializeAsPEM().pemString }
                guard let record = try await repository.catalog.mvpd(id: source.mvpd) else { continue }
                let unchanged =
                    record.entityId == metadata.entityID && record.ssoUrl == metadata.singleSignOnRedirectURL
                    && record.sloUrl == metadata.singleLogoutRedirectURL && record.certificates == pems
                if unchanged {
                    try await repository.onboarding.setMetadataSource(mvpd: source.mvpd, url: source.url, at: now)
                    continue
                }
                var update = MVPDUpdate()
                update.samlMetadataURL = source.url
                try await applyMVPDUpdate(id: source.mvpd, update, metadataXML: xml, actor: actor)
                changed.append(source.mvpd)
            } catch {
                failures[source.mvpd] = "\(error)"
            }
        }
        return (changed, failures)
    }

    /// Downloads SAML metadata: http(s) only, 10 seconds, at most 1 MiB.
    func fetchMetadata(_ url: String) async throws -> String {
        guard let parsed = URL(string: url), ["https", "http"].contains(parsed.scheme ?? ""), parsed.host != nil else {
            throw AdminError("invalid_value", "the metadata URL must be an http(s) URL")
        }
        do {
            let response = try await httpClient.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
            guard response.status == .ok else {
                throw AdminError("metadata_unavailable", "\(url) answered HTTP \(response.status.code)", status: 502)
            }
            return String(buffer: try await response.body.collect(upTo: 1 << 20))
        } catch let error as AdminError {
            throw error
        } catch {
            throw AdminError("metadata_unavailable", "cannot fetch \(url): \(error)", status: 502)
        }
    }

    /// Disables or enables an MVPD for every requestor (its integrations keep their own state) and records it.
    package func setMVPDDisabled(id: String, _ disabled: Bool, actor: String) async throws {
        let before = try await mvpdView(try await existingMVPD(id))
        try await repository.onboarding.setMVPDDisabled(id: id, disabled, at: now)
        try await recordChange(
            actor: actor, action: disabled ? "mvpd.disable" : "mvpd.enable", target: id, before: ["disabled": before.disabled],
            after: ["disabled": disabled])
    }

    /// Removes a disabled MVPD with its integrations and settings (refused while it is enabled), and records it.
    package func removeMVPD(id: String, actor: String) async throws {
        let before = try await mvpdView(try await existingMVPD(id))
        guard before.disabled else {
            throw AdminError("mvpd_enabled", "disable \(id) first (`entitle admin mvpd disable --id \(id)`), then remove it", status: 409)
        }
        try await repository.onboarding.deleteMVPD(id: id)
        try await recordChange(actor: actor, action: "mvpd.remove", target: id, before: before)
    }

    /// Enables or disables one requestor × MVPD integration (both must exist) and records it.
    package func setIntegration(requestor: String, mvpd: String, enabled: Bool, actor: String) async throws {
        guard try await repository.onboarding.requestorForAdmin(id: requestor) != nil else {
            throw AdminError.unknown("requestor", requestor, hint: "list them with `entitle admin requestor list`")
        }
        _ = try await existingMVPD(mvpd)
        let before = try await repository.onboarding.integrations(requestor: requestor, mvpd: mvpd).first.map { $0.enabled != 0 }
        try await repository.catalog.setIntegration(requestor: requestor, mvpd: mvpd, enabled: enabled)
        try await recordChange(
            actor: actor, action: enabled ? "integration.enable" : "integration.disable", target: "\(requestor)/\(mvpd)",
            before: before.map { ["enabled": $0] }, after: ["enabled": enabled])
    }

    /// Changes what one integration shows and keeps instead of its MVPD's settings (nil: unchanged; an empty name or
    /// logo, or a TTL of 0, goes back to the MVPD's) and records it.
    package func setIntegrationSettings(
        requestor: String, mvpd: String, displayName: String?, logoURL: String?, profileTTLSeconds: Int64?, actor: String
    ) async throws {
        guard let before = try await repository.onboarding.integrations(requestor: requestor, mvpd: mvpd).first else {
            throw AdminError(
                "unknown_integration", "\(mvpd) is not integrated with \(requestor) (`entitle admin integration enable` first)", status: 404)
        }
        var after = before
        if let displayName { after.displayName = displayName.trimmingCharacters(in: .whitespaces).isEmpty ? nil : displayName }
        if let logoURL {
            guard logoURL.isEmpty || URL(string: logoURL)?.scheme.map({ ["https", "http"].contains($0) }) == true else {
                throw AdminError("invalid_value", "the logo URL must be an http(s) URL")
            }
            after.logoUrl = logoURL.isEmpty ? nil : logoURL
        }
        if let profileTTLSeconds {
            guard profileTTLSeconds == 0 || Self.profileLifetimeRange.contains(profileTTLSeconds) else {
                throw AdminError("invalid_value", "the profile TTL must be 60 s to 400 days (0: the MVPD's)")
            }
            after.profileTtlSeconds = profileTTLSeconds == 0 ? nil : profileTTLSeconds
        }
        try await repository.onboarding.setIntegrationOverrides(
            requestor: requestor, mvpd: mvpd, displayName: after.displayName, logoURL: after.logoUrl, profileTTLSeconds: after.profileTtlSeconds)
        try await recordChange(
            actor: actor, action: "integration.update", target: "\(requestor)/\(mvpd)", before: IntegrationView(before),
            after: IntegrationView(after))
    }

    /// Integrations, optionally of one requestor and/or MVPD.
    package func integrationViews(requestor: String?, mvpd: String?) async throws -> [IntegrationView] {
        var views: [IntegrationView] = []
        for record in try await repository.onboarding.integrations(requestor: requestor, mvpd: mvpd) {
            let preflight = try await repository.mvpdOptions.integrationPreflightMaxResources(requestor: record.requestorId, mvpd: record.mvpdId)
            let lineup = try await repository.mvpdOptions.preflightLineupAttribute(requestor: record.requestorId, mvpd: record.mvpdId)
            views.append(IntegrationView(record, preflightMaxResources: preflight, lineupAttribute: lineup))
        }
        return views
    }

    private func existingMVPD(_ id: String) async throws -> MVPDRecord {
        guard let record = try await repository.catalog.mvpd(id: id) else {
            throw AdminError.unknown("mvpd", id, hint: "list them with `entitle admin mvpd list`")
        }
        return record
    }

    private func mvpdView(_ record: MVPDRecord) async throws -> MVPDView {
        MVPDView(
            record, protocol: try await repository.catalog.authorizationProtocol(mvpd: record.id),
            xacml: try await repository.mvpdOptions.xacmlOptions(mvpd: record.id),
            preflight: try await repository.mvpdOptions.preflightSettings(mvpd: record.id),
            lineup: try await repository.mvpdOptions.preflightLineupSettings(mvpd: record.id),
            oauth2: try await repository.oauth2.oauth2Settings(mvpd: record.id),
            saml: try await repository.mvpdOptions.samlOptions(mvpd: record.id),
            disabled: try await repository.onboarding.disabledMVPDIDs().contains(record.id),
            integrations: try await repository.onboarding.integrations(requestor: nil, mvpd: record.id))
    }

    static func checkMVPDID(_ id: String) throws {
        guard !id.isEmpty, id.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
            throw AdminError("invalid_value", "MVPD id \"\(id)\": use 1-64 letters, digits, _ or -")
        }
    }
}
