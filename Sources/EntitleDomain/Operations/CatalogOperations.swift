import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// The catalog as code, for every front end (`entitle admin catalog`, the admin API): export the catalog as a
/// ``CatalogDocument``, compute the plan that makes the service match a document, and apply it through the operations
/// of each family, so that every change lands in the changes log (with the description `catalog.apply`).
package struct CatalogOperations: Sendable {
    package let requestors: RequestorOperations
    package let mvpds: MVPDOperations
    package let oauth2MVPDs: OAuth2MVPDOperations
    package let integrations: IntegrationOperations
    package let ssoIssuers: SSOOperations
    package let applications: ApplicationOperations
    package let keyOperations: KeyOperations
    package let proxyMVPDs: ProxyMVPDOperations
    /// SSO issuers with their keys.
    package let sso: SSOStore
    /// Software statements.
    package let clients: ClientStore
    package let changes: ChangeRecorder
    package let clock: any ServiceClock

    package var catalog: CatalogStore { mvpds.catalog }
    package var mvpdOptions: MVPDOptionsStore { mvpds.mvpdOptions }
    package var onboarding: CatalogAdminStore { mvpds.onboarding }

    /// The description recorded with each change of an apply.
    package static let changeDescription = "catalog.apply"

    /// Creates the value from each of its stored properties.
    package init(
        requestors: RequestorOperations, mvpds: MVPDOperations, oauth2MVPDs: OAuth2MVPDOperations, integrations: IntegrationOperations,
        ssoIssuers: SSOOperations, applications: ApplicationOperations, keyOperations: KeyOperations, proxyMVPDs: ProxyMVPDOperations,
        sso: SSOStore, clients: ClientStore, changes: ChangeRecorder, clock: any ServiceClock
    ) {
        (self.requestors, self.mvpds, self.oauth2MVPDs, self.integrations) = (requestors, mvpds, oauth2MVPDs, integrations)
        (self.ssoIssuers, self.applications, self.keyOperations, self.proxyMVPDs) = (ssoIssuers, applications, keyOperations, proxyMVPDs)
        (self.sso, self.clients, self.changes, self.clock) = (sso, clients, changes, clock)
    }

    /// The file name of a secret's reference in an export (`secrets/` + this).
    package static func secretFileName(mvpd: String, _ name: String) -> String { "\(mvpd)-\(name)" }

    /// The folder the export's secret references point into, relative to the document.
    package static let defaultSecretsFolder = "secrets"

    /// The whole catalog, normalized, its secrets with their values (in memory) and references to
    /// `secretsFolder/<mvpd>-authorization-key` and `…-oauth2-client-secret`.
    package func export(secretsFolder: String = defaultSecretsFolder) async throws -> CatalogDocument {
        // The whole catalog is service-wide: a scoped operator reads its part through the lists instead.
        if let reach = OperatorReach.scoped { throw reach.outOfScope("the whole catalog") }
        var document = CatalogDocument()
        let algorithms = Dictionary(
            try await keyOperations.mediaTokenAlgorithms().map { ($0.requestorId, $0.algorithm.rawValue) }, uniquingKeysWith: { a, _ in a })
        let disabledRequestors = try await onboarding.disabledRequestorIDs()
        for record in try await catalog.allRequestors() {
            var requestor = CatalogDocument.Requestor(id: record.id, name: record.name)
            requestor.domains = record.domains
            requestor.maxResources = record.maxResources
            requestor.programmerCertificate = record.metadataCertificatePem
            requestor.defaultProfileTTLSeconds = record.defaultProfileTtlSeconds
            requestor.defaultAuthorizationTTLSeconds = record.defaultAuthzTtlSeconds
            requestor.defaultPreflightMaxResources = record.defaultPreflightMaxResources
            requestor.mediaTokenAlgorithm = algorithms[record.id]
            requestor.disabled = disabledRequestors.contains(record.id)
            document.requestors.append(requestor)
        }
        let ttls = try await catalog.authorizationTTLs()
        let disabledMVPDs = try await onboarding.disabledMVPDIDs()
        let metadataURLs = Dictionary(try await onboarding.metadataSources().map { ($0.mvpd, $0.url) }, uniquingKeysWith: { a, _ in a })
        for record in try await catalog.allMVPDs() where record.proxyMvpdId == nil {
            document.mvpds.append(
                try await exportMVPD(
                    record, disabled: disabledMVPDs.contains(record.id), metadataURL: metadataURLs[record.id],
                    ttl: ttls.first { $0.mvpdId == record.id && $0.requestorId == AuthorizationTTLRecord.anyRequestor }?.ttlSeconds,
                    secretsFolder: secretsFolder))
        }
        let proxied = Set(try await catalog.allMVPDs().filter { $0.proxyMvpdId != nil }.map(\.id))
        for record in try await onboarding.integrations(requestor: nil, mvpd: nil) where !proxied.contains(record.mvpdId) {
            var integration = CatalogDocument.Integration(requestor: record.requestorId, mvpd: record.mvpdId)
            integration.enabled = record.enabled != 0
            integration.displayName = record.displayName
            integration.logoURL = record.logoUrl
            integration.profileTTLSeconds = record.profileTtlSeconds
            integration.authorizationTTLSeconds = ttls.first { $0.mvpdId == record.mvpdId && $0.requestorId == record.requestorId }?.ttlSeconds
            integration.preflightMaxResources = try await mvpdOptions.integrationPreflightMaxResources(
                requestor: record.requestorId, mvpd: record.mvpdId)
            integration.preflightLineupAttribute = try await mvpdOptions.preflightLineupAttribute(requestor: record.requestorId, mvpd: record.mvpdId)
            if let policy = try await mvpdOptions.hbaPolicy(requestor: record.requestorId, mvpd: record.mvpdId) {
                integration.hba = CatalogDocument.HBA(profileTTLSeconds: policy.profileTTLSeconds, deniedResources: policy.deniedResources)
            }
            document.integrations.append(integration)
        }
        for record in try await sso.issuers() {
            var issuer = CatalogDocument.SSOIssuer(id: record.id, type: record.type.rawValue, issuer: record.issuer, requestors: record.requestors)
            issuer.audience = record.audience
            issuer.publicKeys = record.publicKeys
            issuer.jwksURL = record.jwksURL
            document.ssoIssuers.append(issuer)
        }
        for record in try await clients.softwareStatementsForAdmin(requestor: nil) {
            var statement = CatalogDocument.SoftwareStatement(
                id: record.softwareId, requestor: record.requestorId, name: record.name, redirectURIs: record.redirectURIs)
            statement.serverToServer = record.serverToServer
            statement.revoked = record.revoked
            statement.proxyMVPD = try await catalog.proxyOfSoftwareStatement(record.softwareId)
            document.softwareStatements.append(statement)
        }
        return document.normalized()
    }

    /// One MVPD with its options.
    private func exportMVPD(
        _ record: MVPDRecord, disabled: Bool, metadataURL: String?, ttl: Int64?, secretsFolder: String
    ) async throws -> CatalogDocument.MVPD {
        var mvpd = CatalogDocument.MVPD(id: record.id, kind: record.kind.rawValue, displayName: record.displayName)
        mvpd.logoURL = record.logoUrl
        mvpd.disabled = disabled
        mvpd.profileTTLSeconds = record.profileTtlSeconds
        mvpd.encryptedAttributes = record.encryptedAttributes
        mvpd.requiresSafariViewController = record.requiresSafariViewController
        mvpd.enablePlatformServices = record.enablePlatformServices
        mvpd.boardingStatus = record.boardingStatus
        mvpd.platformMappingId = record.platformMappingId
        mvpd.displayInPlatformPicker = record.displayInPlatformPicker
        let samlOptions = try await mvpdOptions.samlOptions(mvpd: record.id)
        mvpd.attributeMapping = samlOptions?.attributeMapping
        var authorization = CatalogDocument.Authorization()
        authorization.protocol = try await catalog.authorizationProtocol(mvpd: record.id).rawValue
        authorization.url = record.authorizationUrl
        if let key = record.authorizationKey, !key.isEmpty {
            authorization.key = CatalogSecret(
                file: secretsFolder + "/" + Self.secretFileName(mvpd: record.id, "authorization-key"), value: key)
        }
        let xacml = try await mvpdOptions.xacmlOptions(mvpd: record.id)
        authorization.xacmlBinding = xacml.binding.rawValue
        authorization.signQueries = xacml.signQueries
        authorization.authorizeAll = samlOptions?.authorizeAll
        authorization.ttlSeconds = ttl
        mvpd.authorization = authorization
        switch record.kind {
        case .saml:
            var saml = CatalogDocument.SAML(entityID: record.entityId ?? "", certificates: record.certificates)
            saml.ssoURL = record.ssoUrl
            saml.ssoPostURL = try await mvpdOptions.ssoPostLocation(mvpd: record.id)
            saml.sloURL = record.sloUrl
            saml.metadataURL = metadataURL
            saml.allowRSASHA1 = samlOptions?.allowRSASHA1
            mvpd.saml = saml
        case .oauth2:
            if let settings = try await oauth2MVPDs.oauth2Store.oauth2Settings(mvpd: record.id) {
                let secret = try await oauth2MVPDs.cipher.open(
                    settings.encryptedClientSecret, context: OAuth2SignIn.clientSecretContext(mvpd: record.id))
                var oauth2 = CatalogDocument.OAuth2(
                    authorizeURL: settings.authorizeURL, tokenURL: settings.tokenURL, userinfoURL: settings.userinfoURL, clientID: settings.clientID,
                    clientSecret: CatalogSecret(
                        file: secretsFolder + "/" + Self.secretFileName(mvpd: record.id, "oauth2-client-secret"), value: secret))
                oauth2.issuer = settings.issuer
                oauth2.logoutURL = settings.logoutURL
                oauth2.scopes = settings.scopes
                oauth2.userIDClaim = settings.userIDClaim
                oauth2.tokenAuthMethod = settings.tokenAuthMethod
                oauth2.pkce = settings.pkce
                mvpd.oauth2 = oauth2
            }
        case .tempPass:
            mvpd.tempPass = CatalogDocument.TempPass(minutes: record.temppassMinutes ?? 0, resourceLimit: record.temppassResourceLimit)
        default:
            break
        }
        if let proxy = try await catalog.proxy(id: record.id) {
            mvpd.proxy = CatalogDocument.Proxy(listed: proxy.listed, allowedAddresses: proxy.allowedAddresses)
        }
        return mvpd.normalized()
    }
}
