import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// Settings of an MVPD to change; nil leaves one as it is.
package struct MVPDUpdate: Codable, Sendable, Equatable {
    /// Display name.
    package var displayName: String?
    /// Logo URL (empty: none).
    package var logoURL: String?
    /// Whether the login needs SFSafariViewController.
    package var requiresSafariViewController: Bool?
    /// Apple SSO (`enablePlatformServices`).
    package var enablePlatformServices: Bool?
    /// Apple SSO boarding status: SUPPORTED, PICKER, NOT_SUPPORTED (empty: none).
    package var boardingStatus: String?
    /// Whether shown in Apple's provider picker.
    package var displayInPlatformPicker: Bool?
    /// Profile (authentication) lifetime, seconds.
    package var profileTTLSeconds: Int64?
    /// New SAML IdP metadata XML.
    package var samlMetadataXML: String?
    /// Where to fetch the SAML IdP metadata from now and at every refresh.
    package var samlMetadataURL: String?
    /// Authorization endpoint (empty: none).
    package var authorizationURL: String?
    /// Authorization bearer key (empty: none); write-only.
    package var authorizationKey: String?
    /// Authorization protocol.
    package var authorizationProtocol: MVPDAuthorizationProtocol?
    /// How XACML travels.
    package var xacmlBinding: XACMLBinding?
    /// Whether SOAP XACML queries are signed with the SAML SP key.
    package var signAuthorizationQueries: Bool?
    /// OAuth 2.0 settings to change (an OAuth 2.0 MVPD only).
    package var oauth2: OAuth2MVPDFields?

    /// An empty update.
    package init() {}
}

/// One requestor × MVPD integration.
package struct IntegrationView: Codable, Sendable, Equatable {
    /// Requestor id.
    package var requestor: String
    /// MVPD id.
    package var mvpd: String
    /// Whether it is enabled.
    package var enabled: Bool
    /// Display name shown for this requestor instead of the MVPD's.
    package var displayName: String?
    /// Logo URL shown for this requestor instead of the MVPD's.
    package var logoURL: String?
    /// Profile lifetime for this requestor instead of the MVPD's, seconds.
    package var profileTTLSeconds: Int64?
    /// Preflight in one call: the most resources per MVPD call (absent: each resource asked on its own).
    package var preflightMaxResources: Int64?
    /// How preauthorize is answered: `lineup` (from the channel lineup of the sign-in, no MVPD call) or `mvpd`.
    package var preflightMode: String
    /// With `lineup`: the SAML attribute whose values are the lineup.
    package var lineupAttribute: String?
    /// How long home-based (HBA) sign-ins last instead, seconds.
    package var hbaProfileTTLSeconds: Int64?
    /// Resources home-based sign-ins are denied (absent: none).
    package var hbaDeniedResources: [String]?
    /// True when the integration comes from a proxy's push (a proxied MVPD's `requestorIds`, or its proxy's
    /// integrations), not from an operator; absent otherwise.
    package var pushed: Bool?

    package init(
        _ record: IntegrationRecord, preflightMaxResources: Int64? = nil, lineupAttribute: String? = nil, hba: HBAPolicy? = nil, pushed: Bool = false
    ) {
        self.pushed = pushed ? true : nil
        hbaProfileTTLSeconds = hba?.profileTTLSeconds
        hbaDeniedResources = hba.flatMap { $0.deniedResources.isEmpty ? nil : $0.deniedResources }
        (requestor, mvpd, enabled) = (record.requestorId, record.mvpdId, record.enabled != 0)
        (displayName, logoURL, profileTTLSeconds) = (record.displayName, record.logoUrl, record.profileTtlSeconds)
        self.preflightMaxResources = preflightMaxResources
        (preflightMode, self.lineupAttribute) = (lineupAttribute == nil ? "mvpd" : "lineup", lineupAttribute)
    }
}

/// A requestor as the admin API shows it.
package struct RequestorView: Codable, Sendable, Equatable {
    /// Id.
    package var id: String
    /// Name.
    package var name: String
    /// Registered domains.
    package var domains: [String]
    /// Most resources per preauthorization.
    package var maxResources: Int64
    /// Whether a programmer certificate (encrypted user metadata) is set.
    package var programmerCertificate: Bool
    /// Profile lifetime, seconds, of its integrations that set none (nil: each MVPD's own).
    package var defaultProfileTTLSeconds: Int64?
    /// How long MVPD authorization answers are kept, seconds, for its integrations that set none (nil: each MVPD's own).
    package var defaultAuthorizationTTLSeconds: Int64?
    /// Most resources per preflight call, for its integrations that set none (nil: preflight in one call off).
    package var defaultPreflightMaxResources: Int64?
    /// Whether disabled.
    package var disabled: Bool
    /// Its integrations.
    package var integrations: [IntegrationView]

    package init(_ r: RequestorRecord, disabled: Bool, integrations: [IntegrationRecord]) {
        (id, name, domains, maxResources, programmerCertificate) = (r.id, r.name, r.domains, r.maxResources, r.metadataCertificatePem != nil)
        (defaultProfileTTLSeconds, defaultAuthorizationTTLSeconds, defaultPreflightMaxResources) =
            (r.defaultProfileTtlSeconds, r.defaultAuthzTtlSeconds, r.defaultPreflightMaxResources)
        self.disabled = disabled
        self.integrations = integrations.filter { $0.requestorId == r.id }.map { IntegrationView($0) }
    }
}

