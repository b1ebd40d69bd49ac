import EntitleModel
import EntitleStorage
import Synchronization

/// Per-device token buckets in the memory of one instance: no database round trip per request.
///
/// The guarantee is per instance: one device gets at most `burst` requests at once and `ratePerSecond` after that
/// from each instance, so behind N instances it gets at most N× as much (a load balancer that keeps a device on one
/// instance keeps the single-instance figure). The table is bounded: past `capacity` devices, buckets that have
/// refilled completely (indistinguishable from new ones) are dropped, and if none has, the oldest half goes.
package final class DeviceRateLimiter: Sendable {
    package struct Bucket: Sendable {
        package var tokens: Double
        package var updatedAt: Int64

        /// Creates the value from each of its stored properties.
        package init(tokens: Double, updatedAt: Int64) {
            self.tokens = tokens
            self.updatedAt = updatedAt
        }
    }

    /// Most devices tracked at once.
    package let capacity: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    /// Creates an empty limiter.
    package init(capacity: Int = 200_000) { self.capacity = capacity }

    /// Takes one token from the bucket of `key` at `now` (ms); whether the request may proceed and, if not, how many
    /// seconds to wait.
    package func take(_ key: String, ratePerSecond: Double, burst: Double, now: Int64) -> (allowed: Bool, retryAfter: Int) {
        buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updatedAt: now)
            let elapsed = Double(max(0, now - bucket.updatedAt)) / 1000
            bucket.tokens = min(burst, bucket.tokens + elapsed * ratePerSecond)
            bucket.updatedAt = max(bucket.updatedAt, now)
            let allowed = bucket.tokens >= 1
            if allowed { bucket.tokens -= 1 }
            if buckets[key] == nil, buckets.count >= capacity {
                Self.prune(&buckets, capacity: capacity, ratePerSecond: ratePerSecond, burst: burst, now: now)
            }
            buckets[key] = bucket
            if allowed { return (true, 0) }
            return (false, max(1, Int(((1 - bucket.tokens) / max(ratePerSecond, 0.001)).rounded(.up))))
        }
    }

    /// Drops the bucket of `key` (a privacy erase of the device).
    package func forget(_ key: String) { _ = buckets.withLock { $0.removeValue(forKey: key) } }

    /// The number of devices tracked.
    package var count: Int { buckets.withLock { $0.count } }

    private static func prune(_ buckets: inout [String: Bucket], capacity: Int, ratePerSecond: Double, burst: Double, now: Int64) {
        buckets = buckets.filter { _, bucket in
            bucket.tokens + Double(max(0, now - bucket.updatedAt)) / 1000 * ratePerSecond < burst
        }
        guard buckets.count >= capacity else { return }
        let keep = buckets.sorted { $0.value.updatedAt > $1.value.updatedAt }.prefix(capacity / 2)
        buckets = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
    }
}
