import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// An MVPD of a catalog document written whole: the MVPD, its SAML or OAuth 2.0 settings, its authorization settings,
/// then its authorization TTL, proxy settings and disabled flag through their operations; recorded as `mvpd.add` or
/// `mvpd.update` with the MVPD before and after (no secrets).
extension CatalogOperations {
    /// Creates or replaces one MVPD as the document describes it.
    func saveMVPD(_ wanted: CatalogDocument.MVPD, current: CatalogDocument.MVPD?, actor: String) async throws {
        let id = wanted.id
        let before = current == nil ? nil : try await mvpds.lookups.mvpdView(id: id)
        var settings = wanted, existing = current
        settings.disabled = nil
        settings.proxy = nil
        settings.authorization?.ttlSeconds = nil
        existing?.disabled = nil
        existing?.proxy = nil
        existing?.authorization?.ttlSeconds = nil
        if settings.normalized() != existing?.normalized() {
            try await writeMVPD(wanted)
            try await changes.record(
                actor: actor, action: current == nil ? "mvpd.add" : "mvpd.update", target: id, before: before,
                after: try await mvpds.lookups.mvpdView(id: id))
        }
        if let ttl = wanted.authorization?.ttlSeconds, ttl != current?.authorization?.ttlSeconds {
            try await integrations.setAuthorizationTTL(mvpd: id, requestor: nil, seconds: ttl, actor: actor)
        }
        if let proxy = wanted.proxy, proxy != current?.proxy {
            try await proxyMVPDs.markProxy(id: id, listed: proxy.listed, allowedAddresses: proxy.allowedAddresses ?? [], actor: actor)
        }
        if (wanted.disabled ?? false) != (current?.disabled ?? false) {
            try await mvpds.setDisabled(id: id, wanted.disabled ?? false, actor: actor)
        }
    }

    /// Writes the MVPD's record and options (checked beforehand by ``CatalogValidation``).
    private func writeMVPD(_ wanted: CatalogDocument.MVPD) async throws {
        let id = wanted.id
        let kind = MVPDKind(rawValue: wanted.kind)
        let authorization = wanted.authorization ?? CatalogDocument.Authorization()
        let url = authorization.url.flatMap { $0.isEmpty ? nil : $0 }
        try await catalog.upsertMVPD(
            MVPDRecord(
                id: id, displayName: wanted.displayName, logoUrl: wanted.logoURL ?? "", kind: kind, entityId: wanted.saml?.entityID,
                ssoUrl: wanted.saml?.ssoURL ?? wanted.oauth2?.authorizeURL, sloUrl: wanted.saml?.sloURL ?? wanted.oauth2?.logoutURL,
                certificates: wanted.saml?.certificates ?? [], authorizationUrl: url, authorizationKey: authorization.key?.value,
                requiresSafariViewController: wanted.requiresSafariViewController ?? false,
                enablePlatformServices: wanted.enablePlatformServices ?? false, boardingStatus: wanted.boardingStatus,
                platformMappingId: wanted.platformMappingId, displayInPlatformPicker: wanted.displayInPlatformPicker ?? false,
                temppassMinutes: wanted.tempPass?.minutes, profileTtlSeconds: wanted.profileTTLSeconds ?? wanted.defaultProfileTTLSeconds,
                encryptedAttributes: wanted.encryptedAttributes ?? [], temppassResourceLimit: wanted.tempPass?.resourceLimit))
        if kind != .tempPass || wanted.attributeMapping != nil || authorization.authorizeAll != nil {
            try await mvpdOptions.upsertSAMLOptions(
                MVPDSAMLOptionsRecord(
                    mvpdId: id, attributeMapping: wanted.attributeMapping ?? [:], allowRSASHA1: wanted.saml?.allowRSASHA1 ?? false,
                    authorizeAll: authorization.authorizeAll ?? false))
        }
        try await catalog.setAuthorizationProtocol(
            mvpd: id, MVPDAuthorizationProtocol(rawValue: authorization.protocol ?? "") ?? .entitleJSON)
        try await mvpdOptions.setXACMLOptions(
            mvpd: id,
            MVPDXACMLOptions(
                binding: XACMLBinding(rawValue: authorization.xacmlBinding ?? "") ?? .plain, signQueries: authorization.signQueries ?? false))
        if let saml = wanted.saml {
            try await mvpdOptions.setSSOPostLocation(mvpd: id, location: saml.ssoPostURL)
            try await onboarding.setMetadataSource(mvpd: id, url: saml.metadataURL, at: clock.nowMilliseconds())
        }
        if let oauth2 = wanted.oauth2 {
            try await oauth2MVPDs.oauth2Store.upsertOAuth2Settings(
                MVPDOAuth2Record(
                    mvpdId: id, issuer: oauth2.issuer, authorizeURL: oauth2.authorizeURL, tokenURL: oauth2.tokenURL, userinfoURL: oauth2.userinfoURL,
                    logoutURL: oauth2.logoutURL, clientID: oauth2.clientID,
                    encryptedClientSecret: try await oauth2MVPDs.cipher.seal(
                        oauth2.clientSecret.value ?? "", context: OAuth2SignIn.clientSecretContext(mvpd: id)),
                    scopes: oauth2.scopes ?? [], userIDClaim: oauth2.userIDClaim ?? "sub",
                    tokenAuthMethod: oauth2.tokenAuthMethod ?? "client_secret_basic",
                    pkce: oauth2.pkce ?? true))
        }
    }
}
