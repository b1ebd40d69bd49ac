import Foundation

/// A ``ReplayGuard`` for one process: remembers used tokens until they expire, then forgets them.
///
/// Expired entries are swept at most once per `sweepInterval` and whenever the store is full. When `capacity`
/// unexpired entries are held, new tokens are refused (fail closed) with ``ReplayGuardError/Code/full``.
public actor InMemoryReplayGuard: ReplayGuard {
    private var expiries: [ReplayKey: Date] = [:]
    private var nextSweep: Date?
    private let capacity: Int
    private let sweepInterval: TimeInterval

    /// Creates an empty store.
    public init(capacity: Int = 1_000_000, sweepInterval: Duration = .seconds(60)) {
        self.capacity = max(1, capacity)
        let parts = sweepInterval.components
        self.sweepInterval = max(0, Double(parts.seconds) + Double(parts.attoseconds) / 1e18)
    }

    /// The number of remembered (possibly already expired, not yet swept) uses.
    public var count: Int { expiries.count }

    /// Records a first use; see ``ReplayGuard/claimFirstUse(of:until:now:)``.
    public func claimFirstUse(of key: ReplayKey, until expiry: Date, now: Date) throws -> Bool {
        if nextSweep.map({ now >= $0 }) ?? true {
            sweep(now: now)
        }
        if let known = expiries[key], known > now { return false }
        if expiries.count >= capacity {
            sweep(now: now)
            guard expiries.count < capacity else {
                throw ReplayGuardError(.full, "replay store holds \(capacity) unexpired tokens")
            }
        }
        expiries[key] = expiry
        return true
    }

    private func sweep(now: Date) {
        expiries = expiries.filter { $0.value > now }
        nextSweep = now.addingTimeInterval(sweepInterval)
    }
}
