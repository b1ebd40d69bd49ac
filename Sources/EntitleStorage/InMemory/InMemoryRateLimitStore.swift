import EntitleModel
import Synchronization

/// Token buckets in memory, for unit tests without a database; the same arithmetic as ``RateLimitStore``'s statement
/// (refill at `ratePerSecond` up to `burst`; a refused request takes nothing).
package final class InMemoryRateLimitStore: RateLimitStoring {
    private let buckets = Mutex<[String: (tokens: Double, updatedAt: Int64)]>([:])

    /// Creates an empty store.
    package init() {}

    /// Takes one token from a token bucket; answers whether the request may proceed and, if not, how many seconds to wait.
    package func takeToken(bucket: String, ratePerSecond: Double, burst: Double, now: Int64) async throws -> (allowed: Bool, retryAfter: Int) {
        buckets.withLock { buckets in
            let refilled = buckets[bucket].map { min(burst, $0.tokens + Double(now - $0.updatedAt) * ratePerSecond / 1000.0) } ?? burst
            if refilled >= 1 {
                buckets[bucket] = (refilled - 1, now)
                return (true, 0)
            }
            buckets[bucket] = (refilled, now)
            return (false, max(1, Int(((1 - refilled) / max(ratePerSecond, 0.001)).rounded(.up))))
        }
    }
}
