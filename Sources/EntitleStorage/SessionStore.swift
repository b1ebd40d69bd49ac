import EntitleModel
import SQLKit

/// Authentication sessions, used assertions and logout requests.
package struct SessionStore: SQLStore {
    /// The database and caches this store shares with the others.
    package let base: SQLStoreBase

    /// Creates the value from each of its stored properties.
    package init(base: SQLStoreBase) {
        self.base = base
    }
}

extension SessionStore {
    /// Stores a new authentication session; returns false when the code is already taken.
    package func insertSession(_ s: AuthSessionRecord) async throws -> Bool {
        try await touchedRow(
            """
            INSERT INTO auth_sessions (code, session_id, requestor_id, client_id, device_id, mvpd_id, domain_name,
              redirect_url, status, authn_request_id, failure, created_at, not_after, platform, app, report_client, app_profile,
              report_visitor)
            VALUES (\(bind: s.code), \(bind: s.sessionId), \(bind: s.requestorId), \(bind: s.clientId), \(bind: s.deviceId),
              \(bind: s.mvpdId), \(bind: s.domainName), \(bind: s.redirectUrl), \(bind: s.status.rawValue), \(bind: s.authnRequestId),
              \(bind: s.failure), \(bind: s.createdAt), \(bind: s.notAfter), \(bind: s.platform), \(bind: s.app), \(bind: s.reportClient),
              \(bind: s.appProfile), \(bind: s.reportVisitor))
            ON CONFLICT (code) DO NOTHING RETURNING code
            """)
    }

    /// Ends a registration code now (reggie `DELETE`): it can no longer be used or read.
    package func expireSession(code: String, at now: Int64) async throws {
        try await run("UPDATE auth_sessions SET not_after = \(bind: now) WHERE code = \(bind: code)")
    }

    /// A session by code.
    package func session(code: String) async throws -> AuthSessionRecord? {
        try await first("SELECT * FROM auth_sessions WHERE code = \(bind: code)", as: AuthSessionRecord.self)
    }

    /// A session by the id of the SAML AuthnRequest sent for it.
    package func session(authnRequestID: String) async throws -> AuthSessionRecord? {
        try await first("SELECT * FROM auth_sessions WHERE authn_request_id = \(bind: authnRequestID)", as: AuthSessionRecord.self)
    }

    /// Fills in the parameters of a pending session.
    package func resumeSession(code: String, mvpd: String?, domainName: String?, redirectURL: String?) async throws {
        try await run(
            """
            UPDATE auth_sessions SET mvpd_id = COALESCE(\(bind: mvpd), mvpd_id),
              domain_name = COALESCE(\(bind: domainName), domain_name), redirect_url = COALESCE(\(bind: redirectURL), redirect_url)
            WHERE code = \(bind: code) AND status = 'pending'
            """)
    }

    /// Records the AuthnRequest sent to the MVPD for a session (a new one replaces an older one).
    package func startAuthentication(code: String, authnRequestID: String) async throws -> Bool {
        try await touchedRow(
            """
            UPDATE auth_sessions SET status = 'authenticating', authn_request_id = \(bind: authnRequestID)
            WHERE code = \(bind: code) AND status IN ('pending', 'authenticating', 'failed') RETURNING code
            """)
    }

    /// Atomically completes the session waiting for `authnRequestID`; false when already completed (replay).
    package func completeAuthentication(authnRequestID: String) async throws -> Bool {
        try await touchedRow(
            """
            UPDATE auth_sessions SET status = 'authenticated', failure = NULL
            WHERE authn_request_id = \(bind: authnRequestID) AND status IN ('authenticating', 'failed') RETURNING code
            """)
    }

    /// Marks a session as completed without a login page (TempPass, already authenticated).
    package func markAuthenticated(code: String) async throws {
        try await run("UPDATE auth_sessions SET status = 'authenticated', failure = NULL WHERE code = \(bind: code)")
    }

    /// Records why a login failed.
    package func failAuthentication(code: String, reason: String) async throws {
        try await run(
            "UPDATE auth_sessions SET status = 'failed', failure = \(bind: reason) WHERE code = \(bind: code) AND status <> 'authenticated'")
    }

    /// Deletes sessions, replay records and idle rate buckets that expired before `now` (ms); ``Repository/purgeExpired(now:)``
    /// purges the other stores too.
    package func purgeExpired(now: Int64) async throws {
        try await run("DELETE FROM auth_sessions WHERE not_after < \(bind: now - 86_400_000)")
        try await run("DELETE FROM used_assertions WHERE expires_at < \(bind: now)")
        try await run("DELETE FROM logout_requests WHERE expires_at < \(bind: now)")
        try await run("DELETE FROM rate_buckets WHERE updated_at < \(bind: now - 3_600_000)")
    }

    /// Records an assertion as used; false when it was already used (replay).
    package func useAssertion(key: String, expiresAt: Int64) async throws -> Bool {
        try await touchedRow(
            """
            INSERT INTO used_assertions (assertion_key, expires_at) VALUES (\(bind: key), \(bind: expiresAt))
            ON CONFLICT (assertion_key) DO NOTHING RETURNING assertion_key
            """)
    }

    /// Remembers a Single Logout request until its response comes back.
    package func insertLogoutRequest(_ r: LogoutRequestRecord) async throws {
        try await run(
            """
            INSERT INTO logout_requests (request_id, mvpd_id, redirect_url, name_id, session_index, created_at, expires_at)
            VALUES (\(bind: r.requestId), \(bind: r.mvpdId), \(bind: r.redirectUrl), \(bind: r.nameId), \(bind: r.sessionIndex),
                    \(bind: r.createdAt), \(bind: r.expiresAt))
            """)
    }

    /// A pending logout request by id.
    package func logoutRequest(id: String) async throws -> LogoutRequestRecord? {
        try await first("SELECT * FROM logout_requests WHERE request_id = \(bind: id)", as: LogoutRequestRecord.self)
    }

    /// Takes (deletes and returns) a pending logout request: its MVPD and redirect URL.
    package func takeLogoutRequest(id: String) async throws -> LogoutRequestRecord? {
        try await first("DELETE FROM logout_requests WHERE request_id = \(bind: id) RETURNING *", as: LogoutRequestRecord.self)
    }
}
