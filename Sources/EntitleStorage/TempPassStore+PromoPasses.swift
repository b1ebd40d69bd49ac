import EntitleModel
import SQLKit

extension TempPassStore {
    /// The pass of an identity or a device, created when there is none.
    package func promoPass(requestor: String, mvpd: String, identityKey: String, deviceKey: String, now: Int64, lengthMs: Int64) async throws
        -> PromoPassRecord
    {
        if let existing = try await first(
            """
            SELECT * FROM promo_passes WHERE requestor_id = \(bind: requestor) AND mvpd_id = \(bind: mvpd)
            AND (identity_key = \(bind: identityKey) OR device_key = \(bind: deviceKey)) ORDER BY started_at LIMIT 1
            """, as: PromoPassRecord.self)
        {
            return existing
        }
        let record = PromoPassRecord(
            passKey: Secrets.sha256Hex([requestor, mvpd, identityKey].joined(separator: "|")), requestorId: requestor,
            mvpdId: mvpd, identityKey: identityKey, deviceKey: deviceKey, startedAt: now, expiresAt: now + lengthMs)
        try await run(
            """
            INSERT INTO promo_passes (pass_key, requestor_id, mvpd_id, identity_key, device_key, started_at, expires_at)
            VALUES (\(bind: record.passKey), \(bind: record.requestorId), \(bind: record.mvpdId), \(bind: record.identityKey),
                    \(bind: record.deviceKey), \(bind: record.startedAt), \(bind: record.expiresAt))
            ON CONFLICT (pass_key) DO NOTHING
            """)
        return try await first("SELECT * FROM promo_passes WHERE pass_key = \(bind: record.passKey)", as: PromoPassRecord.self) ?? record
    }

    /// A pass by key.
    package func promoPass(key: String) async throws -> PromoPassRecord? {
        try await first("SELECT * FROM promo_passes WHERE pass_key = \(bind: key)", as: PromoPassRecord.self)
    }

    /// Resources already played with a pass.
    package func promoResources(passKey: String) async throws -> [String] {
        try await sql.raw("SELECT resource FROM promo_resources WHERE pass_key = \(bind: passKey) ORDER BY used_at, resource")
            .all(decodingColumn: "resource", as: String.self)
    }

    /// Uses a resource with a pass: true when it was used before or a slot was free (atomically, across instances).
    package func usePromoResource(passKey: String, resource: String, limit: Int64, now: Int64) async throws -> Bool {
        if try await sql.raw("SELECT resource FROM promo_resources WHERE pass_key = \(bind: passKey) AND resource = \(bind: resource)").first() != nil
        {
            return true
        }
        return try await touchedRow(
            """
            INSERT INTO promo_resources (pass_key, resource, used_at)
            SELECT \(bind: passKey), \(bind: resource), \(bind: now)
            WHERE (SELECT COUNT(*) FROM promo_resources WHERE pass_key = \(bind: passKey)) < \(bind: limit)
            ON CONFLICT (pass_key, resource) DO NOTHING RETURNING resource
            """)
    }

    /// Deletes Promotional TempPasses by device key, identity key, or all of an MVPD; returns how many.
    package func resetPromoPasses(requestor: String, mvpd: String, deviceKey: String?, identityKey: String?) async throws -> Int {
        let passes: [PromoPassRecord]
        if let deviceKey {
            passes = try await all(
                """
                SELECT * FROM promo_passes WHERE requestor_id = \(bind: requestor) AND mvpd_id = \(bind: mvpd) AND device_key = \(bind: deviceKey)
                """, as: PromoPassRecord.self)
        } else if let identityKey {
            passes = try await all(
                """
                SELECT * FROM promo_passes WHERE requestor_id = \(bind: requestor) AND mvpd_id = \(bind: mvpd) AND identity_key = \(bind: identityKey)
                """, as: PromoPassRecord.self)
        } else {
            passes = try await all(
                "SELECT * FROM promo_passes WHERE requestor_id = \(bind: requestor) AND mvpd_id = \(bind: mvpd)", as: PromoPassRecord.self)
        }
        for pass in passes {
            try await run("DELETE FROM promo_resources WHERE pass_key = \(bind: pass.passKey)")
            try await run("DELETE FROM promo_passes WHERE pass_key = \(bind: pass.passKey)")
        }
        return passes.count
    }
}
