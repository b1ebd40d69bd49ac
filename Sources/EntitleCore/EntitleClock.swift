import Foundation

/// Where Entitle reads the time and sleeps — the one clock of the package: the service, the DemoMVPD and the SDK
/// (``AccessEnabler``'s `AccessEnablerClock` is this protocol) all take one injected, so tests move time by hand.
/// Logic never calls `Date()` itself.
public protocol EntitleClock: Sendable {
    /// The current time.
    func now() -> Date
    /// Suspends for `seconds`; throws `CancellationError` when the task is cancelled.
    func sleep(seconds: Double) async throws
}

extension EntitleClock {
    /// The current time in milliseconds since 1970.
    public func nowMilliseconds() -> Int64 { Int64((now().timeIntervalSince1970 * 1000).rounded()) }

    /// `Task.sleep` for `seconds` (at least zero).
    public func sleep(seconds: Double) async throws {
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }
}

/// The real clock: `Date()` and `Task.sleep`.
public struct SystemClock: EntitleClock {
    /// Creates the system clock.
    public init() {}
    /// `Date()`.
    public func now() -> Date { Date() }
}

/// A clock that tests move by hand; its `sleep` is `Task.sleep`, as time passing is the test's to say.
public final class ManualClock: EntitleClock, @unchecked Sendable {
    // NSLock rather than `Mutex`: EntitleCore builds for iOS 17 and macOS 14, where `Mutex` is not available.
    private let lock = NSLock()
    private var current: Date

    /// Creates a clock at `start`.
    public init(_ start: Date = Date()) { current = start }

    /// The current time.
    public func now() -> Date { lock.withLock { current } }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }
}
