import EntitleModel
import EntitleStorage
import Synchronization

/// Values made once per key and kept for the next use, bounded: past `capacity` keys everything is dropped and made
/// again on use (a crude bound, but a cache's contents are only ever a saving). Safe from any thread; a value is made
/// outside the lock, so two callers may both make the same one and the last kept wins.
package final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Most keys kept.
    package let capacity: Int
    private let values = Mutex<[Key: Value]>([:])

    package init(capacity: Int) { self.capacity = capacity }

    /// The value kept for `key`, if any.
    package func value(for key: Key) -> Value? { values.withLock { $0[key] } }

    /// Keeps `value` for `key`.
    package func keep(_ value: Value, for key: Key) {
        values.withLock { values in
            if values.count >= capacity, values[key] == nil { values.removeAll(keepingCapacity: true) }
            values[key] = value
        }
    }

    /// The value kept for `key`, or the one `make` returns, then kept (a failure of `make` is rethrown and keeps nothing).
    package func value<Failure: Error>(for key: Key, orMake make: () throws(Failure) -> Value) throws(Failure) -> Value {
        if let known = value(for: key) { return known }
        let made = try make()
        keep(made, for: key)
        return made
    }

    /// The number of keys kept.
    package var count: Int { values.withLock { $0.count } }
}
