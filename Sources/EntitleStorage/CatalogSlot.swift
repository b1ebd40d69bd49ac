import EntitleModel
import Synchronization

/// The generation of a ``CatalogCache``: it advances whenever the cache is dropped, and every slot drops what it
/// holds from an older generation.
package final class CatalogGeneration: Sendable {
    private let value = Atomic<UInt64>(0)

    /// The current generation.
    package var current: UInt64 { value.load(ordering: .acquiring) }

    /// Drops everything cached (slots see it on their next use).
    package func advance() { value.wrappingAdd(1, ordering: .acquiringAndReleasing) }
}

/// One kind of cached catalog value: values of one type by one type of key, kept for one generation of the
/// ``CatalogCache`` (no string keys, no casts).
package final class CatalogSlot<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        /// The generation the entries were loaded under.
        var generation: UInt64 = 0
        var entries: [Key: Value] = [:]
    }

    private let generations: CatalogGeneration
    private let capacity: Int
    private let state = Mutex(State())

    /// Creates an empty slot following `generations`, keeping at most `capacity` entries.
    package init(_ generations: CatalogGeneration, _ capacity: Int) {
        self.generations = generations
        self.capacity = capacity
    }

    /// The cached value for `key` (nil when absent: an optional `Value` wraps once more) and the generation to store
    /// a fresh value under.
    package func lookup(_ key: Key) -> (value: Value?, generation: UInt64) {
        state.withLock { state in
            let generation = generations.current
            if state.generation != generation {
                state.generation = generation
                state.entries.removeAll(keepingCapacity: true)
            }
            return (state.entries[key], generation)
        }
    }

    /// Keeps a value loaded under `generation`, unless the cache was dropped meanwhile.
    package func store(_ key: Key, _ value: Value, generation: UInt64) {
        state.withLock { state in
            guard generations.current == generation else { return }
            if state.generation != generation {
                state.generation = generation
                state.entries.removeAll(keepingCapacity: true)
            }
            if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[key] = value
        }
    }
}
