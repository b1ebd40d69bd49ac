import EntitleModel
import EntitleStorage
import Prometheus
import Synchronization

/// Counters and histograms by metric and labels, made once per instance: the registry's `make…` builds the metric's
/// name, takes its lock and checks the labels on every call, and a request counts several metrics.
///
/// Holds no more than the registry does (the same metrics, whose label values are bounded where they come from input).
package final class MetricHandles: Sendable {
    private struct Key: Hashable {
        let name: String
        let labels: [String]

        init(_ descriptor: MetricNameDescriptor, _ labels: [(String, String)]) {
            name = descriptor.metricName
            var flat: [String] = []
            flat.reserveCapacity(labels.count * 2)
            for (label, value) in labels {
                flat.append(label)
                flat.append(value)
            }
            self.labels = flat
        }
    }

    private let registry: PrometheusCollectorRegistry
    private let counters = Mutex<[Key: Counter]>([:])
    private let histograms = Mutex<[Key: DurationHistogram]>([:])

    package init(registry: PrometheusCollectorRegistry) { self.registry = registry }

    /// The counter of `descriptor` with `labels`.
    package func counter(_ descriptor: MetricNameDescriptor, labels: [(String, String)]) -> Counter {
        let key = Key(descriptor, labels)
        if let known = counters.withLock({ $0[key] }) { return known }
        let made = registry.makeCounter(descriptor: descriptor, labels: labels)
        counters.withLock { $0[key] = made }
        return made
    }

    /// The duration histogram of `descriptor` with `labels` (its buckets are fixed by the first call).
    package func histogram(_ descriptor: MetricNameDescriptor, labels: [(String, String)], buckets: [Duration]) -> DurationHistogram {
        let key = Key(descriptor, labels)
        if let known = histograms.withLock({ $0[key] }) { return known }
        let made = registry.makeDurationHistogram(descriptor: descriptor, labels: labels, buckets: buckets)
        histograms.withLock { $0[key] = made }
        return made
    }
}
