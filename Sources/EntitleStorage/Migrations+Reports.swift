import EntitleModel

/// Migrations of the reports (issue 20, versions 100–104): the per-minute figures every instance adds to, and the
/// client's platform and application kept with each authentication session (a sign-in finishes in a browser, whose
/// request says nothing of the app that started it).
extension Migrations {
    package static let reports: [(version: Int, sqlite: [String], postgres: [String])] = [
        (
            100,
            [reportMinutesTable, reportMinutesIndex],
            [reportMinutesTable, reportMinutesIndex]
        ),
        (
            101,
            [
                "ALTER TABLE auth_sessions ADD COLUMN platform TEXT",
                "ALTER TABLE auth_sessions ADD COLUMN app TEXT",
            ],
            [
                "ALTER TABLE auth_sessions ADD COLUMN IF NOT EXISTS platform TEXT",
                "ALTER TABLE auth_sessions ADD COLUMN IF NOT EXISTS app TEXT",
            ]
        ),
    ]

    /// One row per minute (ms since 1970) and requestor, MVPD, platform and app; instances add to the figures.
    private static let reportMinutesTable = """
        CREATE TABLE IF NOT EXISTS report_minutes (
            minute BIGINT NOT NULL, requestor_id TEXT NOT NULL, mvpd_id TEXT NOT NULL, platform TEXT NOT NULL, app TEXT NOT NULL,
            authn_attempts BIGINT NOT NULL, authn_successes BIGINT NOT NULL, authn_failures BIGINT NOT NULL,
            authz_attempts BIGINT NOT NULL, authz_grants BIGINT NOT NULL, authz_denials BIGINT NOT NULL, authz_failures BIGINT NOT NULL,
            media_tokens BIGINT NOT NULL, preauthorizations BIGINT NOT NULL, preauth_grants BIGINT NOT NULL,
            preauth_denials BIGINT NOT NULL, mvpd_calls BIGINT NOT NULL, mvpd_latency_sum_ms BIGINT NOT NULL,
            mvpd_latency_max_ms BIGINT NOT NULL,
            PRIMARY KEY (minute, requestor_id, mvpd_id, platform, app))
        """
    private static let reportMinutesIndex = "CREATE INDEX IF NOT EXISTS report_minutes_requestor ON report_minutes (requestor_id, minute)"
}
