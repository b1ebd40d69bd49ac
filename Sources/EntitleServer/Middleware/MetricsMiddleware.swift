import Hummingbird

/// Counts requests and their latency by route template (never by raw path, which would carry codes).
struct MetricsMiddleware: RouterMiddleware {
    let metrics: ServiceMetrics

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            metrics.recordRequest(
                method: request.method.rawValue, route: context.endpointPath ?? "unmatched",
                status: Int(response.status.code), duration: ContinuousClock.now - start)
            return response
        } catch let error as any HTTPResponseError {
            metrics.recordRequest(
                method: request.method.rawValue, route: context.endpointPath ?? "unmatched",
                status: Int(error.status.code), duration: ContinuousClock.now - start)
            throw error
        }
    }
}
