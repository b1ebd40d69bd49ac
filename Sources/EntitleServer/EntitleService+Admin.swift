import EntitleCore
import Foundation
import SAML

/// Administration: requestors, MVPD integrations, keys. Used by `entitle admin` and by the demo seeding.
extension EntitleService {
    /// Prepares the database: schema and signing keys.
    package func prepare() async throws {
        try await repository.migrate(logger: logger, now: now)
        try await keys.ensureKeys()
        try await repository.purgeExpired(now: now)
    }

    /// Creates or updates a requestor.
    package func saveRequestor(id: String, name: String, domains: [String], maxResources: Int = 5, metadataCertificatePEM: String?) async throws {
        try await repository.catalog.upsertRequestor(
            RequestorRecord(
                id: id, name: name, domains: domains, maxResources: Int64(maxResources),
                metadataCertificatePem: metadataCertificatePEM))
    }

    /// Options of an MVPD integration beyond its SAML metadata.
    package struct MVPDOptions: Sendable {
        /// Display name.
        package var displayName: String
        /// Logo URL.
        package var logoURL: String
        /// Authorization API URL.
        package var authorizationURL: String?
        /// Authorization API bearer key.
        package var authorizationKey: String?
        /// Whether the login needs SFSafariViewController.
        package var requiresSafariViewController = false
        /// Whether platform SSO is enabled.
        package var enablePlatformServices = false
        /// Platform boarding status.
        package var boardingStatus: String?
        /// Whether shown in the platform picker.
        package var displayInPlatformPicker = false
        /// Profile lifetime, seconds (30 days by default).
        package var profileTTLSeconds: Int64 = 30 * 86_400
        /// User-metadata keys delivered encrypted.
        package var encryptedAttributes: [String] = []
        /// User-metadata key → SAML attribute names (or `NameID`) it is read from, before ``SAMLAttributeMapping/defaults``.
        package var attributeMapping: [String: [String]] = [:]
        /// Accept RSA-SHA1 signatures and SHA-1 digests from this IdP (a legacy MVPD; logged as a warning).
        package var allowRSASHA1 = false
        /// Without an authorization URL, authorize every authenticated subscriber (instead of `invalid_integration`).
        package var authorizeAllAuthenticated = false
        /// How authorization is asked (nil: leave as configured, `entitle-json` for a new MVPD).
        package var authorizationProtocol: MVPDAuthorizationProtocol?
        /// How XACML travels (nil: leave as configured, `plain` for a new MVPD).
        package var xacmlBinding: XACMLBinding?
        /// Whether SOAP XACML queries are signed with the SAML SP key (nil: leave as configured, unsigned for a new MVPD).
        package var signAuthorizationQueries: Bool?

        /// The authorization settings these options change.
        var authorizationSettings: AuthorizationSettings {
            AuthorizationSettings(authorizationProtocol: authorizationProtocol, xacmlBinding: xacmlBinding, signQueries: signAuthorizationQueries)
        }

        /// Creates options.
        package init(displayName: String, logoURL: String, authorizationURL: String? = nil, authorizationKey: String? = nil) {
            self.displayName = displayName
            self.logoURL = logoURL
            self.authorizationURL = authorizationURL
            self.authorizationKey = authorizationKey
        }
    }

