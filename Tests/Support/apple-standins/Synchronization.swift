// Stand-in for the standard library's `Synchronization` module as the SDK's platforms see it (see README.md):
// `Mutex` needs iOS 18 / tvOS 18 / macOS 15, newer than the platforms the package declares, so the type-check
// makes it unavailable. Use the SDK's `Locked` (OSAllocatedUnfairLock on Apple platforms).

/// `Synchronization.Mutex` (iOS 18, tvOS 18, macOS 15).
@available(*, unavailable, message: "Mutex needs iOS 18 / tvOS 18 / macOS 15, newer than Package.swift's platforms: use Locked")
public struct Mutex<Value>: ~Copyable {
    public init(_ initialValue: consuming Value) { fatalError("stand-in") }
    public borrowing func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result { fatalError("stand-in") }
}