/// An MVPD as the admin API and `mvpd show` present it: its settings, never its secrets.
package struct MVPDView: Codable, Sendable, Equatable {
    /// Id.
    package var id: String
    /// Display name.
    package var name: String
    /// `saml` or `temppass` (and the kinds added later).
    package var kind: String
    /// Logo URL.
    package var logoURL: String
    /// SAML entity id.
    package var entityID: String?
    /// SAML sign-in URL.
    package var singleSignOnURL: String?
    /// SAML single logout URL.
    package var singleLogoutURL: String?
    /// Signing certificates held.
    package var signingCertificates: Int
    /// Authorization endpoint.
    package var authorizationURL: String?
    /// `entitle-json`, `xacml`, `rest` or `none`.
    package var authorizationProtocol: String
    /// How XACML travels: `plain` or `soap`.
    package var xacmlBinding: String
    /// Whether SOAP XACML queries are signed with the SAML SP key.
    package var signAuthorizationQueries: Bool
    /// Preflight in one call: the most resources per MVPD call, by requestor (integrations without it are absent).
    package var preflightMaxResources: [String: Int64]
    /// Preflight by channel lineup: the lineup attribute, by requestor (integrations that ask the MVPD are absent).
    package var preflightLineup: [String: String]
    /// An OAuth 2.0 MVPD's settings (never its client secret).
    package var oauth2: OAuth2MVPDView?
    /// Whether an authorization bearer key is set (the key itself is never shown).
    package var authorizationKeySet: Bool
    /// Whether every authenticated subscriber is authorized.
    package var authorizeAll: Bool
    /// Whether RSA-SHA1 is accepted from this IdP.
    package var allowRSASHA1: Bool
    /// SFSafariViewController.
    package var requiresSafariViewController: Bool
    /// Apple SSO.
    package var enablePlatformServices: Bool
    /// Apple SSO boarding status.
    package var boardingStatus: String?
    /// Shown in Apple's picker.
    package var displayInPlatformPicker: Bool
    /// Profile lifetime, seconds.
    package var profileTTLSeconds: Int64
    /// User-metadata keys delivered encrypted.
    package var encryptedAttributes: [String]
    /// User-metadata key → SAML attribute names.
    package var attributeMapping: [String: [String]]
    /// Whether disabled for every requestor.
    package var disabled: Bool
    /// Its integrations.
    package var integrations: [IntegrationView]
    /// The proxy MVPD a proxied MVPD signs in through (absent for other MVPDs).
    package var proxyMVPD: String? = nil
    /// A proxy's settings (absent unless the MVPD is a proxy).
    package var proxy: ProxyMVPDRecord? = nil
    /// What the proxy pushed for a proxied MVPD (absent for other MVPDs).
    package var proxied: ProxiedMVPDRecord? = nil

    package init(
        _ m: MVPDRecord, protocol kind: MVPDAuthorizationProtocol, xacml: MVPDXACMLOptions, preflight: [String: Int64],
        lineup: [String: String] = [:], oauth2: MVPDOAuth2Record?, saml: MVPDSAMLOptionsRecord?, disabled: Bool, integrations: [IntegrationRecord]
    ) {
        (xacmlBinding, signAuthorizationQueries, preflightMaxResources) = (xacml.binding.rawValue, xacml.signQueries, preflight)
        preflightLineup = lineup
        self.oauth2 = oauth2.map(OAuth2MVPDView.init)
        (id, name, self.kind, logoURL, entityID) = (m.id, m.displayName, m.kind.rawValue, m.logoUrl, m.entityId)
        (singleSignOnURL, singleLogoutURL, signingCertificates) = (m.ssoUrl, m.sloUrl, m.certificates.count)
        (authorizationURL, authorizationProtocol, authorizationKeySet) = (m.authorizationUrl, kind.rawValue, m.authorizationKey != nil)
        (authorizeAll, allowRSASHA1, attributeMapping) = (saml?.authorizeAll ?? false, saml?.allowRSASHA1 ?? false, saml?.attributeMapping ?? [:])
        (requiresSafariViewController, enablePlatformServices) = (m.requiresSafariViewController, m.enablePlatformServices)
        (boardingStatus, displayInPlatformPicker, profileTTLSeconds) = (m.boardingStatus, m.displayInPlatformPicker, m.profileTtlSeconds)
        encryptedAttributes = m.encryptedAttributes
        self.disabled = disabled
        self.integrations = integrations.map { IntegrationView($0) }
    }
}
