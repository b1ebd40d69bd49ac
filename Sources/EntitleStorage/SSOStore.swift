import EntitleModel
import SQLKit

/// SSO issuers (platform identity and service token) and the sign-ins shared under an SSO identity. Issuers are part of
/// the catalog: a change bumps its version, so every instance sees it within the catalog's bound.
package struct SSOStore: SQLStore {
    /// The database and caches this store shares with the others.
    package let base: SQLStoreBase

    /// Creates the value from each of its stored properties.
    package init(base: SQLStoreBase) {
        self.base = base
    }

    /// The row of `sso_issuers`, lists as JSON text.
    private struct IssuerRow: Decodable {
        var id: String
        var type: String
        var issuer: String
        var audience: String?
        var publicKeys: String
        var jwksUrl: String?
        var requestors: String
        var createdAt: Int64
        var updatedAt: Int64

        var record: SSOIssuerRecord {
            SSOIssuerRecord(
                id: id, type: SSOIssuerType(rawValue: type), issuer: issuer, audience: audience, publicKeys: JSONText.decode(publicKeys),
                jwksURL: jwksUrl, requestors: JSONText.decode(requestors), createdAt: createdAt, updatedAt: updatedAt)
        }
    }
}

extension SSOStore {
    /// Creates or replaces an issuer (keeping its first `created_at`).
    package func saveIssuer(_ r: SSOIssuerRecord) async throws {
        try await run(
            """
            INSERT INTO sso_issuers (id, type, issuer, audience, public_keys, jwks_url, requestors, created_at, updated_at)
            VALUES (\(bind: r.id), \(bind: r.type.rawValue), \(bind: r.issuer), \(bind: r.audience), \(bind: JSONText.encode(r.publicKeys)),
              \(bind: r.jwksURL), \(bind: JSONText.encode(r.requestors)), \(bind: r.createdAt), \(bind: r.updatedAt))
            ON CONFLICT (id) DO UPDATE SET type = excluded.type, issuer = excluded.issuer, audience = excluded.audience,
              public_keys = excluded.public_keys, jwks_url = excluded.jwks_url, requestors = excluded.requestors,
              updated_at = excluded.updated_at
            """)
        try await catalogChanged()
    }

    /// Removes an issuer and every sign-in shared under its identities; returns whether there was one.
    package func deleteIssuer(id: String) async throws -> Bool {
        let touched = try await touchedRow("DELETE FROM sso_issuers WHERE id = \(bind: id) RETURNING id")
        try await run("DELETE FROM sso_sign_ins WHERE issuer_id = \(bind: id)")
        if touched { try await catalogChanged() }
        return touched
    }

    /// Every issuer, by id (read from the database).
    package func issuers() async throws -> [SSOIssuerRecord] {
        try await all("SELECT * FROM sso_issuers ORDER BY id", as: IssuerRow.self).map(\.record)
    }

    /// Every issuer, kept in `slot` (a slot of the catalog cache) until the catalog changes.
    package func issuers(cachedIn slot: CatalogSlot<CatalogCache.Whole, [SSOIssuerRecord]>) async throws -> [SSOIssuerRecord] {
        try await cached(slot, .table) { try await issuers() }
    }

    /// One issuer.
    package func issuer(id: String) async throws -> SSOIssuerRecord? {
        try await first("SELECT * FROM sso_issuers WHERE id = \(bind: id)", as: IssuerRow.self)?.record
    }
}

extension SSOStore {
    /// Shares a sign-in under an identity (nothing when it is shared already).
    package func shareSignIn(_ r: SSOSignInRecord) async throws {
        try await run(
            """
            INSERT INTO sso_sign_ins (issuer_id, subject_hash, requestor_id, session_code, created_at)
            VALUES (\(bind: r.issuerId), \(bind: r.subjectHash), \(bind: r.requestorId), \(bind: r.sessionCode), \(bind: r.createdAt))
            ON CONFLICT (issuer_id, subject_hash, requestor_id, session_code) DO NOTHING
            """)
    }

    /// The sign-ins shared under an identity, newest first, at most `limit`.
    package func sharedSignIns(issuer: String, subjectHash: String, limit: Int = 100) async throws -> [SSOSignInRecord] {
        try await all(
            """
            SELECT * FROM sso_sign_ins WHERE issuer_id = \(bind: issuer) AND subject_hash = \(bind: subjectHash)
            ORDER BY created_at DESC LIMIT \(bind: limit)
            """, as: SSOSignInRecord.self)
    }

    /// Stops sharing one sign-in.
    package func unshareSignIn(_ r: SSOSignInRecord) async throws {
        try await run(
            """
            DELETE FROM sso_sign_ins WHERE issuer_id = \(bind: r.issuerId) AND subject_hash = \(bind: r.subjectHash)
              AND requestor_id = \(bind: r.requestorId) AND session_code = \(bind: r.sessionCode)
            """)
    }
}

extension Repository {
    /// SSO issuers and the sign-ins shared under SSO identities.
    package var sso: SSOStore { SSOStore(base: base) }
}
