import EntitleModel
import SQLKit

extension ProfileStore {
    /// Reads the polled change feed (`profile_changes`, SQLite) when its last read is older than the cache's bound,
    /// evicting the devices changed since.
    package func pollProfileChanges() async throws {
        guard let due = profileCache.pollDue() else { return }
        do {
            guard let after = due.afterSequence else {
                // First poll: nothing is cached yet, only the position in the feed matters.
                let last =
                    try await sql.raw("SELECT COALESCE(MAX(seq), 0) AS seq FROM profile_changes").first()?
                    .decode(column: "seq", as: Int64.self) ?? 0
                profileCache.pollRead([], lastSequence: last, startedAt: due.startedAt)
                return
            }
            let rows = try await sql.raw(
                "SELECT seq, requestor_id, client_id, device_id FROM profile_changes WHERE seq > \(bind: after) ORDER BY seq"
            ).all()
            var changed: [ProfileCache.DeviceKey] = []
            var last = after
            for row in rows {
                last = max(last, try row.decode(column: "seq", as: Int64.self))
                // A row naming no device was rewritten by a privacy erase (PrivacyStore): drop every cached profile.
                if try row.decode(column: "requestor_id", as: String.self).isEmpty { profileCache.evictAll() }
                changed.append(
                    ProfileCache.DeviceKey(
                        requestor: try row.decode(column: "requestor_id", as: String.self),
                        client: try row.decode(column: "client_id", as: String.self),
                        device: try row.decode(column: "device_id", as: String.self)))
            }
            profileCache.pollRead(changed, lastSequence: last, startedAt: due.startedAt)
        } catch {
            profileCache.pollRead([], lastSequence: nil, startedAt: due.startedAt)
            throw error
        }
    }

    /// Drops change-feed rows every instance has long read (keeps the newest 100,000).
    package func purgeProfileChanges() async throws {
        guard sql.dialect.name == "sqlite" else { return }
        try await run("DELETE FROM profile_changes WHERE seq < (SELECT MAX(seq) FROM profile_changes) - 100000")
    }
}
