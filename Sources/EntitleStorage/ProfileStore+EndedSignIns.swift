import EntitleModel
import SQLKit

/// Sign-ins the identity provider ended (migration 112, `ended_sign_ins`): written when a profile is deleted for that
/// reason, read only when a device asks with no profile, forgotten at the device's next sign-in with that MVPD, purged
/// once the ended sign-in would have expired.
extension ProfileStore {
    /// Records a sign-in the identity provider ended; replaces an older record of the same key.
    package func recordEndedSignIn(_ e: EndedSignInRecord) async throws {
        try await run(
            """
            INSERT INTO ended_sign_ins (requestor_id, client_id, device_id, mvpd_id, user_id, reason, ended_at, expires_at)
            VALUES (\(bind: e.requestorId), \(bind: e.clientId), \(bind: e.deviceId), \(bind: e.mvpdId), \(bind: e.userId), \(bind: e.reason),
              \(bind: e.endedAt), \(bind: e.expiresAt))
            ON CONFLICT (requestor_id, client_id, device_id, mvpd_id) DO UPDATE SET user_id = excluded.user_id, reason = excluded.reason,
              ended_at = excluded.ended_at, expires_at = excluded.expires_at
            """)
    }

    /// The device's ended sign-ins that have not expired at `now` (ms), ordered by MVPD.
    package func endedSignIns(requestor: String, client: String, device: String, now: Int64) async throws -> [EndedSignInRecord] {
        try await all(
            """
            SELECT * FROM ended_sign_ins WHERE requestor_id = \(bind: requestor) AND client_id = \(bind: client)
            AND device_id = \(bind: device) AND expires_at > \(bind: now) ORDER BY mvpd_id
            """, as: EndedSignInRecord.self)
    }

    /// Forgets the ended sign-in of a key (the device signs in again with that MVPD).
    func forgetEndedSignIn(requestor: String, client: String, device: String, mvpd: String) async throws {
        try await run(
            """
            DELETE FROM ended_sign_ins WHERE requestor_id = \(bind: requestor) AND client_id = \(bind: client)
            AND device_id = \(bind: device) AND mvpd_id = \(bind: mvpd)
            """)
    }

    /// Deletes the records of ended sign-ins that would have expired before `now` (ms).
    package func purgeEndedSignIns(now: Int64) async throws {
        try await run("DELETE FROM ended_sign_ins WHERE expires_at < \(bind: now)")
    }
}
