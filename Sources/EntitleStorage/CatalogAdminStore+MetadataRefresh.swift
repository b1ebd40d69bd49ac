import EntitleModel
import SQLKit

/// The schedule of MVPD metadata fetched from a URL: which sources are due, and a claim that lets one instance alone
/// fetch each (several instances share one PostgreSQL database).
extension CatalogAdminStore {
    /// The MVPDs whose metadata URL was last read at or before `dueAt` (milliseconds), with that time, by id.
    package func metadataSourcesDue(at dueAt: Int64) async throws -> [(mvpd: String, refreshedAt: Int64)] {
        try await sql.raw("SELECT mvpd_id, refreshed_at FROM mvpd_metadata_sources WHERE refreshed_at <= \(bind: dueAt) ORDER BY mvpd_id")
            .all().map { (try $0.decode(column: "mvpd_id", as: String.self), try $0.decode(column: "refreshed_at", as: Int64.self)) }
    }

    /// Claims the next refresh of one MVPD's metadata: moves its read time from `seen` to `now` unless another instance
    /// did so first; tells whether this one did.
    package func claimMetadataRefresh(mvpd: String, seen: Int64, now: Int64) async throws -> Bool {
        try await touchedRow(
            """
            UPDATE mvpd_metadata_sources SET refreshed_at = \(bind: now)
            WHERE mvpd_id = \(bind: mvpd) AND refreshed_at = \(bind: seen) RETURNING mvpd_id
            """)
    }
}
