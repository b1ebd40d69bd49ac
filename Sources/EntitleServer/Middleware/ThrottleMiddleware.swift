import EntitleCore
import HTTPTypes
import Hummingbird

/// A token bucket per device (the `AP-Device-Identifier` header, else the peer address), attached to the route groups
/// of the client APIs (REST v2, DCR, REST v1, reggie, adobe-services); kept in the memory of each instance
/// (``DeviceRateLimiter``: no database write per request; behind N instances a device gets at most N× the burst and
/// rate). Over the limit: 429 with `Retry-After`.
struct ThrottleMiddleware: RouterMiddleware {
    let limiter: DeviceRateLimiter
    /// Requests per second per device; 0 turns throttling off.
    let ratePerSecond: Double
    let burst: Double
    let clock: any ServiceClock

    func handle(_ request: Request, context: AppContext, next: @concurrent (Request, AppContext) async throws -> Response) async throws -> Response {
        guard ratePerSecond > 0 else { return try await next(request, context) }
        let identity = request.headers.combinedValue(.deviceIdentifier).map { "dev:" + $0 } ?? "ip:" + (context.remoteIP ?? "unknown")
        let (allowed, retryAfter) = limiter.take(identity, ratePerSecond: ratePerSecond, burst: burst, now: clock.nowMilliseconds())
        guard allowed else { throw APIError(.tooManyRequests, headers: [.retryAfter: String(retryAfter)]) }
        return try await next(request, context)
    }
}
