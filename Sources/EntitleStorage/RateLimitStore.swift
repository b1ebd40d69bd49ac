import EntitleModel
import SQLKit

/// The shared token buckets of rate limits.
package struct RateLimitStore: SQLStore {
    /// The database and caches this store shares with the others.
    package let base: SQLStoreBase

    /// Creates the value from each of its stored properties.
    package init(base: SQLStoreBase) {
        self.base = base
    }
}

/// Token buckets in the database (table `rate_buckets`), for limits that must hold across instances, such as failed
/// registration-code lookups per device or address; `purgeExpired(now:)` drops idle buckets. Per-device request throttling keeps
/// its buckets in the memory of each instance instead (``DeviceRateLimiter``).
extension RateLimitStore {
    /// Takes one token from a token bucket; answers whether the request may proceed and, if not, how many seconds to wait.
    package func takeToken(bucket: String, ratePerSecond: Double, burst: Double, now: Int64) async throws -> (allowed: Bool, retryAfter: Int) {
        // refill = min(burst, tokens + elapsed * rate); a request consumes one token only when at least one is there.
        let row = try await sql.raw(
            """
            INSERT INTO rate_buckets (bucket_key, tokens, updated_at) VALUES (\(bind: bucket), \(bind: burst - 1), \(bind: now))
            ON CONFLICT (bucket_key) DO UPDATE SET
              tokens = CASE
                WHEN (CASE WHEN rate_buckets.tokens + (\(bind: now) - rate_buckets.updated_at) * \(bind: ratePerSecond) / 1000.0 > \(bind: burst)
                           THEN \(bind: burst) ELSE rate_buckets.tokens + (\(bind: now) - rate_buckets.updated_at) * \(bind: ratePerSecond) / 1000.0 END) >= 1
                THEN (CASE WHEN rate_buckets.tokens + (\(bind: now) - rate_buckets.updated_at) * \(bind: ratePerSecond) / 1000.0 > \(bind: burst)
                           THEN \(bind: burst) ELSE rate_buckets.tokens + (\(bind: now) - rate_buckets.updated_at) * \(bind: ratePerSecond) / 1000.0 END) - 1
                ELSE -1 + (CASE WHEN rate_buckets.tokens + (\(bind: now) - rate_buckets.updated_at) * \(bind: ratePerSecond) / 1000.0 > \(bind: burst)
                           THEN \(bind: burst) ELSE rate_buckets.tokens + (\(bind: now) - rate_buckets.updated_at) * \(bind: ratePerSecond) / 1000.0 END)
              END,
              updated_at = \(bind: now)
            RETURNING tokens
            """
        ).first()
        let tokens = try row?.decode(column: "tokens", as: Double.self) ?? 0
        if tokens >= 0 { return (true, 0) }
        // Refused: put the token back (the refused request must not consume), then tell how long to wait.
        try await run("UPDATE rate_buckets SET tokens = tokens + 1 WHERE bucket_key = \(bind: bucket)")
        let missing = -tokens
        return (false, max(1, Int((missing / max(ratePerSecond, 0.001)).rounded(.up))))
    }
}
