import Foundation

/// The SDK's source of time: the current date and sleeping (second-screen polling, `Retry-After`).
public protocol AccessEnablerClock: Sendable {
    /// The current time.
    func now() -> Date
    /// Suspends for `seconds`; throws `CancellationError` when the task is cancelled.
    func sleep(seconds: Double) async throws
}

/// The real clock.
public struct SystemClock: AccessEnablerClock {
    /// Creates the system clock.
    public init() {}
    /// `Date()`.
    public func now() -> Date { Date() }
    /// `Task.sleep`.
    public func sleep(seconds: Double) async throws {
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }
}
