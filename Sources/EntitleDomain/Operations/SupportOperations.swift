import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// What an operator does while supporting a live service, for every front end: degradation rules (set for a time window,
/// removed) and TempPass resets, each change an operator makes recorded in the changes log.
package struct SupportOperations: Sendable {
    /// Resets TempPasses.
    package let tempPass: TempPassService
    /// Sets degradation rules.
    package let degradation: DegradationService
    /// Stored degradation rules.
    package let ruleStore: DegradationStore
    /// The shared lookups.
    package let lookups: AdminCatalog
    /// The changes log.
    package let changes: ChangeRecorder

    /// Resets TempPasses of an MVPD (admin): of one device (its raw id), of one identity (the JSON the app sends in
    /// `AP-TempPass-Identity`, plain or Base64), or all of them. Returns how many passes were removed.
    package func resetTempPass(requestor: String, mvpd: String, device: String?, identity: String?) async throws -> Int {
        try await tempPass.resetTempPass(requestor: requestor, mvpd: mvpd, device: device, identity: identity)
    }

    /// Sets a degradation rule (admin).
    package func setDegradation(requestor: String, mvpd: String, rule: DegradationRule, start: Date, end: Date) async throws {
        try await degradation.setDegradation(requestor: requestor, mvpd: mvpd, rule: rule, start: start, end: end)
    }

    /// Sets a degradation rule for a time window and records it.
    package func setDegradationRule(requestor: String, mvpd: String, rule: DegradationRule, start: Date, end: Date, actor: String) async throws {
        try OperatorReach.requireIntegration(requestor: requestor, mvpd: mvpd)
        try await setDegradation(requestor: requestor, mvpd: mvpd, rule: rule, start: start, end: end)
        try await changes.record(
            actor: actor, action: "degradation.set", target: "\(requestor)/\(mvpd)",
            after: ["rule": rule.rawValue, "start": start.ISO8601Format(), "end": end.ISO8601Format()])
    }

    /// Removes a degradation rule and records it; an absent rule is an `unknown_degradation_rule` error.
    package func removeDegradationRule(requestor: String, mvpd: String, rule: DegradationRule, actor: String) async throws {
        try OperatorReach.requireIntegration(requestor: requestor, mvpd: mvpd)
        guard try await ruleStore.deleteDegradationRule(requestor: requestor, mvpd: mvpd, rule: rule) else {
            throw AdminError.unknown("degradation rule", "\(rule.rawValue) for \(requestor)/\(mvpd)", hint: "the rules in force are listed")
        }
        try await changes.record(actor: actor, action: "degradation.remove", target: "\(requestor)/\(mvpd)", before: ["rule": rule.rawValue])
    }

    /// Resets the TempPass of one device, of one Promotional TempPass identity (the JSON the app sends, plain or Base64),
    /// or of everyone when both are nil, and records it (the identity itself is not recorded); returns how many passes
    /// were removed.
    package func resetTempPass(requestor: String, mvpd: String, device: String?, identity: String? = nil, actor: String) async throws -> Int {
        try OperatorReach.requireIntegration(requestor: requestor, mvpd: mvpd)
        try await lookups.enabledRequestor(requestor)
        let count = try await resetTempPass(requestor: requestor, mvpd: mvpd, device: device, identity: identity)
        let scope = device.map { "device \($0)" } ?? (identity != nil ? "identity" : "all")
        try await changes.record(
            actor: actor, action: "temppass.reset", target: "\(requestor)/\(mvpd)", after: ["scope": scope, "passes": "\(count)"])
        return count
    }

    /// Creates the value from each of its stored properties.
    package init(
        tempPass: TempPassService, degradation: DegradationService, degradationRules: DegradationStore, lookups: AdminCatalog, changes: ChangeRecorder
    ) {
        self.tempPass = tempPass
        self.degradation = degradation
        self.ruleStore = degradationRules
        self.lookups = lookups
        self.changes = changes
    }
}

extension SupportOperations {
    /// The degradation rules of a requestor.
    package func degradationRules(requestor: String?) async throws -> [DegradationRuleRecord] {
        try await ruleStore.degradationRules(requestor: requestor).filter { OperatorReach.maySee(requestor: $0.requestorId, mvpd: $0.mvpdId) }
    }
}
