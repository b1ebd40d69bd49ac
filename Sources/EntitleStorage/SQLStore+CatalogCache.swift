import EntitleModel
import SQLKit

extension SQLStore {
    /// A catalog value from memory, loaded by `load` when absent or when the catalog changed (see ``CatalogCache``).
    package func cached<Key, Value>(_ slot: CatalogSlot<Key, Value>, _ key: Key, _ load: () async throws -> Value) async throws -> Value {
        // The usual case, a recent version check and a present entry, without an async call.
        if catalogCache.isFresh(), let value = slot.lookup(key).value { return value }
        try await refreshCatalogVersion()
        let (value, generation) = slot.lookup(key)
        // A present entry, even a cached nil when Value is optional.
        if let value { return value }
        let loaded = try await load()
        slot.store(key, loaded, generation: generation)
        return loaded
    }

    /// Like ``cached(_:_:_:)`` for an optional value, remembering only values that exist (for rows whose creation
    /// does not bump the catalog version, such as clients).
    package func cachedIfPresent<Key, Value>(_ slot: CatalogSlot<Key, Value>, _ key: Key, _ load: () async throws -> Value?) async throws -> Value? {
        if catalogCache.isFresh(), let value = slot.lookup(key).value { return value }
        try await refreshCatalogVersion()
        let (value, generation) = slot.lookup(key)
        if let value { return value }
        guard let loaded = try await load() else { return nil }
        slot.store(key, loaded, generation: generation)
        return loaded
    }

    /// Reads the catalog version when the last read is too old, dropping the cache when it changed. `ahead`: when it
    /// is older than half the refresh interval, so that it is read again before the cache stops being fresh (the
    /// host's ``CatalogVersionPoller``; a request that finds the cache stale reads the version itself, unless a read is
    /// already under way, and then uses what is cached meanwhile).
    package func refreshCatalogVersion(ahead: Bool = false) async throws {
        let (due, startedAt) = catalogCache.versionCheckDue(olderThan: ahead ? catalogCache.refreshInterval / 2 : nil)
        guard due else { return }
        do {
            let version = try await sql.raw("SELECT version FROM catalog_version WHERE id = 1").first()?
                .decode(column: "version", as: Int64.self)
            catalogCache.versionRead(version, at: startedAt)
        } catch {
            catalogCache.versionRead(nil, at: startedAt)
            throw error
        }
    }

    /// The current catalog version in the database.
    package func catalogVersion() async throws -> Int64 {
        try await sql.raw("SELECT version FROM catalog_version WHERE id = 1").first()?.decode(column: "version", as: Int64.self) ?? 0
    }

    /// Records a catalog change: bumps the shared version (seen by every instance and process within the refresh
    /// interval) and drops this instance's cache at once. Called after every catalog write.
    package func catalogChanged() async throws {
        try await run("UPDATE catalog_version SET version = version + 1 WHERE id = 1")
        catalogCache.invalidate()
    }
}
