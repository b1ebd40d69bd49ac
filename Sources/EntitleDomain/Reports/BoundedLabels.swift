import EntitleModel
import EntitleStorage
import Synchronization

/// Keeps the label values of the metrics' series bounded: each label admits its first ``limit`` distinct values
/// (requestors and MVPDs come from the catalog, so a deployment stays far below it) and names any further one
/// `other`, so that no input can make `/metrics` grow without end.
package final class BoundedLabels: Sendable {
    /// Distinct values admitted per label.
    package let limit: Int
    private let admitted = Mutex<[String: Set<String>]>([:])

    /// Creates the bound.
    package init(limit: Int = 200) { self.limit = limit }

    /// `value` when the label `name` has admitted it or still has room for it; `other` when not.
    package func value(_ name: String, _ value: String) -> String {
        admitted.withLock { admitted in
            if admitted[name]?.contains(value) == true { return value }
            guard admitted[name, default: []].count < limit else { return "other" }
            admitted[name, default: []].insert(value)
            return value
        }
    }
}
