import EntitleModel
import SQLKit

extension CatalogStore {
    /// The configured authorization TTL of (requestor, MVPD) in seconds: the integration's own, else the requestor's
    /// default, else the MVPD's, else nil.
    package func authorizationTTL(requestor: String, mvpd: String) async throws -> Int64? {
        let records = try await cached(catalogCache.authorizationTTLs, mvpd) {
            try await all("SELECT * FROM authorization_ttls WHERE mvpd_id = \(bind: mvpd)", as: AuthorizationTTLRecord.self)
        }
        if let own = records.first(where: { $0.requestorId == requestor }) { return own.ttlSeconds }
        if let requestorDefault = try await self.requestor(id: requestor)?.defaultAuthzTtlSeconds { return requestorDefault }
        return records.first { $0.requestorId == AuthorizationTTLRecord.anyRequestor }?.ttlSeconds
    }

    /// Sets the authorization TTL of an MVPD (for every requestor with `*`, or one requestor).
    package func setAuthorizationTTL(_ record: AuthorizationTTLRecord) async throws {
        try await run(
            """
            INSERT INTO authorization_ttls (requestor_id, mvpd_id, ttl_seconds)
            VALUES (\(bind: record.requestorId), \(bind: record.mvpdId), \(bind: record.ttlSeconds))
            ON CONFLICT (requestor_id, mvpd_id) DO UPDATE SET ttl_seconds = excluded.ttl_seconds
            """)
        try await catalogChanged()
    }

    /// Every configured authorization TTL.
    package func authorizationTTLs() async throws -> [AuthorizationTTLRecord] {
        try await all("SELECT * FROM authorization_ttls ORDER BY mvpd_id, requestor_id", as: AuthorizationTTLRecord.self)
    }
}
