import EntitleModel
import SQLKit

/// OAuth 2.0 MVPD settings, pending sign-ins and grants.
package struct OAuth2Store: SQLStore {
    /// The database and caches this store shares with the others.
    package let base: SQLStoreBase

    /// Creates the value from each of its stored properties.
    package init(base: SQLStoreBase) {
        self.base = base
    }
}

extension MVPDOAuth2Record: StoredRecord {
    /// An `mvpd_oauth2` row.
    package struct Row: Decodable {
        package var mvpdId: String
        package var issuer: String?
        package var authorizeUrl: String
        package var tokenUrl: String
        package var userinfoUrl: String
        package var logoutUrl: String?
        package var clientId: String
        package var clientSecret: String
        package var scopes: String
        package var userIdClaim: String
        package var tokenAuthMethod: String
        package var pkce: Int64

        /// Creates the value from each of its stored properties.
        package init(
            mvpdId: String, issuer: String? = nil, authorizeUrl: String, tokenUrl: String, userinfoUrl: String, logoutUrl: String? = nil,
            clientId: String, clientSecret: String, scopes: String, userIdClaim: String, tokenAuthMethod: String, pkce: Int64
        ) {
            self.mvpdId = mvpdId
            self.issuer = issuer
            self.authorizeUrl = authorizeUrl
            self.tokenUrl = tokenUrl
            self.userinfoUrl = userinfoUrl
            self.logoutUrl = logoutUrl
            self.clientId = clientId
            self.clientSecret = clientSecret
            self.scopes = scopes
            self.userIdClaim = userIdClaim
            self.tokenAuthMethod = tokenAuthMethod
            self.pkce = pkce
        }
    }

    package init(row: Row) {
        self.init(
            mvpdId: row.mvpdId, issuer: row.issuer, authorizeURL: row.authorizeUrl, tokenURL: row.tokenUrl,
            userinfoURL: row.userinfoUrl, logoutURL: row.logoutUrl, clientID: row.clientId, encryptedClientSecret: row.clientSecret,
            scopes: JSONText.decode(row.scopes), userIDClaim: row.userIdClaim, tokenAuthMethod: row.tokenAuthMethod,
            pkce: Bool(storedFlag: row.pkce))
    }
}

extension OAuth2Store {
    /// The OAuth 2.0 settings of an MVPD, from the catalog cache.
    package func oauth2Settings(mvpd: String) async throws -> MVPDOAuth2Record? {
        try await cached(catalogCache.oauth2Settings, mvpd) {
            try await first("SELECT * FROM mvpd_oauth2 WHERE mvpd_id = \(bind: mvpd)", as: MVPDOAuth2Record.self)
        }
    }

    /// Creates or replaces the OAuth 2.0 settings of an MVPD.
    package func upsertOAuth2Settings(_ o: MVPDOAuth2Record) async throws {
        try await run(
            """
            INSERT INTO mvpd_oauth2 (mvpd_id, issuer, authorize_url, token_url, userinfo_url, logout_url, client_id, client_secret,
              scopes, user_id_claim, token_auth_method, pkce)
            VALUES (\(bind: o.mvpdId), \(bind: o.issuer), \(bind: o.authorizeURL), \(bind: o.tokenURL), \(bind: o.userinfoURL),
              \(bind: o.logoutURL), \(bind: o.clientID), \(bind: o.encryptedClientSecret), \(bind: JSONText.encode(o.scopes)),
              \(bind: o.userIDClaim), \(bind: o.tokenAuthMethod), \(bind: o.pkce.storedFlag))
            ON CONFLICT (mvpd_id) DO UPDATE SET issuer = excluded.issuer, authorize_url = excluded.authorize_url,
              token_url = excluded.token_url, userinfo_url = excluded.userinfo_url, logout_url = excluded.logout_url,
              client_id = excluded.client_id, client_secret = excluded.client_secret, scopes = excluded.scopes,
              user_id_claim = excluded.user_id_claim, token_auth_method = excluded.token_auth_method, pkce = excluded.pkce
            """)
        try await catalogChanged()
    }

