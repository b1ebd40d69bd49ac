import EntitleCore
import EntitleModel
import EntitleStorage

/// Dropping what instances keep in memory: a catalog change makes every instance drop its cached catalog and the MVPD
/// answers kept under it (within the catalog refresh bound).
package struct CacheOperations: Sendable {
    private let repository: Repository
    private let changes: ChangeRecorder

    package init(repository: Repository, changes: ChangeRecorder) {
        self.repository = repository
        self.changes = changes
    }

    /// Flushes every instance's caches; returns the new catalog version.
    package func flush(actor: String) async throws -> Int64 {
        try OperatorReach.requireServiceWide("flushing every instance's caches")
        try await repository.catalogChanged()
        try await changes.record(actor: actor, action: "cache.flush", target: "all")
        return try await repository.catalogVersion()
    }
}
