/// The degradation rules ``DegradationService`` reads and sets: ``DegradationStore`` on SQL,
/// ``InMemoryDegradationStore`` in unit tests.
package protocol DegradationStoring: Sendable {
    /// The rules in force for an integration at `now` (ms).
    func activeDegradationRules(requestor: String, mvpd: String, now: Int64) async throws -> [DegradationRuleRecord]
    /// Creates or replaces a rule (one per requestor, MVPD and rule name).
    func saveDegradationRule(_ r: DegradationRuleRecord) async throws
}
