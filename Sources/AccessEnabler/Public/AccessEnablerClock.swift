import EntitleCore

/// The SDK's source of time: the current date and sleeping (second-screen polling, `Retry-After`) — the package's one
/// clock, ``EntitleCore/EntitleClock``; ``EntitleCore/SystemClock`` by default.
public typealias AccessEnablerClock = EntitleClock
