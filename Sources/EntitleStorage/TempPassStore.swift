import EntitleModel
import SQLKit

/// TempPass windows and promotional passes.
package struct TempPassStore: SQLStore {
    /// The database and caches this store shares with the others.
    package let base: SQLStoreBase

    /// Creates the value from each of its stored properties.
    package init(base: SQLStoreBase) {
        self.base = base
    }
}

/// The TempPass of each device (table `temppasses`): when it started and when it ends.
extension TempPassStore {
    /// The TempPass of a device: its start and end (ms), created now if there is none.
    package func tempPass(requestor: String, mvpd: String, deviceKey: String, now: Int64, lengthMs: Int64) async throws -> (
        startedAt: Int64, expiresAt: Int64
    ) {
        try await run(
            """
            INSERT INTO temppasses (requestor_id, mvpd_id, device_key, started_at, expires_at)
            VALUES (\(bind: requestor), \(bind: mvpd), \(bind: deviceKey), \(bind: now), \(bind: now + lengthMs))
            ON CONFLICT (requestor_id, mvpd_id, device_key) DO NOTHING
            """)
        guard
            let row = try await sql.raw(
                """
                SELECT started_at, expires_at FROM temppasses WHERE requestor_id = \(bind: requestor)
                AND mvpd_id = \(bind: mvpd) AND device_key = \(bind: deviceKey)
                """
            ).first()
        else { return (now, now + lengthMs) }
        return (try row.decode(column: "started_at", as: Int64.self), try row.decode(column: "expires_at", as: Int64.self))
    }

    /// Deletes the TempPass of one device, or of all devices when `deviceKey` is nil; returns how many were reset.
    package func resetTempPass(requestor: String, mvpd: String, deviceKey: String?) async throws -> Int {
        if let deviceKey {
            return try await sql.raw(
                """
                DELETE FROM temppasses WHERE requestor_id = \(bind: requestor) AND mvpd_id = \(bind: mvpd)
                AND device_key = \(bind: deviceKey) RETURNING device_key
                """
            ).all().count
        }
        return try await sql.raw(
            """
            DELETE FROM temppasses WHERE requestor_id = \(bind: requestor) AND mvpd_id = \(bind: mvpd) RETURNING device_key
            """
        ).all().count
    }
}
