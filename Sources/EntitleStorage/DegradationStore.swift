import EntitleCore
import EntitleModel
import SQLKit

/// Degradation rules (the operator's answers while an MVPD is down).
package struct DegradationStore: SQLStore {
    /// The database and caches this store shares with the others.
    package let base: SQLStoreBase

    /// Creates the value from each of its stored properties.
    package init(base: SQLStoreBase) {
        self.base = base
    }
}

extension DegradationStore {
    /// Creates or replaces a rule.
    package func saveDegradationRule(_ r: DegradationRuleRecord) async throws {
        try await run(
            """
            INSERT INTO degradation_rules (requestor_id, mvpd_id, rule, starts_at, ends_at, created_at)
            VALUES (\(bind: r.requestorId), \(bind: r.mvpdId), \(bind: r.rule.rawValue), \(bind: r.startsAt), \(bind: r.endsAt), \(bind: r.createdAt))
            ON CONFLICT (requestor_id, mvpd_id, rule) DO UPDATE SET starts_at = excluded.starts_at, ends_at = excluded.ends_at,
              created_at = excluded.created_at
            """)
        try await catalogChanged()
    }

    /// Deletes a rule; returns whether there was one.
    package func deleteDegradationRule(requestor: String, mvpd: String, rule: DegradationRule) async throws -> Bool {
        let touched = try await touchedRow(
            """
            DELETE FROM degradation_rules WHERE requestor_id = \(bind: requestor) AND mvpd_id = \(bind: mvpd) AND rule = \(bind: rule.rawValue)
            RETURNING rule
            """)
        if touched { try await catalogChanged() }
        return touched
    }

    /// All rules of a requestor (or of every requestor when nil).
    package func degradationRules(requestor: String?) async throws -> [DegradationRuleRecord] {
        if let requestor {
            return try await all(
                "SELECT * FROM degradation_rules WHERE requestor_id = \(bind: requestor) ORDER BY mvpd_id, rule",
                as: DegradationRuleRecord.self)
        }
        return try await all("SELECT * FROM degradation_rules ORDER BY requestor_id, mvpd_id, rule", as: DegradationRuleRecord.self)
    }

    /// The rules in force for an integration at `now`.
    package func activeDegradationRules(requestor: String, mvpd: String, now: Int64) async throws -> [DegradationRuleRecord] {
        let rules = try await cached(catalogCache.degradationRules, IntegrationKey(requestor: requestor, mvpd: mvpd)) {
            try await all(
                """
                SELECT * FROM degradation_rules WHERE requestor_id = \(bind: requestor) AND mvpd_id = \(bind: mvpd)
                """, as: DegradationRuleRecord.self)
        }
        return rules.filter { $0.startsAt <= now && $0.endsAt > now }
    }
}
