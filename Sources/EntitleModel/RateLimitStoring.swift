/// The shared token buckets of rate limits: ``RateLimitStore`` on SQL, ``InMemoryRateLimitStore`` in unit tests.
package protocol RateLimitStoring: Sendable {
    /// Takes one token from a token bucket; answers whether the request may proceed and, if not, how many seconds to wait.
    func takeToken(bucket: String, ratePerSecond: Double, burst: Double, now: Int64) async throws -> (allowed: Bool, retryAfter: Int)
}
