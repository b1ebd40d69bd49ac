import EntitleCore
import EntitleModel

// The stored shapes of the catalog records: flags as 0/1 integers, lists as JSON text. Only Storage sees them.

extension RequestorRecord: StoredRecord {
    /// A `requestors` row.
    package struct Row: Decodable {
        package var id: String
        package var name: String
        package var domains: String
        package var maxResources: Int64
        package var metadataCertificatePem: String?
        package var defaultProfileTtlSeconds: Int64?
        package var defaultAuthzTtlSeconds: Int64?
        package var defaultPreflightMaxResources: Int64?

        /// Creates the value from each of its stored properties.
        package init(
            id: String, name: String, domains: String, maxResources: Int64, metadataCertificatePem: String? = nil,
            defaultProfileTtlSeconds: Int64? = nil, defaultAuthzTtlSeconds: Int64? = nil, defaultPreflightMaxResources: Int64? = nil
        ) {
            self.id = id
            self.name = name
            self.domains = domains
            self.maxResources = maxResources
            self.metadataCertificatePem = metadataCertificatePem
            self.defaultProfileTtlSeconds = defaultProfileTtlSeconds
            self.defaultAuthzTtlSeconds = defaultAuthzTtlSeconds
            self.defaultPreflightMaxResources = defaultPreflightMaxResources
        }
    }

    package init(row: Row) {
        self.init(
            id: row.id, name: row.name, domains: JSONText.decode(row.domains), maxResources: row.maxResources,
            metadataCertificatePem: row.metadataCertificatePem, defaultProfileTtlSeconds: row.defaultProfileTtlSeconds,
            defaultAuthzTtlSeconds: row.defaultAuthzTtlSeconds, defaultPreflightMaxResources: row.defaultPreflightMaxResources)
    }
}

extension MVPDRecord: StoredRecord {
    /// An `mvpds` row.
    package struct Row: Decodable {
        package var id: String
        package var displayName: String
        package var logoUrl: String
        package var kind: String
        package var entityId: String?
        package var ssoUrl: String?
        package var sloUrl: String?
        package var certificates: String
        package var authorizationUrl: String?
        package var authorizationKey: String?
        package var requiresSvc: Int64
        package var enablePlatformServices: Int64
        package var boardingStatus: String?
        package var platformMappingId: String?
        package var displayInPlatformPicker: Int64
        package var temppassMinutes: Int64?
        package var profileTtlSeconds: Int64
        package var encryptedAttributes: String
        package var temppassResourceLimit: Int64?
        /// The proxy of a proxied MVPD (migration 116).
        package var proxyMvpdId: String? = nil

        /// Creates the value from each of its stored properties.
        package init(
            id: String, displayName: String, logoUrl: String, kind: String, entityId: String? = nil, ssoUrl: String? = nil, sloUrl: String? = nil,
            certificates: String, authorizationUrl: String? = nil, authorizationKey: String? = nil, requiresSvc: Int64, enablePlatformServices: Int64,
            boardingStatus: String? = nil, platformMappingId: String? = nil, displayInPlatformPicker: Int64, temppassMinutes: Int64? = nil,
            profileTtlSeconds: Int64, encryptedAttributes: String, temppassResourceLimit: Int64? = nil
        ) {
            self.id = id
            self.displayName = displayName
            self.logoUrl = logoUrl
            self.kind = kind
            self.entityId = entityId
            self.ssoUrl = ssoUrl
            self.sloUrl = sloUrl
            self.certificates = certificates
            self.authorizationUrl = authorizationUrl
            self.authorizationKey = authorizationKey
            self.requiresSvc = requiresSvc
            self.enablePlatformServices = enablePlatformServices
            self.boardingStatus = boardingStatus
            self.platformMappingId = platformMappingId
            self.displayInPlatformPicker = displayInPlatformPicker
            self.temppassMinutes = temppassMinutes
            self.profileTtlSeconds = profileTtlSeconds
            self.encryptedAttributes = encryptedAttributes
            self.temppassResourceLimit = temppassResourceLimit
        }
    }

    package init(row: Row) {
        self.init(
            id: row.id, displayName: row.displayName, logoUrl: row.logoUrl, kind: MVPDKind(rawValue: row.kind),
            entityId: row.entityId, ssoUrl: row.ssoUrl, sloUrl: row.sloUrl, certificates: JSONText.decode(row.certificates),
            authorizationUrl: row.authorizationUrl, authorizationKey: row.authorizationKey,
            requiresSafariViewController: Bool(storedFlag: row.requiresSvc),
            enablePlatformServices: Bool(storedFlag: row.enablePlatformServices), boardingStatus: row.boardingStatus,
            platformMappingId: row.platformMappingId, displayInPlatformPicker: Bool(storedFlag: row.displayInPlatformPicker),
            temppassMinutes: row.temppassMinutes, profileTtlSeconds: row.profileTtlSeconds,
            encryptedAttributes: JSONText.decode(row.encryptedAttributes), temppassResourceLimit: row.temppassResourceLimit)
        proxyMvpdId = row.proxyMvpdId
    }
}

extension SoftwareStatementRecord: StoredRecord {
    /// A `software_statements` row.
    package struct Row: Decodable {
        package var softwareId: String
        package var requestorId: String
        package var name: String
        package var redirectUris: String
        package var issuedAt: Int64
        package var revoked: Int64
        /// Migration 111.
        package var serverToServer: Int64

        /// Creates the value from each of its stored properties.
        package init(
            softwareId: String, requestorId: String, name: String, redirectUris: String, issuedAt: Int64, revoked: Int64, serverToServer: Int64 = 0
        ) {
            self.softwareId = softwareId
            self.requestorId = requestorId
            self.name = name
            self.redirectUris = redirectUris
            self.issuedAt = issuedAt
            self.revoked = revoked
            self.serverToServer = serverToServer
        }
    }

    package init(row: Row) {
        self.init(
            softwareId: row.softwareId, requestorId: row.requestorId, name: row.name,
            redirectURIs: JSONText.decode(row.redirectUris), issuedAt: row.issuedAt, revoked: Bool(storedFlag: row.revoked),
            serverToServer: Bool(storedFlag: row.serverToServer))
    }
}

extension ClientRecord: StoredRecord {
    /// A `clients` row.
    package struct Row: Decodable {
        package var clientId: String
        package var secretHash: String
        package var softwareId: String
        package var requestorId: String
        package var redirectUris: String
        package var issuedAt: Int64
        package var revoked: Int64

        /// Creates the value from each of its stored properties.
        package init(
            clientId: String, secretHash: String, softwareId: String, requestorId: String, redirectUris: String, issuedAt: Int64, revoked: Int64
        ) {
            self.clientId = clientId
            self.secretHash = secretHash
            self.softwareId = softwareId
            self.requestorId = requestorId
            self.redirectUris = redirectUris
            self.issuedAt = issuedAt
            self.revoked = revoked
        }
    }

    package init(row: Row) {
        self.init(
            clientId: row.clientId, secretHash: row.secretHash, softwareId: row.softwareId, requestorId: row.requestorId,
            redirectURIs: JSONText.decode(row.redirectUris), issuedAt: row.issuedAt, revoked: Bool(storedFlag: row.revoked))
    }
}
