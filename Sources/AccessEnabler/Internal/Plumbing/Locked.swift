#if canImport(os)
import os
#else
import Synchronization
#endif

/// A small lock around a value, used for the few pieces of state the public class keeps outside the engine actor.
///
/// It is a `Mutex` on Linux and an `OSAllocatedUnfairLock` on Apple platforms (where `Mutex` needs iOS 18).
final class Locked<Value: Sendable>: Sendable {
    #if canImport(os)
    private let lock: OSAllocatedUnfairLock<Value>
    #else
    private let lock: Mutex<Value>
    #endif

    /// Creates a lock holding `value`.
    init(_ value: Value) {
        #if canImport(os)
        lock = OSAllocatedUnfairLock(initialState: value)
        #else
        lock = Mutex(value)
        #endif
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<R: Sendable>(_ body: @Sendable (inout Value) -> R) -> R {
        #if canImport(os)
        return lock.withLock { body(&$0) }
        #else
        return lock.withLock { body(&$0) }
        #endif
    }

    /// The current value.
    var value: Value { withLock { $0 } }
}
