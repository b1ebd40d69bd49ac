import EntitleModel
import SQLKit

/// Records of the legacy protocols: v1 app keys, nonces and authorizations, adobe-services tokens.
package struct LegacyStore: SQLStore {
    /// The database and caches this store shares with the others.
    package let base: SQLStoreBase

    /// Creates the value from each of its stored properties.
    package init(base: SQLStoreBase) {
        self.base = base
    }
}

extension LegacyAppKeyRecord: StoredRecord {
    /// A `legacy_app_keys` row: the flag as 0/1.
    package struct Row: Decodable {
        package var publicKey: String
        package var requestorId: String
        package var privateKey: String
        package var createdAt: Int64
        package var revoked: Int64

        /// Creates the value from each of its stored properties.
        package init(publicKey: String, requestorId: String, privateKey: String, createdAt: Int64, revoked: Int64) {
            self.publicKey = publicKey
            self.requestorId = requestorId
            self.privateKey = privateKey
            self.createdAt = createdAt
            self.revoked = revoked
        }
    }

    package init(row: Row) {
        self.init(
            publicKey: row.publicKey, requestorId: row.requestorId, privateKey: row.privateKey, createdAt: row.createdAt,
            revoked: Bool(storedFlag: row.revoked))
    }
}

extension LegacyStore {
    /// Stores a key pair.
    package func insertLegacyAppKey(_ k: LegacyAppKeyRecord) async throws {
        try await run(
            """
            INSERT INTO legacy_app_keys (public_key, requestor_id, private_key, created_at, revoked)
            VALUES (\(bind: k.publicKey), \(bind: k.requestorId), \(bind: k.privateKey), \(bind: k.createdAt), \(bind: k.revoked.storedFlag))
            """)
    }

    /// A key pair that is not revoked.
    package func activeLegacyAppKey(publicKey: String) async throws -> LegacyAppKeyRecord? {
        try await first("SELECT * FROM legacy_app_keys WHERE public_key = \(bind: publicKey) AND revoked = 0", as: LegacyAppKeyRecord.self)
    }

    /// The key pairs of a requestor.
    package func legacyAppKeys(requestor: String) async throws -> [LegacyAppKeyRecord] {
        try await all("SELECT * FROM legacy_app_keys WHERE requestor_id = \(bind: requestor) ORDER BY created_at", as: LegacyAppKeyRecord.self)
    }

    /// Revokes a key pair; false when there is none.
    package func revokeLegacyAppKey(publicKey: String) async throws -> Bool {
        try await touchedRow("UPDATE legacy_app_keys SET revoked = 1 WHERE public_key = \(bind: publicKey) RETURNING public_key")
    }

    /// Records a nonce; false when it was seen before (replay). Expired nonces are purged now and then.
    package func useNonce(key: String, expiresAt: Int64, now: Int64) async throws -> Bool {
        if Int.random(in: 0..<128) == 0 { try await run("DELETE FROM legacy_nonces WHERE expires_at < \(bind: now)") }
        return try await touchedRow(
            """
            INSERT INTO legacy_nonces (nonce_key, expires_at) VALUES (\(bind: key), \(bind: expiresAt))
            ON CONFLICT (nonce_key) DO NOTHING RETURNING nonce_key
            """)
    }

    /// Creates or replaces the authorization of a device for a resource.
    package func upsertLegacyAuthorization(_ a: LegacyAuthorizationRecord) async throws {
        try await run(
            """
            INSERT INTO legacy_authorizations (requestor_id, client_id, device_id, resource_key, resource, mvpd_id, not_before, not_after)
            VALUES (\(bind: a.requestorId), \(bind: a.clientId), \(bind: a.deviceId), \(bind: Secrets.sha256Hex(a.resource)),
                    \(bind: a.resource), \(bind: a.mvpdId), \(bind: a.notBefore), \(bind: a.notAfter))
            ON CONFLICT (requestor_id, client_id, device_id, resource_key) DO UPDATE SET mvpd_id = excluded.mvpd_id,
              not_before = excluded.not_before, not_after = excluded.not_after
            """)
    }

    /// The authorization of a device for a resource.
    package func legacyAuthorization(requestor: String, client: String, device: String, resource: String) async throws -> LegacyAuthorizationRecord? {
        try await first(
            """
            SELECT requestor_id, client_id, device_id, resource, mvpd_id, not_before, not_after FROM legacy_authorizations
            WHERE requestor_id = \(bind: requestor) AND client_id = \(bind: client)
            AND device_id = \(bind: device) AND resource_key = \(bind: Secrets.sha256Hex(resource))
            """, as: LegacyAuthorizationRecord.self)
    }

    /// Deletes every authorization of a device (logout).
    package func deleteLegacyAuthorizations(requestor: String, client: String, device: String) async throws {
        try await run(
            """
            DELETE FROM legacy_authorizations WHERE requestor_id = \(bind: requestor) AND client_id = \(bind: client)
            AND device_id = \(bind: device)
            """)
    }
}
