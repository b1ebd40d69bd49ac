import EntitleModel
import EntitleStorage
import Prometheus
import Synchronization

/// The Prometheus counters of the reports for one requestor, MVPD and platform, each made on its first event. An event
/// then costs one lookup of its key here and one of its counter in the series, instead of bounding the three label
/// values, building the label list and hashing every label of the counter on each call (a decision counts 2 or 3).
package final class ESMSeries: Sendable {
    /// Which counter of the series.
    package enum Counter: Hashable, Sendable {
        case signIn(ServiceMetrics.SignInEvent)
        case authorizations(ServiceMetrics.AuthorizationOutcome)
        case mediaTokens
        case preauthorizations
        /// Resources decided by preauthorize, granted or denied.
        case preauthorizedResources(granted: Bool)
        /// The `entitle_decisions_total` counter of the series' MVPD (labelled by the MVPD id as sent, unbounded as before
        /// like `entitle_authentications_total`, kind — `authorize` when tokens are issued, else `preauthorize` — and
        /// outcome).
        case decisions(issueTokens: Bool, outcome: DecisionOutcome)
    }

    /// What a decision said, as `entitle_decisions_total` labels it.
    package enum DecisionOutcome: String, Sendable { case authorized, denied, error }

    /// The series' label values, bounded (``BoundedLabels``).
    package let requestor: String
    package let mvpd: String
    package let platform: String
    /// The MVPD id as the event named it (the `decisions` counter's label).
    private let mvpdID: String
    private let handles: MetricHandles
    private let made = Mutex<[Counter: Prometheus.Counter]>([:])

    package init(key: ESMSeriesCache.Key, labels: BoundedLabels, handles: MetricHandles) {
        requestor = labels.value("requestor", key.requestor)
        mvpd = labels.value("mvpd", key.mvpd)
        platform = labels.value("platform", key.platform)
        mvpdID = key.mvpd
        self.handles = handles
    }

    /// Adds `amount` to `counter`.
    package func increment(_ counter: Counter, by amount: Int64 = 1) {
        if let known = made.withLock({ $0[counter] }) {
            known.increment(by: amount)
            return
        }
        let made = make(counter)
        self.made.withLock { $0[counter] = made }
        made.increment(by: amount)
    }

    private func make(_ counter: Counter) -> Prometheus.Counter {
        let labels = [("requestor", requestor), ("mvpd", mvpd), ("platform", platform)]
        switch counter {
        case .signIn(let event):
            return handles.counter(ServiceMetrics.signInDescriptor(event), labels: labels)
        case .authorizations(let outcome):
            return handles.counter(ServiceMetrics.authorizationsDescriptor, labels: labels + [("outcome", outcome.rawValue)])
        case .mediaTokens:
            return handles.counter(ServiceMetrics.mediaTokensDescriptor, labels: labels)
        case .preauthorizations:
            return handles.counter(ServiceMetrics.preauthorizationsDescriptor, labels: labels)
        case .preauthorizedResources(let granted):
            return handles.counter(
                ServiceMetrics.preauthorizedResourcesDescriptor, labels: labels + [("outcome", granted ? "granted" : "denied")])
        case .decisions(let issueTokens, let outcome):
            return handles.counter(
                ServiceMetrics.decisions,
                labels: [("mvpd", mvpdID), ("kind", issueTokens ? "authorize" : "preauthorize"), ("outcome", outcome.rawValue)])
        }
    }
}

/// The ``ESMSeries`` by requestor, MVPD and platform as the events name them. Bounded: past `capacity` keys everything
/// is dropped and made again on use (the counters themselves stay in the registry, so no count is lost).
package final class ESMSeriesCache: Sendable {
    package struct Key: Hashable, Sendable {
        package let requestor: String
        package let mvpd: String
        package let platform: String

        /// Creates the value from each of its stored properties.
        package init(requestor: String, mvpd: String, platform: String) {
            self.requestor = requestor
            self.mvpd = mvpd
            self.platform = platform
        }
    }

    private let labels: BoundedLabels
    private let handles: MetricHandles
    private let series: BoundedMemo<Key, ESMSeries>

    package init(labels: BoundedLabels, handles: MetricHandles, capacity: Int = 4096) {
        (self.labels, self.handles, series) = (labels, handles, BoundedMemo(capacity: capacity))
    }

    /// The series of `key`'s requestor, MVPD and platform.
    package func series(_ key: ReportKey) -> ESMSeries {
        let key = Key(requestor: key.requestor, mvpd: key.mvpd, platform: key.platform)
        return series.value(for: key) { ESMSeries(key: key, labels: labels, handles: handles) }
    }
}
