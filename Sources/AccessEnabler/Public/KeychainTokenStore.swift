#if canImport(Security)
import Foundation
import Security

/// A ``TokenStore`` in the Keychain (Apple platforms): generic passwords of one service, available after first unlock,
/// this device only.
public struct KeychainTokenStore: TokenStore {
    /// The Keychain service name.
    public let service: String
    /// An optional access group shared between apps.
    public let accessGroup: String?

    /// Creates a store for `service`.
    public init(service: String = "entitle.access-enabler", accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    private func query(_ key: String) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: key,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    /// Reads `key`.
    public func load(_ key: String) async throws -> Data? {
        var query = query(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw AccessEnablerError(code: .storage, message: "Keychain read failed (\(status))") }
        return result as? Data
    }

    /// Writes `key`.
    public func save(_ data: Data, for key: String) async throws {
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        var status = SecItemUpdate(query(key) as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            var add = query(key)
            add.merge(attributes) { $1 }
            status = SecItemAdd(add as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw AccessEnablerError(code: .storage, message: "Keychain write failed (\(status))") }
    }

    /// Deletes `key`.
    public func remove(_ key: String) async throws {
        let status = SecItemDelete(query(key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw AccessEnablerError(code: .storage, message: "Keychain delete failed (\(status))")
        }
    }
}
#endif
