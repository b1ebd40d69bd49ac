import EntitleModel
import SQLKit

extension CatalogStore {
    /// The requestors that are not disabled, ordered by id: whose registered domains may call DCR from a browser
    /// (``WebOrigins`` keeps their domains for a generation of the catalog cache).
    package func enabledRequestors() async throws -> [RequestorRecord] {
        try await all(
            """
            SELECT r.* FROM requestors r
            WHERE NOT EXISTS (SELECT 1 FROM disabled_requestors d WHERE d.requestor_id = r.id) ORDER BY r.id
            """, as: RequestorRecord.self)
    }
}
