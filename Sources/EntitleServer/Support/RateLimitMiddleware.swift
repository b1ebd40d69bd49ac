import EntitleCore
import HTTPTypes
import Hummingbird

/// A token bucket per device (the `AP-Device-Identifier` header, else the peer address) on the DCR and REST v2
/// endpoints, kept in the memory of each instance (``DeviceRateLimiter``: no database write per request; behind N
/// instances a device gets at most N× the burst and rate). Over the limit: 429 with `Retry-After`.
struct RateLimitMiddleware: RouterMiddleware {
    let service: EntitleService

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        let limited = path.hasPrefix("/api/v2/") || path.hasPrefix("/o/client/") || path.hasPrefix("/api/v1/") || path.hasPrefix("/reggie/v1/")
            || path.hasPrefix("/adobe-services/config/")
        guard limited, service.configuration.rateLimitPerSecond > 0 else { return try await next(request, context) }
        let identity = request.headers[.deviceIdentifier].map { "dev:" + $0 } ?? "ip:" + (context.remoteIP ?? "unknown")
        let (allowed, retryAfter) = service.caches.rateLimiter.take(
            identity, ratePerSecond: service.configuration.rateLimitPerSecond,
            burst: service.configuration.rateLimitBurst, now: service.now)
        guard allowed else { throw APIError(.tooManyRequests, headers: [.retryAfter: String(retryAfter)]) }
        return try await next(request, context)
    }
}

/// Counts requests and their latency by route template (never by raw path, which would carry codes).
struct MetricsMiddleware: RouterMiddleware {
    let metrics: ServiceMetrics

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            metrics.recordRequest(method: request.method.rawValue, route: context.endpointPath ?? "unmatched",
                                  status: Int(response.status.code), duration: ContinuousClock.now - start)
            return response
        } catch let error as any HTTPResponseError {
            metrics.recordRequest(method: request.method.rawValue, route: context.endpointPath ?? "unmatched",
                                  status: Int(error.status.code), duration: ContinuousClock.now - start)
            throw error
        }
    }
}
