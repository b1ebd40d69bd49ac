import EntitleModel
import EntitleStorage
import Foundation
import Prometheus

/// The service's Prometheus metrics, in a registry owned by the application (no global bootstrap).
package struct ServiceMetrics: Sendable {
    /// The registry rendered at `/metrics`.
    package let registry = PrometheusCollectorRegistry()
    /// The reports' figures not yet written to the database (``ServiceMetrics`` counts both from the same events).
    package let reports = ReportAccumulator()
    /// The label values admitted to the ESM series (bounded cardinality).
    package let labels = BoundedLabels()
    /// The resource names admitted to the reports' rows (bounded per requestor and hour).
    package let resources = ReportLabels.resources()
    /// The application profiles admitted to the reports' rows (bounded per requestor and hour).
    package let appProfiles = ReportLabels.appProfiles()

    /// The metrics of the request path, made once.
    package let handles: MetricHandles

    /// The ESM series of the reports by requestor, MVPD and platform, made once each.
    package let esm: ESMSeriesCache

    /// Creates the metrics.
    package init() {
        handles = MetricHandles(registry: registry)
        esm = ESMSeriesCache(labels: labels, handles: handles)
    }

    package static var requests: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "entitle", metricName: "http_requests", unitName: "total",
            helpText: "HTTP requests by method, route template and status.")
    }
    package static var latency: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "entitle", metricName: "http_request_duration", unitName: "seconds",
            helpText: "HTTP request latency by route template.")
    }
    package static var authentications: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "entitle", metricName: "authentications", unitName: "total",
            helpText: "Authentication outcomes by MVPD.")
    }
    package static var decisions: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "entitle", metricName: "decisions", unitName: "total",
            helpText: "Authorization and preauthorization decisions by MVPD and outcome.")
    }

    /// Counts a request and records its latency.
    package func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        handles.counter(Self.requests, labels: [("method", method), ("route", route), ("status", String(status))]).increment()
        handles.histogram(
            Self.latency, labels: [("route", route)],
            buckets: [
                .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1), .seconds(5),
            ]
        )
        .recordNanoseconds(duration.nanoseconds)
    }

    /// Counts an authentication outcome for an MVPD (`success`, `failure`, `temppass`).
    package func recordAuthentication(mvpd: String, outcome: String) {
        handles.counter(Self.authentications, labels: [("mvpd", mvpd), ("outcome", outcome)]).increment()
    }

    /// The text exposition format.
    package func render() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
