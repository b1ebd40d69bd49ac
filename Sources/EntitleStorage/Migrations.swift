import EntitleModel
import Logging
import SQLKit

/// Versioned schema migrations, applied in order and recorded in `schema_migrations`.
/// The SQL is the common subset of SQLite and PostgreSQL (TEXT, BIGINT, DOUBLE PRECISION, ON CONFLICT).
package enum Migrations {
    package static let all: [(version: Int, statements: [String])] = [
        (
            1,
            [
                """
                CREATE TABLE IF NOT EXISTS service_keys (
                    kid TEXT PRIMARY KEY, purpose TEXT NOT NULL, private_pem TEXT NOT NULL, certificate_pem TEXT NOT NULL,
                    created_at BIGINT NOT NULL, retired_at BIGINT)
                """,
                """
                CREATE TABLE IF NOT EXISTS requestors (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL, domains TEXT NOT NULL, max_resources BIGINT NOT NULL,
                    metadata_certificate_pem TEXT)
                """,
                """
                CREATE TABLE IF NOT EXISTS mvpds (
                    id TEXT PRIMARY KEY, display_name TEXT NOT NULL, logo_url TEXT NOT NULL, kind TEXT NOT NULL,
                    entity_id TEXT, sso_url TEXT, slo_url TEXT, certificates TEXT NOT NULL,
                    authorization_url TEXT, authorization_key TEXT, requires_svc BIGINT NOT NULL,
                    enable_platform_services BIGINT NOT NULL, boarding_status TEXT, platform_mapping_id TEXT,
                    display_in_platform_picker BIGINT NOT NULL, temppass_minutes BIGINT, profile_ttl_seconds BIGINT NOT NULL,
                    encrypted_attributes TEXT NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS integrations (
                    requestor_id TEXT NOT NULL, mvpd_id TEXT NOT NULL, enabled BIGINT NOT NULL,
                    PRIMARY KEY (requestor_id, mvpd_id))
                """,
                """
                CREATE TABLE IF NOT EXISTS software_statements (
                    software_id TEXT PRIMARY KEY, requestor_id TEXT NOT NULL, name TEXT NOT NULL, redirect_uris TEXT NOT NULL,
                    issued_at BIGINT NOT NULL, revoked BIGINT NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS clients (
                    client_id TEXT PRIMARY KEY, secret_hash TEXT NOT NULL, software_id TEXT NOT NULL, requestor_id TEXT NOT NULL,
                    redirect_uris TEXT NOT NULL, issued_at BIGINT NOT NULL, revoked BIGINT NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS auth_sessions (
                    code TEXT PRIMARY KEY, session_id TEXT NOT NULL, requestor_id TEXT NOT NULL, client_id TEXT NOT NULL,
                    device_id TEXT NOT NULL, mvpd_id TEXT, domain_name TEXT, redirect_url TEXT, status TEXT NOT NULL,
                    authn_request_id TEXT, failure TEXT, created_at BIGINT NOT NULL, not_after BIGINT NOT NULL)
                """,
                "CREATE UNIQUE INDEX IF NOT EXISTS auth_sessions_request ON auth_sessions (authn_request_id)",
                """
                CREATE TABLE IF NOT EXISTS profiles (
                    requestor_id TEXT NOT NULL, client_id TEXT NOT NULL, device_id TEXT NOT NULL, mvpd_id TEXT NOT NULL,
                    type TEXT NOT NULL, issuer TEXT NOT NULL, not_before BIGINT NOT NULL, not_after BIGINT NOT NULL,
                    attributes TEXT NOT NULL, name_id TEXT NOT NULL, session_index TEXT, session_code TEXT,
                    user_id TEXT NOT NULL,
                    PRIMARY KEY (requestor_id, client_id, device_id, mvpd_id))
                """,
                "CREATE INDEX IF NOT EXISTS profiles_code ON profiles (session_code)",
                """
                CREATE TABLE IF NOT EXISTS used_assertions (
                    assertion_key TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS temppasses (
                    requestor_id TEXT NOT NULL, mvpd_id TEXT NOT NULL, device_key TEXT NOT NULL,
                    started_at BIGINT NOT NULL, expires_at BIGINT NOT NULL,
                    PRIMARY KEY (requestor_id, mvpd_id, device_key))
                """,
                """
                CREATE TABLE IF NOT EXISTS rate_buckets (
                    bucket_key TEXT PRIMARY KEY, tokens DOUBLE PRECISION NOT NULL, updated_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS logout_requests (
                    request_id TEXT PRIMARY KEY, mvpd_id TEXT NOT NULL, redirect_url TEXT, name_id TEXT NOT NULL,
                    session_index TEXT, created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL)
                """,
            ]
        ),
        (
            2,
            [
                """
                CREATE TABLE IF NOT EXISTS degradation_rules (
                    requestor_id TEXT NOT NULL, mvpd_id TEXT NOT NULL, rule TEXT NOT NULL, starts_at BIGINT NOT NULL,
                    ends_at BIGINT NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (requestor_id, mvpd_id, rule))
                """,
                """
                CREATE TABLE IF NOT EXISTS promo_passes (
                    pass_key TEXT PRIMARY KEY, requestor_id TEXT NOT NULL, mvpd_id TEXT NOT NULL, identity_key TEXT NOT NULL,
                    device_key TEXT NOT NULL, started_at BIGINT NOT NULL, expires_at BIGINT NOT NULL)
                """,
                "CREATE INDEX IF NOT EXISTS promo_passes_identity ON promo_passes (requestor_id, mvpd_id, identity_key)",
                "CREATE INDEX IF NOT EXISTS promo_passes_device ON promo_passes (requestor_id, mvpd_id, device_key)",
                """
                CREATE TABLE IF NOT EXISTS promo_resources (
                    pass_key TEXT NOT NULL, resource TEXT NOT NULL, used_at BIGINT NOT NULL, PRIMARY KEY (pass_key, resource))
                """,
                "ALTER TABLE mvpds ADD COLUMN temppass_resource_limit BIGINT",
            ]
        ),
        // Issue 11: the catalog version every instance polls, keys published before they sign, MVPD authorization TTLs.
        (
            10,
            [
                "CREATE TABLE IF NOT EXISTS catalog_version (id BIGINT PRIMARY KEY, version BIGINT NOT NULL)",
                "INSERT INTO catalog_version (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING",
                "ALTER TABLE service_keys ADD COLUMN activates_at BIGINT",
                """
                CREATE TABLE IF NOT EXISTS authorization_ttls (
                    requestor_id TEXT NOT NULL, mvpd_id TEXT NOT NULL, ttl_seconds BIGINT NOT NULL, PRIMARY KEY (requestor_id, mvpd_id))
                """,
            ]
        ),
        // Issue 12: REST API v1 — HMAC key pairs, used nonces, AuthZ tokens.
        (
            20,
            [
                """
                CREATE TABLE IF NOT EXISTS legacy_app_keys (
                    public_key TEXT PRIMARY KEY, requestor_id TEXT NOT NULL, private_key TEXT NOT NULL, created_at BIGINT NOT NULL,
                    revoked BIGINT NOT NULL)
                """,
                "CREATE TABLE IF NOT EXISTS legacy_nonces (nonce_key TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)",
                """
                CREATE TABLE IF NOT EXISTS legacy_authorizations (
                    requestor_id TEXT NOT NULL, client_id TEXT NOT NULL, device_id TEXT NOT NULL, resource_key TEXT NOT NULL,
                    resource TEXT NOT NULL, mvpd_id TEXT NOT NULL, not_before BIGINT NOT NULL, not_after BIGINT NOT NULL,
                    PRIMARY KEY (requestor_id, client_id, device_id, resource_key))
                """,
            ]
        ),
        // Issue 12: the adobe-services protocol — AuthN tokens handed to SDK clients, by their GUID.
        (
            21,
            [
                """
                CREATE TABLE IF NOT EXISTS adobe_tokens (
                    guid TEXT PRIMARY KEY, requestor_id TEXT NOT NULL, client_id TEXT NOT NULL, device_id TEXT NOT NULL,
                    mvpd_id TEXT NOT NULL, profile_not_before BIGINT NOT NULL, expires_at BIGINT NOT NULL)
                """,
                "CREATE INDEX IF NOT EXISTS adobe_tokens_device ON adobe_tokens (requestor_id, client_id, device_id)",
            ]
        ),
        // Issue 12: an MVPD's HTTP-POST SingleSignOnService, when its metadata offers one (auto-posting login form).
        (
            22,
            [
                "CREATE TABLE IF NOT EXISTS mvpd_sso_post (mvpd_id TEXT PRIMARY KEY, location TEXT NOT NULL)"
            ]
        ),
        (
            30,
            [
                // Issue 14: per-MVPD SAML settings for foreign IdPs (attribute names, legacy RSA-SHA1, authorize-all).
                """
                CREATE TABLE IF NOT EXISTS mvpd_saml_options (
                    mvpd_id TEXT PRIMARY KEY, attribute_map TEXT NOT NULL, allow_rsa_sha1 BIGINT NOT NULL,
                    authorize_all BIGINT NOT NULL)
                """
            ]
        ),
        (
            31,
            [
                // Issue 14: secrets every instance on one database must share (the demo world's DemoMVPD and programmer keys).
                "CREATE TABLE IF NOT EXISTS shared_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL, created_at BIGINT NOT NULL)"
            ]
        ),
        // Issue 11: the media-token signature algorithm of a requestor (absent: rsa-sha256).
        (
            12,
            [
                "CREATE TABLE IF NOT EXISTS requestor_media_token_algorithms (requestor_id TEXT PRIMARY KEY, algorithm TEXT NOT NULL)"
            ]
        ),
        // Issue 25: the authorization protocol of an MVPD (absent: entitle-json).
        (
            50,
            [
                "CREATE TABLE IF NOT EXISTS mvpd_authorization_protocols (mvpd_id TEXT PRIMARY KEY, authorization_protocol TEXT NOT NULL)"
            ]
        ),
        // Issue 25: OAuth 2.0 MVPDs — their endpoints and client, sign-ins waiting for the MVPD's callback (state, PKCE
        // verifier), and the refresh token of each OAuth 2.0 profile, encrypted.
        (
            51,
            [
                """
                CREATE TABLE IF NOT EXISTS mvpd_oauth2 (
                    mvpd_id TEXT PRIMARY KEY, issuer TEXT, authorize_url TEXT NOT NULL, token_url TEXT NOT NULL,
                    userinfo_url TEXT NOT NULL, logout_url TEXT, client_id TEXT NOT NULL, client_secret TEXT NOT NULL,
                    scopes TEXT NOT NULL, user_id_claim TEXT NOT NULL, token_auth_method TEXT NOT NULL, pkce BIGINT NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS oauth2_pending (
                    state_hash TEXT PRIMARY KEY, session_code TEXT NOT NULL, mvpd_id TEXT NOT NULL, code_verifier TEXT NOT NULL,
                    expires_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS oauth2_grants (
                    requestor_id TEXT NOT NULL, client_id TEXT NOT NULL, device_id TEXT NOT NULL, mvpd_id TEXT NOT NULL,
                    refresh_token TEXT NOT NULL, profile_not_before BIGINT NOT NULL, updated_at BIGINT NOT NULL,
                    PRIMARY KEY (requestor_id, client_id, device_id, mvpd_id))
                """,
            ]
        ),
        // Issue 25: preflight — several resources in one XACML call for preauthorize, at most this many per call.
        (
            52,
            [
                """
                CREATE TABLE IF NOT EXISTS integration_preflight (
                    requestor_id TEXT NOT NULL, mvpd_id TEXT NOT NULL, max_resources BIGINT NOT NULL, PRIMARY KEY (requestor_id, mvpd_id))
                """
            ]
        ),
        // Issue 25: how XACML is sent to an MVPD — bare or in the SOAP/SAML binding, the query signed or not (absent: bare,
        // unsigned).
        (
            53,
            [
                "CREATE TABLE IF NOT EXISTS mvpd_xacml_options (mvpd_id TEXT PRIMARY KEY, binding TEXT NOT NULL, sign_queries BIGINT NOT NULL)"
            ]
        ),
        // Issue 19: the changes log (who changed what, when, the values before and after; secrets never).
        (
            40,
            [
                """
                CREATE TABLE IF NOT EXISTS admin_changes (id TEXT PRIMARY KEY, at BIGINT NOT NULL, actor TEXT NOT NULL,
                  action TEXT NOT NULL, target TEXT NOT NULL, value_before TEXT, value_after TEXT)
                """,
                "CREATE INDEX IF NOT EXISTS admin_changes_at ON admin_changes (at)",
            ]
        ),
        // Issue 19: operator accounts of the admin API and console, their sessions, and disabled MVPDs and requestors.
        (
            41,
            [
                """
                CREATE TABLE IF NOT EXISTS operators (username TEXT PRIMARY KEY, password_hash TEXT NOT NULL, role TEXT NOT NULL,
                  disabled BIGINT NOT NULL, created_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS operator_sessions (token_hash TEXT PRIMARY KEY, username TEXT NOT NULL,
                  csrf_token TEXT NOT NULL, created_at BIGINT NOT NULL, last_seen_at BIGINT NOT NULL)
                """,
                "CREATE TABLE IF NOT EXISTS disabled_mvpds (mvpd_id TEXT PRIMARY KEY, disabled_at BIGINT NOT NULL)",
                "CREATE TABLE IF NOT EXISTS disabled_requestors (requestor_id TEXT PRIMARY KEY, disabled_at BIGINT NOT NULL)",
            ]
        ),
        // Issue 19: per-integration display name, logo and profile lifetime (absent: the MVPD's own).
        (
            42,
            [
                """
                CREATE TABLE IF NOT EXISTS integration_overrides (requestor_id TEXT NOT NULL, mvpd_id TEXT NOT NULL, display_name TEXT,
                  logo_url TEXT, profile_ttl_seconds BIGINT, PRIMARY KEY (requestor_id, mvpd_id))
                """
            ]
        ),
        // Issue 19: where an MVPD's SAML metadata is fetched from, for its refresh.
        (
            43,
            [
                "CREATE TABLE IF NOT EXISTS mvpd_metadata_sources (mvpd_id TEXT PRIMARY KEY, url TEXT NOT NULL, refreshed_at BIGINT NOT NULL)"
            ]
        ),
        // Issue 20: why a change was made, in the operator's words (the console asks for it).
        (105, ["ALTER TABLE admin_changes ADD COLUMN description TEXT"]),
        // Issue 25: preflight by channel lineup — the integrations whose preauthorize answers from the lineup the MVPD's
        // SAML assertion carries (in the attribute named here), with no call to the MVPD.
        (
            106,
            [
                """
                CREATE TABLE IF NOT EXISTS integration_lineup (
                    requestor_id TEXT NOT NULL, mvpd_id TEXT NOT NULL, attribute TEXT NOT NULL, PRIMARY KEY (requestor_id, mvpd_id))
                """
            ]
        ),
        // Issue 25: the channel lineup kept with the authentication (JSON array of resource ids; NULL: no lineup).
        (107, ["ALTER TABLE profiles ADD COLUMN lineup TEXT"]),
        // Issue 19: a requestor's defaults for its integrations — the profile (authentication) lifetime, how long MVPD
        // authorization answers are kept, and the preflight maximum — used where an integration sets none (NULL: none).
        (
            108,
            [
                "ALTER TABLE requestors ADD COLUMN default_profile_ttl_seconds BIGINT",
                "ALTER TABLE requestors ADD COLUMN default_authz_ttl_seconds BIGINT",
                "ALTER TABLE requestors ADD COLUMN default_preflight_max_resources BIGINT",
            ]
        ),
        // Operator sign-in attempts, counted before the password is checked and shared by every instance: one row per
        // attempt and scope (an account from one address, an address), purged once older than the window.
        (
            109,
            [
                """
                CREATE TABLE IF NOT EXISTS operator_sign_in_attempts (
                    attempt_id TEXT NOT NULL, scope TEXT NOT NULL, attempted_at BIGINT NOT NULL, PRIMARY KEY (attempt_id, scope))
                """,
                "CREATE INDEX IF NOT EXISTS operator_sign_in_attempts_scope ON operator_sign_in_attempts (scope, attempted_at)",
            ]
        ),
        // Issue 39: SSO issuers and the sign-ins shared under an SSO identity (Migrations+SingleSignOn.swift).
        (110, singleSignOn),
        // Issue 39: a software statement whose clients are a network's backend calling REST API v2 for its devices
        // (Adobe's server-to-server cookbook): their calls name the device's address in X-Forwarded-For.
        (111, ["ALTER TABLE software_statements ADD COLUMN server_to_server BIGINT NOT NULL DEFAULT 0"]),
        // Sign-ins the identity provider ended, so that the device is told "invalidated" (Migrations+EndedSignIns.swift).
        (112, endedSignIns),
        // Issue 40: what an integration does with home-based (HBA) sign-ins — their own profile lifetime (NULL: the
        // integration's) and the resources they are never authorized for (JSON array of resource ids).
        (
            115,
            [
                """
                CREATE TABLE IF NOT EXISTS integration_hba_policies (
                    requestor_id TEXT NOT NULL, mvpd_id TEXT NOT NULL, profile_ttl_seconds BIGINT, denied_resources TEXT NOT NULL,
                    PRIMARY KEY (requestor_id, mvpd_id))
                """
            ]
        ),
        // Issue 40: proxy MVPDs and their proxied MVPDs (Migrations+ProxyMVPDs.swift).
        (116, proxyMVPDs),
        // The requestors and MVPDs an operator account is limited to (Migrations+OperatorScopes.swift).
        (117, operatorScopes),
        // A proxied MVPD's name and logo as pushed and as an operator changed them (Migrations+ProxiedMVPDEdits.swift).
        (119, proxiedMVPDEdits),
    ]

    /// Applies every migration not yet recorded, each recorded with `now` (milliseconds since 1970). Safe to run from
    /// several instances at once. A database that records a migration this binary does not know (written by a newer
    /// Entitle) is refused with ``SchemaTooNewError`` before anything is written to it.
    package static func apply(to sql: any SQLDatabase, logger: Logger, now: Int64 = 0) async throws {
        _ = try await checkOpenable(sql)
        try await sql.raw("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)").run()
        let applied = Set(try await sql.raw("SELECT version FROM schema_migrations").all(decodingColumn: "version", as: Int64.self))
        let postgres = sql.dialect.name == "postgresql"
        let engineMigrations = (perEngine + reports).map { (version: $0.version, statements: postgres ? $0.postgres : $0.sqlite) }
        for migration in all + engineMigrations where !applied.contains(Int64(migration.version)) {
            for statement in migration.statements {
                try await sql.raw(SQLQueryString(statement)).run()
            }
            try await sql.raw(
                """
                INSERT INTO schema_migrations (version, applied_at) VALUES (\(bind: Int64(migration.version)), \(bind: now))
                ON CONFLICT (version) DO NOTHING
                """
            ).run()
            logger.info("schema migration applied", metadata: ["version": "\(migration.version)"])
        }
    }
}
