import EntitleModel

/// Migrations of the reports (versions 100, 101, 118 and 114): the per-minute figures every instance adds to, and the
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
        // The dimensions resource, client, sso, hba and reason (in the key of a row), the row's key id linking it
        // to its accounts, the accounts (distinct MVPD users) of each row, and the client family of a session.
        (118, reportDimensionsSQLite, reportDimensionsPostgreSQL),
        // Issue 39: the application profile the client sends (AP-Application-Profile) as a dimension in the key of a row,
        // the visitors (a hash of AP-Visitor-Identifier) of each row, and both kept with a session for its sign-in.
        (114, appProfileSQLite, appProfilePostgreSQL),
    ]

    /// The columns of `report_minutes` since version 118, in the order SQLite's rebuild of version 114 copies them.
    private static let reportMinutesColumns = """
        minute, requestor_id, mvpd_id, platform, app, authn_attempts, authn_successes, authn_failures, authz_attempts, authz_grants, \
        authz_denials, authz_failures, media_tokens, preauthorizations, preauth_grants, preauth_denials, mvpd_calls, mvpd_latency_sum_ms, \
        mvpd_latency_max_ms, resource, client, sso, hba, reason, row_key
        """
    private static let profileKey =
        "PRIMARY KEY (minute, requestor_id, mvpd_id, platform, app, resource, client, sso, hba, reason, app_profile)"

    /// SQLite makes the table again with the key widened by `app_profile` and copies the rows (their profile empty: not
    /// recorded before this version; their row keys unchanged, as ``ReportKey/rowKey`` leaves an empty profile out).
    private static let appProfileSQLite = [
        "DROP TABLE IF EXISTS report_minutes_114",
        """
        CREATE TABLE report_minutes_114 (
            minute BIGINT NOT NULL, requestor_id TEXT NOT NULL, mvpd_id TEXT NOT NULL, platform TEXT NOT NULL, app TEXT NOT NULL,
            authn_attempts BIGINT NOT NULL, authn_successes BIGINT NOT NULL, authn_failures BIGINT NOT NULL,
            authz_attempts BIGINT NOT NULL, authz_grants BIGINT NOT NULL, authz_denials BIGINT NOT NULL, authz_failures BIGINT NOT NULL,
            media_tokens BIGINT NOT NULL, preauthorizations BIGINT NOT NULL, preauth_grants BIGINT NOT NULL,
            preauth_denials BIGINT NOT NULL, mvpd_calls BIGINT NOT NULL, mvpd_latency_sum_ms BIGINT NOT NULL,
            mvpd_latency_max_ms BIGINT NOT NULL, \(newColumns), app_profile TEXT NOT NULL,
            \(profileKey))
        """,
        "INSERT INTO report_minutes_114 (\(reportMinutesColumns), app_profile) SELECT \(reportMinutesColumns), '' FROM report_minutes",
        "DROP TABLE report_minutes",
        "ALTER TABLE report_minutes_114 RENAME TO report_minutes",
        reportMinutesIndex,
        reportVisitorsTable,
        "ALTER TABLE auth_sessions ADD COLUMN app_profile TEXT",
        "ALTER TABLE auth_sessions ADD COLUMN report_visitor BIGINT",
    ]

    /// PostgreSQL adds the column and widens the key in place under the table's lock, as version 118 does (an instance
    /// that migrates second finds the work done).
    private static let appProfilePostgreSQL = [
        """
        DO $$ BEGIN
          LOCK TABLE report_minutes IN ACCESS EXCLUSIVE MODE;
          IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'report_minutes' AND column_name = 'app_profile'
            AND table_schema = current_schema()) THEN
            ALTER TABLE report_minutes ADD COLUMN app_profile TEXT NOT NULL DEFAULT '';
            ALTER TABLE report_minutes DROP CONSTRAINT report_minutes_pkey;
            ALTER TABLE report_minutes ADD \(profileKey);
          END IF;
        END $$
        """,
        reportVisitorsTable,
        "ALTER TABLE auth_sessions ADD COLUMN IF NOT EXISTS app_profile TEXT",
        "ALTER TABLE auth_sessions ADD COLUMN IF NOT EXISTS report_visitor BIGINT",
    ]

    /// The visitors of each row: one row per minute, row key and visitor (``ReportVisitor``: a hash of the header, never
    /// its value); instances add theirs (a set union, as `report_accounts`).
    private static let reportVisitorsTable = """
        CREATE TABLE IF NOT EXISTS report_visitors (minute BIGINT NOT NULL, row_key BIGINT NOT NULL, visitor BIGINT NOT NULL,
          PRIMARY KEY (minute, row_key, visitor))
        """

    /// SQLite cannot change a primary key: the table is made again with the wider key and the rows copied (their new
    /// dimensions empty: not recorded before this version).
    private static let reportDimensionsSQLite = [
        "DROP TABLE IF EXISTS report_minutes_118",
        reportMinutesTable.replacingOccurrences(of: "IF NOT EXISTS report_minutes (", with: "report_minutes_118 (")
            .replacingOccurrences(of: "mvpd_latency_max_ms BIGINT NOT NULL,", with: "mvpd_latency_max_ms BIGINT NOT NULL, \(newColumns),")
            .replacingOccurrences(of: "PRIMARY KEY (minute, requestor_id, mvpd_id, platform, app)", with: widerKey),
        """
        INSERT INTO report_minutes_118 SELECT minute, requestor_id, mvpd_id, platform, app, authn_attempts, authn_successes,
          authn_failures, authz_attempts, authz_grants, authz_denials, authz_failures, media_tokens, preauthorizations, preauth_grants,
          preauth_denials, mvpd_calls, mvpd_latency_sum_ms, mvpd_latency_max_ms, '', '', '', '', '', 0 FROM report_minutes
        """,
        "DROP TABLE report_minutes",
        "ALTER TABLE report_minutes_118 RENAME TO report_minutes",
        reportMinutesIndex,
        reportAccountsTable,
        "ALTER TABLE auth_sessions ADD COLUMN report_client TEXT",
    ]

    /// PostgreSQL adds the columns and widens the key in place, under the table's lock (several instances may migrate
    /// at once: the one that comes second finds the work done).
    private static let reportDimensionsPostgreSQL = [
        """
        DO $$ BEGIN
          LOCK TABLE report_minutes IN ACCESS EXCLUSIVE MODE;
          IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'report_minutes' AND column_name = 'row_key'
            AND table_schema = current_schema()) THEN
            ALTER TABLE report_minutes ADD COLUMN resource TEXT NOT NULL DEFAULT '', ADD COLUMN client TEXT NOT NULL DEFAULT '',
              ADD COLUMN sso TEXT NOT NULL DEFAULT '', ADD COLUMN hba TEXT NOT NULL DEFAULT '', ADD COLUMN reason TEXT NOT NULL DEFAULT '',
              ADD COLUMN row_key BIGINT NOT NULL DEFAULT 0;
            ALTER TABLE report_minutes DROP CONSTRAINT report_minutes_pkey;
            ALTER TABLE report_minutes ADD \(widerKey);
          END IF;
        END $$
        """,
        reportAccountsTable,
        "ALTER TABLE auth_sessions ADD COLUMN IF NOT EXISTS report_client TEXT",
    ]

    /// The columns of the report dimensions and the row's key id (``ReportKey/rowKey``).
    private static let newColumns = """
        resource TEXT NOT NULL, client TEXT NOT NULL, sso TEXT NOT NULL, hba TEXT NOT NULL, reason TEXT NOT NULL, row_key BIGINT NOT NULL
        """
    private static let widerKey = "PRIMARY KEY (minute, requestor_id, mvpd_id, platform, app, resource, client, sso, hba, reason)"

    /// The accounts of each row: one row per minute, row key and account (``ReportAccount``); instances add theirs
    /// (a set union: an account counted by two instances is one row).
    private static let reportAccountsTable = """
        CREATE TABLE IF NOT EXISTS report_accounts (minute BIGINT NOT NULL, row_key BIGINT NOT NULL, account BIGINT NOT NULL,
          PRIMARY KEY (minute, row_key, account))
        """

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