    /// Adds or updates a SAML MVPD from an identity provider's metadata XML and integrates it with `requestors`.
    @discardableResult
    package func importSAMLMVPD(id: String, metadataXML: String, options: MVPDOptions, requestors: [String]) async throws -> IdentityProviderMetadata
    {
        if options.authorizeAllAuthenticated && options.authorizationURL != nil {
            throw ConfigurationError("An MVPD with an authorization URL cannot also authorize every authenticated subscriber.")
        }
        let authorization = try await checkAuthorizationSettings(mvpd: id, authorizationURL: options.authorizationURL, options.authorizationSettings)
        let metadata = try IdentityProviderMetadata.parse(xml: metadataXML)
        guard !metadata.signingCertificates.isEmpty else { throw ConfigurationError("The IdP metadata has no signing certificate.") }
        let pems = try metadata.signingCertificates.map { try $0.serializeAsPEM().pemString }
        try await repository.catalog.upsertMVPD(
            MVPDRecord(
                id: id, displayName: options.displayName, logoUrl: options.logoURL, kind: .saml, entityId: metadata.entityID,
                ssoUrl: metadata.singleSignOnRedirectURL, sloUrl: metadata.singleLogoutRedirectURL, certificates: pems,
                authorizationUrl: options.authorizationURL, authorizationKey: options.authorizationKey,
                requiresSafariViewController: options.requiresSafariViewController, enablePlatformServices: options.enablePlatformServices,
                boardingStatus: options.boardingStatus, platformMappingId: options.enablePlatformServices ? id : nil,
                displayInPlatformPicker: options.displayInPlatformPicker, temppassMinutes: nil,
                profileTtlSeconds: options.profileTTLSeconds, encryptedAttributes: options.encryptedAttributes,
                temppassResourceLimit: nil))
        try await recordSSOPostBinding(mvpd: id, metadataXML: metadataXML)
        try await repository.mvpdOptions.upsertSAMLOptions(
            MVPDSAMLOptionsRecord(
                mvpdId: id, attributeMapping: options.attributeMapping, allowRSASHA1: options.allowRSASHA1,
                authorizeAll: options.authorizeAllAuthenticated))
        try await storeAuthorizationSettings(mvpd: id, authorization)
        if options.allowRSASHA1 {
            logger.warning(
                "RSA-SHA1 signatures enabled for an MVPD: SHA-1 is broken, ask the MVPD to sign with RSA-SHA256",
                metadata: ["mvpd": "\(id.logEscaped)"])
        }
        for requestor in requestors { try await repository.catalog.setIntegration(requestor: requestor, mvpd: id, enabled: true) }
        return metadata
    }

    /// Adds or updates a TempPass pseudo-MVPD and integrates it with `requestors`.
    /// A `resourceLimit` makes it a Promotional TempPass: that many distinct resources per identity (`AP-TempPass-Identity`).
    package func saveTempPassMVPD(
        id: String, displayName: String, logoURL: String, minutes: Int, resourceLimit: Int? = nil,
        requestors: [String]
    ) async throws {
        try await repository.catalog.upsertMVPD(
            MVPDRecord(
                id: id, displayName: displayName, logoUrl: logoURL, kind: .tempPass, entityId: nil, ssoUrl: nil, sloUrl: nil,
                certificates: [], authorizationUrl: nil, authorizationKey: nil, requiresSafariViewController: false, enablePlatformServices: false,
                boardingStatus: nil, platformMappingId: nil, displayInPlatformPicker: false, temppassMinutes: Int64(minutes),
                profileTtlSeconds: Int64(minutes) * 60, encryptedAttributes: [], temppassResourceLimit: resourceLimit.map(Int64.init)))
        for requestor in requestors { try await repository.catalog.setIntegration(requestor: requestor, mvpd: id, enabled: true) }
    }

    /// Issues a requestor key pair for the legacy HMAC header; returns (public key, private key).
    package func issueLegacyKeyPair(requestor: String) async throws -> (publicKey: String, privateKey: String) {
        guard try await repository.catalog.requestor(id: requestor) != nil else { throw ConfigurationError("Unknown requestor \(requestor).") }
        // A public key is typed on command lines (`legacy-key revoke KEY`), where a leading "-" reads as an option.
        var publicKey = Secrets.randomToken(bytes: 24)
        while publicKey.hasPrefix("-") { publicKey = Secrets.randomToken(bytes: 24) }
        let privateKey = Secrets.randomToken(bytes: 32)
        try await repository.legacy.insertLegacyAppKey(
            LegacyAppKeyRecord(
                publicKey: publicKey, requestorId: requestor, privateKey: privateKey,
                createdAt: now, revoked: false))
        return (publicKey, privateKey)
    }
}

extension EntitleService {
    /// Resets TempPasses of an MVPD (admin): of one device (its raw id), of one identity (the JSON the app sends in
    /// `AP-TempPass-Identity`, plain or Base64), or all of them. Returns how many passes were removed.
    package func resetTempPass(requestor: String, mvpd: String, device: String?, identity: String?) async throws -> Int {
        try await tempPass.resetTempPass(requestor: requestor, mvpd: mvpd, device: device, identity: identity)
    }

    /// Sets a degradation rule (admin).
    package func setDegradation(requestor: String, mvpd: String, rule: DegradationRule, start: Date, end: Date) async throws {
        try await degradation.setDegradation(requestor: requestor, mvpd: mvpd, rule: rule, start: start, end: end)
    }
}
