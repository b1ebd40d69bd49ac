import Foundation
import Synchronization

/// Where the service reads the time; injected so tests can move it.
package protocol ServiceClock: Sendable {
    /// The current time.
    func now() -> Date
}

extension ServiceClock {
    /// The current time in milliseconds since 1970.
    package func nowMilliseconds() -> Int64 { Int64((now().timeIntervalSince1970 * 1000).rounded()) }
}

/// The real clock.
package struct SystemClock: ServiceClock {
    /// Creates the system clock.
    package init() {}
    /// The current time.
    package func now() -> Date { Date() }
}

/// A clock that tests move by hand.
package final class ManualClock: ServiceClock {
    private let current: Mutex<Date>
    /// Creates a clock at `start`.
    package init(_ start: Date = Date()) { current = Mutex(start) }
    /// The current time.
    package func now() -> Date { current.withLock { $0 } }
    /// Moves the clock forward.
    package func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}
