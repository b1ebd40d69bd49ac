import EntitleModel
import SQLKit

extension LegacyStore {
    /// Records an issued AuthN token.
    package func insertAdobeToken(_ t: AdobeTokenRecord, now: Int64) async throws {
        if Int.random(in: 0..<128) == 0 { try await run("DELETE FROM adobe_tokens WHERE expires_at < \(bind: now - 86_400_000)") }
        try await run(
            """
            INSERT INTO adobe_tokens (guid, requestor_id, client_id, device_id, mvpd_id, profile_not_before, expires_at)
            VALUES (\(bind: t.guid), \(bind: t.requestorId), \(bind: t.clientId), \(bind: t.deviceId), \(bind: t.mvpdId),
                    \(bind: t.profileNotBefore), \(bind: t.expiresAt))
            """)
    }

    /// An AuthN token by GUID.
    package func adobeToken(guid: String) async throws -> AdobeTokenRecord? {
        try await first("SELECT * FROM adobe_tokens WHERE guid = \(bind: guid)", as: AdobeTokenRecord.self)
    }

    /// The AuthN tokens issued to a device.
    package func adobeTokens(requestor: String, client: String, device: String) async throws -> [AdobeTokenRecord] {
        try await all(
            """
            SELECT * FROM adobe_tokens WHERE requestor_id = \(bind: requestor) AND client_id = \(bind: client) AND device_id = \(bind: device)
            """, as: AdobeTokenRecord.self)
    }

    /// Forgets the AuthN tokens of a device (after telling it `pendingLogout`, or at logout).
    package func deleteAdobeTokens(requestor: String, client: String, device: String) async throws {
        try await run(
            """
            DELETE FROM adobe_tokens WHERE requestor_id = \(bind: requestor) AND client_id = \(bind: client) AND device_id = \(bind: device)
            """)
    }
}
