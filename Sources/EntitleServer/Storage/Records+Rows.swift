import EntitleCore

// The stored shapes of the catalog records: flags as 0/1 integers, lists as JSON text. Only Storage sees them.

extension RequestorRecord: StoredRecord {
    /// A `requestors` row.
    struct Row: Decodable {
        var id: String
        var name: String
        var domains: String
        var maxResources: Int64
        var metadataCertificatePem: String?
        var defaultProfileTtlSeconds: Int64?
        var defaultAuthzTtlSeconds: Int64?
        var defaultPreflightMaxResources: Int64?
    }

    init(row: Row) {
        self.init(
            id: row.id, name: row.name, domains: JSONText.decode(row.domains), maxResources: row.maxResources,
            metadataCertificatePem: row.metadataCertificatePem, defaultProfileTtlSeconds: row.defaultProfileTtlSeconds,
            defaultAuthzTtlSeconds: row.defaultAuthzTtlSeconds, defaultPreflightMaxResources: row.defaultPreflightMaxResources)
    }
}

extension MVPDRecord: StoredRecord {
    /// An `mvpds` row.
    struct Row: Decodable {
        var id: String
        var displayName: String
        var logoUrl: String
        var kind: String
        var entityId: String?
        var ssoUrl: String?
        var sloUrl: String?
        var certificates: String
        var authorizationUrl: String?
        var authorizationKey: String?
        var requiresSvc: Int64
        var enablePlatformServices: Int64
        var boardingStatus: String?
        var platformMappingId: String?
        var displayInPlatformPicker: Int64
        var temppassMinutes: Int64?
        var profileTtlSeconds: Int64
        var encryptedAttributes: String
        var temppassResourceLimit: Int64?
    }

    init(row: Row) {
        self.init(
            id: row.id, displayName: row.displayName, logoUrl: row.logoUrl, kind: MVPDKind(rawValue: row.kind),
            entityId: row.entityId, ssoUrl: row.ssoUrl, sloUrl: row.sloUrl, certificates: JSONText.decode(row.certificates),
            authorizationUrl: row.authorizationUrl, authorizationKey: row.authorizationKey,
            requiresSafariViewController: Bool(storedFlag: row.requiresSvc),
            enablePlatformServices: Bool(storedFlag: row.enablePlatformServices), boardingStatus: row.boardingStatus,
            platformMappingId: row.platformMappingId, displayInPlatformPicker: Bool(storedFlag: row.displayInPlatformPicker),
            temppassMinutes: row.temppassMinutes, profileTtlSeconds: row.profileTtlSeconds,
            encryptedAttributes: JSONText.decode(row.encryptedAttributes), temppassResourceLimit: row.temppassResourceLimit)
    }
}

extension SoftwareStatementRecord: StoredRecord {
    /// A `software_statements` row.
    struct Row: Decodable {
        var softwareId: String
        var requestorId: String
        var name: String
        var redirectUris: String
        var issuedAt: Int64
        var revoked: Int64
    }

    init(row: Row) {
        self.init(
            softwareId: row.softwareId, requestorId: row.requestorId, name: row.name,
            redirectURIs: JSONText.decode(row.redirectUris), issuedAt: row.issuedAt, revoked: Bool(storedFlag: row.revoked))
    }
}

extension ClientRecord: StoredRecord {
    /// A `clients` row.
    struct Row: Decodable {
        var clientId: String
        var secretHash: String
        var softwareId: String
        var requestorId: String
        var redirectUris: String
        var issuedAt: Int64
        var revoked: Int64
    }

    init(row: Row) {
        self.init(
            clientId: row.clientId, secretHash: row.secretHash, softwareId: row.softwareId, requestorId: row.requestorId,
            redirectURIs: JSONText.decode(row.redirectUris), issuedAt: row.issuedAt, revoked: Bool(storedFlag: row.revoked))
    }
}
