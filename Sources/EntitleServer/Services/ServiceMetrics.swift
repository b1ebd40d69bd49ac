import Foundation
import Prometheus

/// The service's Prometheus metrics, in a registry owned by the application (no global bootstrap).
public struct ServiceMetrics: Sendable {
    /// The registry rendered at `/metrics`.
    public let registry = PrometheusCollectorRegistry()

    /// Creates the metrics.
    public init() {}

    /// Counts a request and records its latency.
    func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        registry.makeCounter(name: "entitle_http_requests_total",
                             labels: [("method", method), ("route", route), ("status", String(status))]).increment()
        registry.makeDurationHistogram(name: "entitle_http_request_duration_seconds", labels: [("route", route)],
                                       buckets: [.milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                                                 .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1), .seconds(5)])
            .recordNanoseconds(duration.nanoseconds)
    }

    /// Counts an authentication outcome for an MVPD (`success`, `failure`, `temppass`).
    func recordAuthentication(mvpd: String, outcome: String) {
        registry.makeCounter(name: "entitle_authentications_total", labels: [("mvpd", mvpd), ("outcome", outcome)]).increment()
    }

    /// Counts an authorization outcome for an MVPD (`authorized`, `denied`, `error`).
    func recordAuthorization(mvpd: String, kind: String, outcome: String) {
        registry.makeCounter(name: "entitle_decisions_total", labels: [("mvpd", mvpd), ("kind", kind), ("outcome", outcome)]).increment()
    }

    /// The text exposition format.
    func render() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let parts = components
        return parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000
    }
}
