import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import SAML

/// Changes to an MVPD's settings, for every front end: each setting checked, SAML metadata given or fetched from its URL,
/// OAuth 2.0 settings with a new secret encrypted; recorded in the changes log.
extension MVPDOperations {
    /// Changes some settings of an MVPD (nil: unchanged) and records the change.
    package func update(id: String, _ update: MVPDUpdate, actor: String) async throws {
        try OperatorReach.requireMVPD(id)
        var metadataXML = update.samlMetadataXML
        if let url = update.samlMetadataURL {
            guard metadataXML == nil else { throw AdminError("invalid_value", "give the SAML metadata or its URL, not both") }
            metadataXML = try await fetchMetadata(url)
        }
        try await applyUpdate(id: id, update, metadataXML: metadataXML, actor: actor)
    }

    /// Applies an update whose metadata (if any) is already at hand, and remembers or forgets its URL.
    package func applyUpdate(id: String, _ update: MVPDUpdate, metadataXML: String?, actor: String) async throws {
        try OperatorReach.requireMVPD(id)
        var record = try await lookups.existingMVPD(id)
        if let proxy = record.proxyMvpdId { return try await updateProxied(record, proxy: proxy, update, metadataXML: metadataXML, actor: actor) }
        let before = try await lookups.mvpdView(record)
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
            guard RequestorOperations.profileLifetimeRange.contains(seconds) else {
                throw AdminError("invalid_value", "the profile TTL must be 60 s to 400 days")
            }
            record.profileTtlSeconds = seconds
        }
        if let url = update.authorizationURL {
            guard url.isEmpty || URL(string: url)?.scheme.map({ ["https", "http"].contains($0) }) == true else {
                throw AdminError("invalid_value", "the authorization URL must be an http(s) URL")
            }
            record.authorizationUrl = url.isEmpty ? nil : url
        }
        if let key = update.authorizationKey { record.authorizationKey = key.isEmpty ? nil : key }
        let authorization = try await lookups.checkAuthorizationSettings(
            mvpd: id, authorizationURL: record.authorizationUrl,
            AuthorizationSettings(
                authorizationProtocol: update.authorizationProtocol, xacmlBinding: update.xacmlBinding, signQueries: update.signAuthorizationQueries))
        var oauth2: MVPDOAuth2Record?
        if let fields = update.oauth2 {
            guard record.kind == .oauth2 else { throw AdminError("invalid_value", "\(id) is not an OAuth 2.0 MVPD") }
            oauth2 = try await self.oauth2.changedSettings(mvpd: id, fields)
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
        try await catalog.upsertMVPD(record)
        try await lookups.storeAuthorizationSettings(mvpd: id, authorization)
        if let oauth2 { try await oauth2Store.upsertOAuth2Settings(oauth2) }
        if let url = update.samlMetadataURL {
            try await onboarding.setMetadataSource(mvpd: id, url: url, at: clock.nowMilliseconds())
        } else if update.samlMetadataXML != nil {
            try await onboarding.setMetadataSource(mvpd: id, url: nil, at: clock.nowMilliseconds())
        }
        try await changes.record(actor: actor, action: "mvpd.update", target: id, before: before, after: try await lookups.mvpdView(id: id))
    }
}
