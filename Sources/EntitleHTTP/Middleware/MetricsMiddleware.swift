import EntitleDomain
import EntitleModel
import Hummingbird

/// Counts requests and their latency by route template (never by raw path, which would carry codes).
///
/// Not Hummingbird's `MetricsMiddleware`: that one records through swift-metrics' process-wide `MetricsSystem`
/// (bootstrapped once per process), under its own names and labels (`http.route`, `http.request.method`, a timer without
/// our buckets). The service's metrics live in a Prometheus registry it owns (``ServiceMetrics``, rendered at `/metrics`),
/// so that several services in one process — every flow test, two instances on one database — keep separate figures and
/// dashboards keep `entitle_http_requests_total{method,route,status}` and `entitle_http_request_duration_seconds`.
package struct MetricsMiddleware: RouterMiddleware {
    package let metrics: ServiceMetrics

    package func handle(_ request: Request, context: AppContext, next: @concurrent (Request, AppContext) async throws -> Response) async throws
        -> Response
    {
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

    /// Creates the value from each of its stored properties.
    package init(metrics: ServiceMetrics) {
        self.metrics = metrics
    }
}
