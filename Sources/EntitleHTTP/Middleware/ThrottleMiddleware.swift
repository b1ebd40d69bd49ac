import EntitleCore
import EntitleDomain
import EntitleModel
import HTTPTypes
import Hummingbird

/// A token bucket per device (the `AP-Device-Identifier` header, else the peer address), attached to the route groups
/// of the client APIs (REST v2, DCR, REST v1, reggie, adobe-services); kept in the memory of each instance
/// (``DeviceRateLimiter``: no database write per request; behind N instances a device gets at most N× the burst and
/// rate). Over the limit: 429 with `Retry-After`.
package struct ThrottleMiddleware: RouterMiddleware {
    package let limiter: DeviceRateLimiter
    /// Requests per second per device; 0 turns throttling off.
    package let ratePerSecond: Double
    package let burst: Double
    package let clock: any ServiceClock

    package func handle(_ request: Request, context: AppContext, next: @concurrent (Request, AppContext) async throws -> Response) async throws
        -> Response
    {
        guard ratePerSecond > 0 else { return try await next(request, context) }
        let identity = request.headers.combinedValue(.deviceIdentifier).map { "dev:" + $0 } ?? "ip:" + (context.remoteIP ?? "unknown")
        let (allowed, retryAfter) = limiter.take(identity, ratePerSecond: ratePerSecond, burst: burst, now: clock.nowMilliseconds())
        guard allowed else { throw APIError(.tooManyRequests, headers: [.retryAfter: String(retryAfter)]) }
        return try await next(request, context)
    }

    /// Creates the value from each of its stored properties.
    package init(limiter: DeviceRateLimiter, ratePerSecond: Double, burst: Double, clock: any ServiceClock) {
        self.limiter = limiter
        self.ratePerSecond = ratePerSecond
        self.burst = burst
        self.clock = clock
    }
}