    /// Remembers a sign-in sent to an OAuth 2.0 MVPD until its callback.
    package func insertOAuth2Pending(_ p: OAuth2PendingRecord) async throws {
        try await run(
            """
            INSERT INTO oauth2_pending (state_hash, session_code, mvpd_id, code_verifier, expires_at)
            VALUES (\(bind: p.stateHash), \(bind: p.sessionCode), \(bind: p.mvpdId), \(bind: p.codeVerifier), \(bind: p.expiresAt))
            """)
    }

    /// Takes (deletes and returns) the pending sign-in of a `state` hash: a callback is used once.
    package func takeOAuth2Pending(stateHash: String) async throws -> OAuth2PendingRecord? {
        try await first("DELETE FROM oauth2_pending WHERE state_hash = \(bind: stateHash) RETURNING *", as: OAuth2PendingRecord.self)
    }

    /// Stores the refresh token of a profile (replacing an older sign-in's).
    package func upsertOAuth2Grant(_ g: OAuth2GrantRecord) async throws {
        try await run(
            """
            INSERT INTO oauth2_grants (requestor_id, client_id, device_id, mvpd_id, refresh_token, profile_not_before, updated_at)
            VALUES (\(bind: g.requestorId), \(bind: g.clientId), \(bind: g.deviceId), \(bind: g.mvpdId), \(bind: g.refreshToken),
              \(bind: g.profileNotBefore), \(bind: g.updatedAt))
            ON CONFLICT (requestor_id, client_id, device_id, mvpd_id) DO UPDATE SET refresh_token = excluded.refresh_token,
              profile_not_before = excluded.profile_not_before, updated_at = excluded.updated_at
            """)
    }

    /// The refresh token of a profile.
    package func oauth2Grant(requestor: String, client: String, device: String, mvpd: String) async throws -> OAuth2GrantRecord? {
        try await first(
            """
            SELECT * FROM oauth2_grants WHERE requestor_id = \(bind: requestor) AND client_id = \(bind: client)
            AND device_id = \(bind: device) AND mvpd_id = \(bind: mvpd)
            """, as: OAuth2GrantRecord.self)
    }

    /// Forgets the refresh token of a profile; returns it when there was one.
    @discardableResult
    package func deleteOAuth2Grant(requestor: String, client: String, device: String, mvpd: String) async throws -> OAuth2GrantRecord? {
        try await first(
            """
            DELETE FROM oauth2_grants WHERE requestor_id = \(bind: requestor) AND client_id = \(bind: client)
            AND device_id = \(bind: device) AND mvpd_id = \(bind: mvpd) RETURNING *
            """, as: OAuth2GrantRecord.self)
    }

    /// Deletes pending OAuth 2.0 sign-ins that expired before `now` (ms).
    package func purgeExpiredOAuth2(now: Int64) async throws {
        try await run("DELETE FROM oauth2_pending WHERE expires_at < \(bind: now)")
    }

    /// Every stored refresh token (for re-encryption under a new key).
    package func allOAuth2Grants() async throws -> [OAuth2GrantRecord] {
        try await all("SELECT * FROM oauth2_grants", as: OAuth2GrantRecord.self)
    }

    /// Every MVPD's OAuth 2.0 settings (for re-encryption of the client secrets under a new key).
    package func allOAuth2Settings() async throws -> [MVPDOAuth2Record] {
        try await all("SELECT * FROM mvpd_oauth2", as: MVPDOAuth2Record.self)
    }

    /// Replaces a grant's encrypted refresh token unless it changed meanwhile (a refresh that rotated it wins).
    package func replaceOAuth2GrantToken(_ grant: OAuth2GrantRecord, with refreshToken: String) async throws {
        try await run(
            """
            UPDATE oauth2_grants SET refresh_token = \(bind: refreshToken) WHERE requestor_id = \(bind: grant.requestorId)
            AND client_id = \(bind: grant.clientId) AND device_id = \(bind: grant.deviceId) AND mvpd_id = \(bind: grant.mvpdId)
            AND refresh_token = \(bind: grant.refreshToken)
            """)
    }

    /// Replaces an MVPD's encrypted client secret unless it changed meanwhile.
    package func replaceOAuth2ClientSecret(mvpd: String, from old: String, to new: String) async throws {
        try await run("UPDATE mvpd_oauth2 SET client_secret = \(bind: new) WHERE mvpd_id = \(bind: mvpd) AND client_secret = \(bind: old)")
        try await catalogChanged()
    }
}
