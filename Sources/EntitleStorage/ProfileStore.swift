import EntitleModel
import SQLKit

/// Authentication profiles (AuthN tokens) and the feed of their changes for the profile cache.
package struct ProfileStore: SQLStore {
    /// The database and caches this store shares with the others.
    package let base: SQLStoreBase

    /// Creates the value from each of its stored properties.
    package init(base: SQLStoreBase) {
        self.base = base
    }
}

extension ProfileStore {
    /// Creates or replaces the profile of (requestor, client, device, MVPD).
    package func upsertProfile(_ p: ProfileRecord) async throws {
        try await run(
            """
            INSERT INTO profiles (requestor_id, client_id, device_id, mvpd_id, type, issuer, not_before, not_after,
              attributes, name_id, session_index, session_code, user_id, lineup)
            VALUES (\(bind: p.requestorId), \(bind: p.clientId), \(bind: p.deviceId), \(bind: p.mvpdId), \(bind: p.type.rawValue),
              \(bind: p.issuer), \(bind: p.notBefore), \(bind: p.notAfter), \(bind: p.attributes), \(bind: p.nameId),
              \(bind: p.sessionIndex), \(bind: p.sessionCode), \(bind: p.userId), \(bind: p.lineup))
            ON CONFLICT (requestor_id, client_id, device_id, mvpd_id) DO UPDATE SET type = excluded.type,
              issuer = excluded.issuer, not_before = excluded.not_before, not_after = excluded.not_after,
              attributes = excluded.attributes, name_id = excluded.name_id, session_index = excluded.session_index,
              session_code = excluded.session_code, user_id = excluded.user_id, lineup = excluded.lineup
            """)
        // A new sign-in with the MVPD: an earlier one the MVPD ended is no longer the device's news.
        try await forgetEndedSignIn(requestor: p.requestorId, client: p.clientId, device: p.deviceId, mvpd: p.mvpdId)
        profileCache.evict([ProfileCache.DeviceKey(requestor: p.requestorId, client: p.clientId, device: p.deviceId)])
    }

    /// Replaces the user metadata of a profile, unless a newer sign-in replaced the profile meanwhile.
    package func updateProfileAttributes(_ p: ProfileRecord, attributes: String) async throws {
        try await run(
            """
            UPDATE profiles SET attributes = \(bind: attributes) WHERE requestor_id = \(bind: p.requestorId) AND client_id = \(bind: p.clientId)
            AND device_id = \(bind: p.deviceId) AND mvpd_id = \(bind: p.mvpdId) AND not_before = \(bind: p.notBefore)
            """)
        profileCache.evict([ProfileCache.DeviceKey(requestor: p.requestorId, client: p.clientId, device: p.deviceId)])
    }

    /// The profiles of a device for a client application and requestor (from memory when cached, see ``ProfileCache``).
    package func profiles(requestor: String, client: String, device: String) async throws -> [ProfileRecord] {
        guard profileCache.isEnabled else { return try await loadProfiles(requestor: requestor, client: client, device: device) }
        let key = ProfileCache.DeviceKey(requestor: requestor, client: client, device: device)
        // The usual case, no poll of the change feed due and the device held, in one synchronous look.
        if let current = profileCache.currentProfiles(key) { return current }
        try await pollProfileChanges()
        let (cached, generation) = profileCache.lookup(key)
        if let cached { return cached }
        let loaded = try await loadProfiles(requestor: requestor, client: client, device: device)
        profileCache.store(key, loaded, generation: generation)
        return loaded
    }

    /// The profile of a device at one MVPD.
    package func profile(requestor: String, client: String, device: String, mvpd: String) async throws -> ProfileRecord? {
        try await profiles(requestor: requestor, client: client, device: device).first { $0.mvpdId == mvpd }
    }

    private func loadProfiles(requestor: String, client: String, device: String) async throws -> [ProfileRecord] {
        try await sql.raw(
            """
            SELECT * FROM profiles WHERE requestor_id = \(bind: requestor) AND client_id = \(bind: client)
            AND device_id = \(bind: device) ORDER BY mvpd_id
            """
        ).all().map(ProfileRecord.init(row:))
    }

    /// The profile created by the session with `code`.
    package func profile(requestor: String, sessionCode: String) async throws -> ProfileRecord? {
        try await first(
            """
            SELECT * FROM profiles WHERE requestor_id = \(bind: requestor) AND session_code = \(bind: sessionCode)
            """, as: ProfileRecord.self)
    }

    /// Deletes the profile of a device at one MVPD; returns it when there was one.
    package func deleteProfile(requestor: String, client: String, device: String, mvpd: String) async throws -> ProfileRecord? {
        defer { profileCache.evict([ProfileCache.DeviceKey(requestor: requestor, client: client, device: device)]) }
        // An OAuth 2.0 MVPD's refresh token goes with the profile (logout, a revoked grant, an admin removal).
        try await OAuth2Store(base: base).deleteOAuth2Grant(requestor: requestor, client: client, device: device, mvpd: mvpd)
        return try await first(
            """
            DELETE FROM profiles WHERE requestor_id = \(bind: requestor) AND client_id = \(bind: client)
            AND device_id = \(bind: device) AND mvpd_id = \(bind: mvpd) RETURNING *
            """, as: ProfileRecord.self)
    }
}
