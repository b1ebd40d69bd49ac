import EntitleCore
import EntitleModel
import SQLKit

/// The service's signing keys and shared secrets.
package struct KeyStore: SQLStore {
    /// The database and caches this store shares with the others.
    package let base: SQLStoreBase

    /// Creates the value from each of its stored properties.
    package init(base: SQLStoreBase) {
        self.base = base
    }
}

extension KeyStore {
    /// The newest key of a purpose that is not retired.
    package func activeKey(purpose: KeyPurpose) async throws -> ServiceKeyRecord? {
        try await first(
            """
            SELECT * FROM service_keys WHERE purpose = \(bind: purpose.rawValue) AND retired_at IS NULL
            ORDER BY created_at DESC, kid DESC LIMIT 1
            """, as: ServiceKeyRecord.self)
    }

    /// Keys of a purpose still valid for verification: active ones and those retired after `retiredAfter` ms.
    package func verificationKeys(purpose: KeyPurpose, retiredAfter: Int64) async throws -> [ServiceKeyRecord] {
        try await all(
            """
            SELECT * FROM service_keys WHERE purpose = \(bind: purpose.rawValue)
            AND (retired_at IS NULL OR retired_at > \(bind: retiredAfter)) ORDER BY created_at DESC, kid DESC
            """, as: ServiceKeyRecord.self)
    }

    /// Stores a key unless one with that id exists.
    package func insertKey(_ key: ServiceKeyRecord) async throws {
        try await run(
            """
            INSERT INTO service_keys (kid, purpose, private_pem, certificate_pem, created_at, retired_at, activates_at)
            VALUES (\(bind: key.kid), \(bind: key.purpose.rawValue), \(bind: key.privatePem), \(bind: key.certificatePem),
                    \(bind: key.createdAt), \(bind: key.retiredAt), \(bind: key.activatesAt)) ON CONFLICT (kid) DO NOTHING
            """)
        try await catalogChanged()
    }

    /// Retires every active key of a purpose except `keep`.
    package func retireKeys(purpose: KeyPurpose, except keep: String, at now: Int64) async throws {
        try await run(
            """
            UPDATE service_keys SET retired_at = \(bind: now)
            WHERE purpose = \(bind: purpose.rawValue) AND retired_at IS NULL AND kid <> \(bind: keep)
            """)
        try await catalogChanged()
    }

    /// Every key of a purpose not retired before `retiredAfter` ms, pending ones included, from memory when cached.
    package func publishedKeys(purpose: KeyPurpose, retiredAfter: Int64) async throws -> [ServiceKeyRecord] {
        try await cached(catalogCache.verificationKeys, purpose) {
            try await verificationKeys(purpose: purpose, retiredAfter: retiredAfter)
        }.filter { $0.retiredAt.map { $0 > retiredAfter } ?? true }
    }
}

extension KeyStore {
    /// A key by id, whatever its state (a retired encryption key still decrypts), from the catalog cache.
    package func serviceKey(kid: String) async throws -> ServiceKeyRecord? {
        try await cached(catalogCache.serviceKeys, kid) {
            try await first("SELECT * FROM service_keys WHERE kid = \(bind: kid)", as: ServiceKeyRecord.self)
        }
    }
}
