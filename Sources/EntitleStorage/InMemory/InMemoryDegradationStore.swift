import EntitleModel
import Synchronization

/// Degradation rules in memory, for unit tests of ``DegradationService`` without a database; one rule per requestor,
/// MVPD and rule name, as in ``DegradationStore``.
package final class InMemoryDegradationStore: DegradationStoring {
    private let rules = Mutex<[DegradationRuleRecord]>([])

    /// Creates a store holding `rules`.
    package init(_ rules: [DegradationRuleRecord] = []) { self.rules.withLock { $0 = rules } }

    /// Every rule held.
    package var all: [DegradationRuleRecord] { rules.withLock { $0 } }

    /// The rules in force for an integration at `now` (ms).
    package func activeDegradationRules(requestor: String, mvpd: String, now: Int64) async throws -> [DegradationRuleRecord] {
        rules.withLock { rules in
            rules.filter { $0.requestorId == requestor && $0.mvpdId == mvpd && $0.startsAt <= now && $0.endsAt > now }
        }
    }

    /// Creates or replaces a rule.
    package func saveDegradationRule(_ r: DegradationRuleRecord) async throws {
        rules.withLock { rules in
            rules.removeAll { $0.requestorId == r.requestorId && $0.mvpdId == r.mvpdId && $0.rule == r.rule }
            rules.append(r)
        }
    }
}
