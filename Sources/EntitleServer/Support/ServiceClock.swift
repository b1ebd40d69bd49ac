import Foundation
import Synchronization

/// Where the service reads the time; injected so tests can move it.
public protocol ServiceClock: Sendable {
    /// The current time.
    func now() -> Date
}

extension ServiceClock {
    /// The current time in milliseconds since 1970.
    public func nowMilliseconds() -> Int64 { Int64((now().timeIntervalSince1970 * 1000).rounded()) }
}

/// The real clock.
public struct SystemClock: ServiceClock {
    /// Creates the system clock.
    public init() {}
    /// The current time.
    public func now() -> Date { Date() }
}

/// A clock that tests move by hand.
public final class ManualClock: ServiceClock {
    private let current: Mutex<Date>
    /// Creates a clock at `start`.
    public init(_ start: Date = Date()) { current = Mutex(start) }
    /// The current time.
    public func now() -> Date { current.withLock { $0 } }
    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}
