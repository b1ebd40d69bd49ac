import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import SAML

/// SAML MVPDs: imported from an identity provider's metadata XML, unrecorded for the demo seeding and tests, checked
/// and recorded for every front end.
extension MVPDOperations {
    /// Adds or updates a SAML MVPD from an identity provider's metadata XML and integrates it with `requestors`.
    @discardableResult
    package func importSAML(id: String, metadataXML: String, options: MVPDOptions, requestors: [String]) async throws -> IdentityProviderMetadata {
        if options.authorizeAllAuthenticated && options.authorizationURL != nil {
            throw ConfigurationError("An MVPD with an authorization URL cannot also authorize every authenticated subscriber.")
        }
        let authorization = try await lookups.checkAuthorizationSettings(
            mvpd: id, authorizationURL: options.authorizationURL, options.authorizationSettings)
        let metadata = try IdentityProviderMetadata.parse(xml: metadataXML)
        guard !metadata.signingCertificates.isEmpty else { throw ConfigurationError("The IdP metadata has no signing certificate.") }
        let pems = try metadata.signingCertificates.map { try $0.serializeAsPEM().pemString }
        try await catalog.upsertMVPD(
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
        try await mvpdOptions.upsertSAMLOptions(
            MVPDSAMLOptionsRecord(
                mvpdId: id, attributeMapping: options.attributeMapping, allowRSASHA1: options.allowRSASHA1,
                authorizeAll: options.authorizeAllAuthenticated))
        try await lookups.storeAuthorizationSettings(mvpd: id, authorization)
        if options.allowRSASHA1 {
            logger.warning(
                "RSA-SHA1 signatures enabled for an MVPD: SHA-1 is broken, ask the MVPD to sign with RSA-SHA256",
                metadata: ["mvpd": "\(id.logEscaped)"])
        }
        for requestor in requestors { try await catalog.setIntegration(requestor: requestor, mvpd: id, enabled: true) }
        return metadata
    }

    /// Adds or replaces a SAML MVPD from its metadata, integrated with `requestors` (which must exist), and records it.
    @discardableResult
    package func importSAML(
        id: String, metadataXML: String, options: MVPDOptions, requestors: [String], actor: String
    ) async throws -> IdentityProviderMetadata {
        try AdminCatalog.checkMVPDID(id)
        try OperatorReach.requireMVPDSave(id, exists: try await catalog.mvpd(id: id) != nil)
        for requestor in requestors {
            try await lookups.existingRequestor(requestor, hint: "create it with `entitle admin requestor add`")
        }
        let before = try await catalog.mvpd(id: id) == nil ? nil : try await lookups.mvpdView(id: id)
        let metadata: IdentityProviderMetadata
        do {
            metadata = try await importSAML(id: id, metadataXML: metadataXML, options: options, requestors: requestors)
        } catch let error as SAMLError {
            throw AdminError("invalid_metadata", "the SAML metadata cannot be used: \(error)")
        } catch let error as ConfigurationError {
            throw AdminError("invalid_value", error.description)
        }
        try await changes.record(
            actor: actor, action: before == nil ? "mvpd.add" : "mvpd.update", target: id, before: before, after: try await lookups.mvpdView(id: id))
        return metadata
    }
}
