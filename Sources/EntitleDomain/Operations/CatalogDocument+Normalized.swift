import EntitleCore
import EntitleModel
import Foundation

/// Defaults left out: the export writes each entity normalized, and plan compares normalized entities, so that a field
/// written with its default value (`disabled: false`) and one left out are the same.
extension CatalogDocument {
    /// The document with every entity normalized and each list in its order (by id).
    package func normalized() -> CatalogDocument {
        var copy = CatalogDocument(
            requestors: requestors.map { $0.normalized() }.sorted { $0.id < $1.id },
            mvpds: mvpds.map { $0.normalized() }.sorted { $0.id < $1.id },
            integrations: integrations.map { $0.normalized() }.sorted { ($0.requestor, $0.mvpd) < ($1.requestor, $1.mvpd) },
            ssoIssuers: ssoIssuers.map { $0.normalized() }.sorted { $0.id < $1.id },
            softwareStatements: softwareStatements.map { $0.normalized() }.sorted { ($0.requestor, $0.name, $0.id) < ($1.requestor, $1.name, $1.id) })
        copy.version = version
        return copy
    }
}

/// nil for a value equal to the default.
private func unlessDefault<T: Equatable>(_ value: T?, _ defaultValue: T) -> T? { value == defaultValue ? nil : value }

/// nil for an empty list or map.
private func unlessEmpty<T: Collection>(_ value: T?) -> T? { value?.isEmpty == true ? nil : value }

extension CatalogDocument.Requestor {
    /// The requestor with defaults left out (5 resources is written).
    package func normalized() -> Self {
        var copy = self
        copy.domains = unlessEmpty(domains)
        copy.maxResources = maxResources ?? 5
        copy.mediaTokenAlgorithm = unlessDefault(mediaTokenAlgorithm, MediaTokenAlgorithm.rsaSHA256.rawValue)
        copy.disabled = unlessDefault(disabled, false)
        copy.programmerCertificate = unlessDefault(programmerCertificate, "")
        return copy
    }
}

extension CatalogDocument.MVPD {
    /// The profile lifetime of an MVPD that sets none: TempPass, its pass; others, 30 days.
    package var defaultProfileTTLSeconds: Int64 { tempPass.map { $0.minutes * 60 } ?? 30 * 86_400 }

    /// The MVPD with defaults left out (its profile lifetime is written).
    package func normalized() -> Self {
        var copy = self
        copy.logoURL = unlessDefault(logoURL, "")
        copy.disabled = unlessDefault(disabled, false)
        copy.profileTTLSeconds = profileTTLSeconds ?? defaultProfileTTLSeconds
        copy.encryptedAttributes = unlessEmpty(encryptedAttributes)
        copy.requiresSafariViewController = unlessDefault(requiresSafariViewController, false)
        copy.enablePlatformServices = unlessDefault(enablePlatformServices, false)
        copy.boardingStatus = unlessDefault(boardingStatus, "")
        copy.displayInPlatformPicker = unlessDefault(displayInPlatformPicker, false)
        copy.attributeMapping = unlessEmpty(attributeMapping)
        if var authorization {
            authorization.protocol = unlessDefault(authorization.protocol, MVPDAuthorizationProtocol.entitleJSON.rawValue)
            authorization.xacmlBinding = unlessDefault(authorization.xacmlBinding, XACMLBinding.plain.rawValue)
            authorization.signQueries = unlessDefault(authorization.signQueries, false)
            authorization.authorizeAll = unlessDefault(authorization.authorizeAll, false)
            authorization.url = unlessDefault(authorization.url, "")
            copy.authorization = authorization == CatalogDocument.Authorization() ? nil : authorization
        }
        copy.saml?.allowRSASHA1 = unlessDefault(saml?.allowRSASHA1, false)
        if var oauth2 {
            oauth2.scopes = unlessEmpty(oauth2.scopes)
            oauth2.userIDClaim = unlessDefault(oauth2.userIDClaim, "sub")
            oauth2.tokenAuthMethod = unlessDefault(oauth2.tokenAuthMethod, "client_secret_basic")
            oauth2.pkce = unlessDefault(oauth2.pkce, true)
            copy.oauth2 = oauth2
        }
        copy.proxy?.allowedAddresses = unlessEmpty(proxy?.allowedAddresses)
        return copy
    }
}

extension CatalogDocument.Integration {
    /// The integration with defaults left out.
    package func normalized() -> Self {
        var copy = self
        copy.enabled = unlessDefault(enabled, true)
        copy.displayName = unlessDefault(displayName, "")
        copy.logoURL = unlessDefault(logoURL, "")
        copy.profileTTLSeconds = unlessDefault(profileTTLSeconds, 0)
        copy.preflightMaxResources = unlessDefault(preflightMaxResources, 0)
        if var hba {
            hba.profileTTLSeconds = unlessDefault(hba.profileTTLSeconds, 0)
            hba.deniedResources = unlessEmpty(hba.deniedResources)
            copy.hba = hba == CatalogDocument.HBA() ? nil : hba
        }
        return copy
    }
}

extension CatalogDocument.SSOIssuer {
    /// The issuer with defaults left out.
    package func normalized() -> Self {
        var copy = self
        copy.publicKeys = unlessEmpty(publicKeys)
        return copy
    }
}

extension CatalogDocument.SoftwareStatement {
    /// The statement with defaults left out.
    package func normalized() -> Self {
        var copy = self
        copy.serverToServer = unlessDefault(serverToServer, false)
        copy.revoked = unlessDefault(revoked, false)
        return copy
    }
}
