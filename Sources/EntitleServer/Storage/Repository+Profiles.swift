import SQLKit

extension Repository {
    /// Creates or replaces the profile of (requestor, client, device, MVPD).
    public func upsertProfile(_ p: ProfileRecord) async throws {
        try await run("""
            INSERT INTO profiles (requestor_id, client_id, device_id, mvpd_id, type, issuer, not_before, not_after,
              attributes, name_id, session_index, session_code, user_id)
            VALUES (\(bind: p.requestorId), \(bind: p.clientId), \(bind: p.deviceId), \(bind: p.mvpdId), \(bind: p.type.rawValue),
              \(bind: p.issuer), \(bind: p.notBefore), \(bind: p.notAfter), \(bind: p.attributes), \(bind: p.nameId),
              \(bind: p.sessionIndex), \(bind: p.sessionCode), \(bind: p.userId))
            ON CONFLICT (requestor_id, client_id, device_id, mvpd_id) DO UPDATE SET type = excluded.type,
              issuer = excluded.issuer, not_before = excluded.not_before, not_after = excluded.not_after,
              attributes = excluded.attributes, name_id = excluded.name_id, session_index = excluded.session_index,
              session_code = excluded.session_code, user_id = excluded.user_id
            """)
    }

    /// The profiles of a device for a client application and requestor.
    public func profiles(requestor: String, client: String, device: String) async throws -> [ProfileRecord] {
        try await sql.raw("""
            SELECT * FROM profiles WHERE requestor_id = \(bind: requestor) AND client_id = \(bind: client)
            AND device_id = \(bind: device) ORDER BY mvpd_id
            """).all().map(ProfileRecord.init(row:))
    }

    /// The profile of a device at one MVPD.
    public func profile(requestor: String, client: String, device: String, mvpd: String) async throws -> ProfileRecord? {
        try await sql.raw("""
            SELECT * FROM profiles WHERE requestor_id = \(bind: requestor) AND client_id = \(bind: client)
            AND device_id = \(bind: device) AND mvpd_id = \(bind: mvpd)
            """).first().map(ProfileRecord.init(row:))
    }

    /// The profile created by the session with `code`.
    public func profile(requestor: String, sessionCode: String) async throws -> ProfileRecord? {
        try await first("""
            SELECT * FROM profiles WHERE requestor_id = \(bind: requestor) AND session_code = \(bind: sessionCode)
            """, as: ProfileRecord.self)
    }

    /// Deletes the profile of a device at one MVPD; returns it when there was one.
    public func deleteProfile(requestor: String, client: String, device: String, mvpd: String) async throws -> ProfileRecord? {
        try await first("""
            DELETE FROM profiles WHERE requestor_id = \(bind: requestor) AND client_id = \(bind: client)
            AND device_id = \(bind: device) AND mvpd_id = \(bind: mvpd) RETURNING *
            """, as: ProfileRecord.self)
    }

    /// The TempPass of a device: its start and end (ms), created now if there is none.
    public func tempPass(requestor: String, mvpd: String, deviceKey: String, now: Int64, lengthMs: Int64) async throws -> (startedAt: Int64, expiresAt: Int64) {
        try await run("""
            INSERT INTO temppasses (requestor_id, mvpd_id, device_key, started_at, expires_at)
            VALUES (\(bind: requestor), \(bind: mvpd), \(bind: deviceKey), \(bind: now), \(bind: now + lengthMs))
            ON CONFLICT (requestor_id, mvpd_id, device_key) DO NOTHING
            """)
        guard let row = try await sql.raw("""
            SELECT started_at, expires_at FROM temppasses WHERE requestor_id = \(bind: requestor)
            AND mvpd_id = \(bind: mvpd) AND device_key = \(bind: deviceKey)
            """).first() else { return (now, now + lengthMs) }
        return (try row.decode(column: "started_at", as: Int64.self), try row.decode(column: "expires_at", as: Int64.self))
    }

    /// Deletes the TempPass of one device, or of all devices when `deviceKey` is nil; returns how many were reset.
    public func resetTempPass(requestor: String, mvpd: String, deviceKey: String?) async throws -> Int {
        if let deviceKey {
            return try await sql.raw("""
                DELETE FROM temppasses WHERE requestor_id = \(bind: requestor) AND mvpd_id = \(bind: mvpd)
                AND device_key = \(bind: deviceKey) RETURNING device_key
                """).all().count
        }
        return try await sql.raw("""
            DELETE FROM temppasses WHERE requestor_id = \(bind: requestor) AND mvpd_id = \(bind: mvpd) RETURNING device_key
            """).all().count
    }

    /// Takes one token from a token bucket; answers whether the request may proceed and, if not, how many seconds to wait.
    public func takeToken(bucket: String, ratePerSecond: Double, burst: Double, now: Int64) async throws -> (allowed: Bool, retryAfter: Int) {
        // refill = min(burst, tokens + elapsed * rate); a request consumes one token only when at least one is there.
        let row = try await sql.raw("""
            INSERT INTO rate_buckets (bucket_key, tokens, updated_at) VALUES (\(bind: bucket), \(bind: burst - 1), \(bind: now))
            ON CONFLICT (bucket_key) DO UPDATE SET
              tokens = CASE
                WHEN (CASE WHEN rate_buckets.tokens + (\(bind: now) - rate_buckets.updated_at) * \(bind: ratePerSecond) / 1000.0 > \(bind: burst)
                           THEN \(bind: burst) ELSE rate_buckets.tokens + (\(bind: now) - rate_buckets.updated_at) * \(bind: ratePerSecond) / 1000.0 END) >= 1
                THEN (CASE WHEN rate_buckets.tokens + (\(bind: now) - rate_buckets.updated_at) * \(bind: ratePerSecond) / 1000.0 > \(bind: burst)
                           THEN \(bind: burst) ELSE rate_buckets.tokens + (\(bind: now) - rate_buckets.updated_at) * \(bind: ratePerSecond) / 1000.0 END) - 1
                ELSE -1 + (CASE WHEN rate_buckets.tokens + (\(bind: now) - rate_buckets.updated_at) * \(bind: ratePerSecond) / 1000.0 > \(bind: burst)
                           THEN \(bind: burst) ELSE rate_buckets.tokens + (\(bind: now) - rate_buckets.updated_at) * \(bind: ratePerSecond) / 1000.0 END)
              END,
              updated_at = \(bind: now)
            RETURNING tokens
            """).first()
        let tokens = try row?.decode(column: "tokens", as: Double.self) ?? 0
        if tokens >= 0 { return (true, 0) }
        // Refused: put the token back (the refused request must not consume), then tell how long to wait.
        try await run("UPDATE rate_buckets SET tokens = tokens + 1 WHERE bucket_key = \(bind: bucket)")
        let missing = -tokens
        return (false, max(1, Int((missing / max(ratePerSecond, 0.001)).rounded(.up))))
    }
}
