import Synchronization

/// The in-memory copy of the catalog (requestors, MVPDs, integrations, software statements, clients, keys,
/// degradation rules) of one instance.
///
/// Every catalog write, by any process on the same database, bumps the row of `catalog_version`. Before a cached
/// value is used, the version is read again when the last read is older than `refreshInterval`; when it changed,
/// everything cached is dropped. So a change made anywhere is seen by every instance within `refreshInterval`
/// (plus one query). A `refreshInterval` of zero reads the version before every use (strict, one small query).
/// Writes made through this instance drop the cache at once. Values loaded while the cache was dropped are not kept
/// (a generation counter), so a stale read can never be stored after a change was seen.
package final class CatalogCache: Sendable {
    /// The default bound on how long a change made elsewhere stays unseen.
    package static let defaultRefreshInterval: Duration = .milliseconds(500)

    struct State: Sendable {
        var version: Int64?
        var generation: UInt64 = 0
        var entries: [String: any Sendable] = [:]
        var checkedAt: ContinuousClock.Instant?
        var checking = false
    }

    /// How old the last version check may be before a cached value is used.
    package let refreshInterval: Duration
    /// Entries kept at most; when full, the cache starts again empty.
    package let capacity: Int
    private let state = Mutex(State())
    private let clock = ContinuousClock()

    /// Creates an empty cache.
    package init(refreshInterval: Duration = CatalogCache.defaultRefreshInterval, capacity: Int = 100_000) {
        self.refreshInterval = refreshInterval
        self.capacity = capacity
    }

    /// Whether the version must be read now; when true the caller reads it and calls ``versionRead(_:at:)``.
    func versionCheckDue() -> (due: Bool, startedAt: ContinuousClock.Instant) {
        let now = clock.now
        return state.withLock { state in
            if refreshInterval == .zero || state.version == nil { return (true, now) }
            guard !state.checking, let checkedAt = state.checkedAt, now - checkedAt >= refreshInterval else { return (false, now) }
            state.checking = true
            return (true, now)
        }
    }

    /// Records the version read at `startedAt`; drops everything when it changed.
    func versionRead(_ version: Int64?, at startedAt: ContinuousClock.Instant) {
        state.withLock { state in
            state.checking = false
            guard let version else { return }
            if state.version != version {
                state.version = version
                state.generation &+= 1
                state.entries.removeAll(keepingCapacity: true)
            }
            if state.checkedAt.map({ $0 < startedAt }) ?? true { state.checkedAt = startedAt }
        }
    }

    /// The cached value for `key` and the generation to store a fresh value under.
    func lookup(_ key: String) -> (value: (any Sendable)?, generation: UInt64) {
        state.withLock { ($0.entries[key], $0.generation) }
    }

    /// Keeps a value loaded under `generation`, unless the cache was dropped meanwhile.
    func store(_ key: String, _ value: any Sendable, generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[key] = value
        }
    }

    /// Drops everything (a write through this instance).
    package func invalidate() {
        state.withLock { state in
            state.generation &+= 1
            state.entries.removeAll(keepingCapacity: true)
        }
    }

    /// The generation: it changes whenever the cache is dropped (other caches derived from the catalog follow it).
    package var generation: UInt64 { state.withLock { $0.generation } }
}
