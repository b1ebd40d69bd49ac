/// Migration 112: sign-ins the identity provider ended (``EndedSignInRecord``), one per (requestor, client, device,
/// MVPD), so that the device's next call is answered "invalidated" rather than "never signed in"; purged by `expires_at`.
extension Migrations {
    package static let endedSignIns: [String] = [
        """
        CREATE TABLE IF NOT EXISTS ended_sign_ins (requestor_id TEXT NOT NULL, client_id TEXT NOT NULL, device_id TEXT NOT NULL,
          mvpd_id TEXT NOT NULL, user_id TEXT NOT NULL, reason TEXT NOT NULL, ended_at BIGINT NOT NULL, expires_at BIGINT NOT NULL,
          PRIMARY KEY (requestor_id, client_id, device_id, mvpd_id))
        """,
        "CREATE INDEX IF NOT EXISTS ended_sign_ins_expires ON ended_sign_ins (expires_at)",
    ]
}
