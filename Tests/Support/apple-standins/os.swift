// Stand-in for Apple's `os` module (see README.md): only what the SDK uses.

/// `os.OSAllocatedUnfairLock` (iOS 16, tvOS 16, macOS 13).
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public struct OSAllocatedUnfairLock<State>: @unchecked Sendable {
    /// `init(uncheckedState:)`.
    public init(uncheckedState initialState: State) { fatalError("stand-in") }
    /// `withLockUnchecked(_:)`.
    public func withLockUnchecked<R>(_ body: (inout State) throws -> R) rethrows -> R { fatalError("stand-in") }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension OSAllocatedUnfairLock where State: Sendable {
    /// `init(initialState:)`.
    public init(initialState: State) { fatalError("stand-in") }
    /// `withLock(_:)`.
    public func withLock<R>(_ body: @Sendable (inout State) throws -> R) rethrows -> R where R: Sendable { fatalError("stand-in") }
}
