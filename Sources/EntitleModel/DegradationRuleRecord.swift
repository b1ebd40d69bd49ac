import EntitleCore

/// A degradation rule for one (requestor, MVPD) integration.
package struct DegradationRuleRecord: Codable, Sendable, Equatable {
    /// Requestor.
    package var requestorId: String
    /// MVPD.
    package var mvpdId: String
    /// The rule.
    package var rule: DegradationRule
    /// Start, ms.
    package var startsAt: Int64
    /// End, ms.
    package var endsAt: Int64
    /// When it was set, ms.
    package var createdAt: Int64

    /// Creates the value from each of its stored properties.
    package init(requestorId: String, mvpdId: String, rule: DegradationRule, startsAt: Int64, endsAt: Int64, createdAt: Int64) {
        self.requestorId = requestorId
        self.mvpdId = mvpdId
        self.rule = rule
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.createdAt = createdAt
    }
}
