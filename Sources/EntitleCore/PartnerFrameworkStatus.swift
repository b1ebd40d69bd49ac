import Foundation

/// The `AP-Partner-Framework-Status` header of Apple single sign-on: Base64 of
/// `{"frameworkPermissionInfo":{"accessStatus":"granted"},"frameworkProviderInfo":{"id":"…","expirationDate":"<ms>"}}`.
public struct PartnerFrameworkStatus: Codable, Sendable, Equatable {
    /// The user's permission for the app to use the TV provider account.
    public struct PermissionInfo: Codable, Sendable, Equatable {
        /// `granted`, `denied`, `restricted` or `notDetermined`.
        public var accessStatus: String
        /// Creates permission information.
        public init(accessStatus: String) { self.accessStatus = accessStatus }
    }

    /// The TV provider the platform account is signed in to.
    public struct ProviderInfo: Codable, Sendable, Equatable {
        /// The platform's provider id (the MVPD's `platformMappingId`).
        public var id: String?
        /// When the platform's information expires, epoch ms (a string or a number on the wire).
        public var expirationDate: Int64?

        /// Creates provider information.
        public init(id: String?, expirationDate: Int64?) {
            self.id = id
            self.expirationDate = expirationDate
        }

        enum CodingKeys: String, CodingKey { case id, expirationDate }

        /// Decodes, accepting the expiration date as a string or a number.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decodeIfPresent(String.self, forKey: .id)
            if let number = try? c.decodeIfPresent(Int64.self, forKey: .expirationDate) {
                expirationDate = number
            } else if let text = try c.decodeIfPresent(String.self, forKey: .expirationDate) {
                guard let number = Int64(text) else {
                    throw DecodingError.dataCorruptedError(forKey: .expirationDate, in: c, debugDescription: "not epoch milliseconds")
                }
                expirationDate = number
            } else {
                expirationDate = nil
            }
        }

        /// Encodes the expiration date as a string, as documented.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(id, forKey: .id)
            try c.encodeIfPresent(expirationDate.map(String.init), forKey: .expirationDate)
        }
    }

    /// Permission information.
    public var frameworkPermissionInfo: PermissionInfo?
    /// Provider information.
    public var frameworkProviderInfo: ProviderInfo?

    /// Creates a status.
    public init(frameworkPermissionInfo: PermissionInfo?, frameworkProviderInfo: ProviderInfo?) {
        self.frameworkPermissionInfo = frameworkPermissionInfo
        self.frameworkProviderInfo = frameworkProviderInfo
    }

    /// The header value.
    public func headerValue() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return ((try? encoder.encode(self)) ?? Data("{}".utf8)).base64EncodedString()
    }

    /// Decodes and checks a header: permission granted, provider known, not expired at `now` (ms).
    /// Throws the documented `invalid_header_pfs_*` errors.
    public static func validate(header: String?, now: Int64) throws(EnhancedError) -> (status: PartnerFrameworkStatus, providerID: String) {
        guard let header, header.count <= 8192, let data = Data(base64Lenient: header),
            let status = try? JSONDecoder().decode(PartnerFrameworkStatus.self, from: data),
            let permission = status.frameworkPermissionInfo
        else {
            throw EnhancedError.pfsPermissionAccessNotPresent
        }
        switch permission.accessStatus {
        case "granted": break
        case "notDetermined": throw EnhancedError.pfsPermissionAccessNotDetermined
        default: throw EnhancedError.pfsPermissionAccessNotGranted
        }
        guard let provider = status.frameworkProviderInfo, let id = provider.id, !id.isEmpty else {
            throw EnhancedError.pfsProviderIDNotDetermined
        }
        if let expiry = provider.expirationDate, expiry <= now { throw EnhancedError.pfsProviderInfoExpired }
        return (status, id)
    }
}

extension EnhancedError {
    /// The framework status header or its permission information is missing or malformed.
    public static var pfsPermissionAccessNotPresent: EnhancedError {
        EnhancedError(
            action: "none", status: 400, code: "invalid_header_pfs_permission_access_not_present",
            message: "The partner framework status header is missing or has no permission information.")
    }
    /// The user has not yet decided whether the app may use the TV provider account.
    public static var pfsPermissionAccessNotDetermined: EnhancedError {
        EnhancedError(
            action: "none", status: 400, code: "invalid_header_pfs_permission_access_not_determined",
            message: "The user has not decided whether to share the TV provider account.")
    }
    /// The user did not grant access to the TV provider account.
    public static var pfsPermissionAccessNotGranted: EnhancedError {
        EnhancedError(
            action: "none", status: 400, code: "invalid_header_pfs_permission_access_not_granted",
            message: "The user did not grant access to the TV provider account.")
    }
    /// No provider id in the framework status.
    public static var pfsProviderIDNotDetermined: EnhancedError {
        EnhancedError(
            action: "none", status: 400, code: "invalid_header_pfs_provider_id_not_determined",
            message: "The partner framework status has no provider id.")
    }
    /// The provider id does not match an MVPD boarded for partner single sign-on.
    public static var pfsProviderIDMismatch: EnhancedError {
        EnhancedError(
            action: "none", status: 400, code: "invalid_header_pfs_provider_id_mismatch",
            message: "The provider id does not match an MVPD enabled for partner single sign-on.")
    }
    /// The platform's provider information has expired.
    public static var pfsProviderInfoExpired: EnhancedError {
        EnhancedError(
            action: "none", status: 400, code: "invalid_header_pfs_provider_info_expired",
            message: "The partner framework provider information has expired.")
    }
    /// The partner in the path is not supported.
    public static var invalidPartner: EnhancedError {
        EnhancedError(action: "none", status: 400, code: "invalid_parameter_partner", message: "The partner parameter value is missing or invalid.")
    }
}
