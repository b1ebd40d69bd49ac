/// Migration 110 (issue 39): single sign-on by platform identity and service token. `sso_issuers` holds the issuers the
/// operator registered (keys and requestors as JSON text, so that a change is one statement); `sso_sign_ins` the
/// sign-ins shared under an identity (issuer, SHA-256 of the subject), each naming the requestor and the session code
/// of the profile it shares.
extension Migrations {
    package static let singleSignOn: [String] = [
        """
        CREATE TABLE IF NOT EXISTS sso_issuers (id TEXT PRIMARY KEY, type TEXT NOT NULL, issuer TEXT NOT NULL, audience TEXT,
          public_keys TEXT NOT NULL, jwks_url TEXT, requestors TEXT NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS sso_sign_ins (issuer_id TEXT NOT NULL, subject_hash TEXT NOT NULL, requestor_id TEXT NOT NULL,
          session_code TEXT NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (issuer_id, subject_hash, requestor_id, session_code))
        """,
    ]
}
