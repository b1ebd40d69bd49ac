import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// Degraded access: rules per (requestor, MVPD) that keep viewers watching when an MVPD fails.
/// `authn-all` authenticates everyone who picks the MVPD without its login; `authz-all` grants every authorization
/// without asking the MVPD; `authz-none` denies every authorization.
package struct DegradationService: Sendable, ClockReading {
    /// The rules.
    package let rules: any DegradationStoring
    /// Where a degraded login stores its profile.
    package let profiles: any ProfileStoring
    /// The integrations a rule is set for.
    package let catalog: any CatalogReading
    package let metrics: ServiceMetrics
    package let clock: any ServiceClock

    /// The rule names in force for an integration now.
    package func activeDegradation(requestor: String, mvpd: String) async throws -> Set<DegradationRule> {
        Set(try await rules.activeDegradationRules(requestor: requestor, mvpd: mvpd, now: now).map(\.rule))
    }

    /// The degraded profile of a device under `authn-all`, valid until the rule ends (at most 24 hours).
    @discardableResult
    package func degradedLogin(requestor: String, clientID: String, device: String, mvpd: MVPDRecord, sessionCode: String?) async throws
        -> ProfileRecord?
    {
        let now = self.now
        guard
            let rule = try await rules.activeDegradationRules(requestor: requestor, mvpd: mvpd.id, now: now)
                .first(where: { $0.rule == .authnAll })
        else { return nil }
        let userID = "95cf93bcd183214a" + String(Secrets.sha256Hex(requestor + "|" + device).prefix(24))
        let profile = ProfileRecord(
            requestorId: requestor, clientId: clientID, deviceId: device, mvpdId: mvpd.id, type: .degraded, issuer: "Entitle",
            notBefore: now, notAfter: min(rule.endsAt, now + 24 * 3_600_000),
            attributes: JSONText.encode(["userID": [userID]]), nameId: userID, sessionIndex: nil, sessionCode: sessionCode, userId: userID)
        try await profiles.upsertProfile(profile)
        metrics.recordAuthentication(mvpd: mvpd.id, outcome: "degraded")
        return profile
    }

    /// Sets a rule (admin).
    package func setDegradation(requestor: String, mvpd: String, rule: DegradationRule, start: Date, end: Date) async throws {
        guard DegradationRule.known.contains(rule) else { throw ConfigurationError("Unknown rule \(rule): use authn-all, authz-all or authz-none.") }
        guard end > start else { throw ConfigurationError("The end must be after the start.") }
        guard try await catalog.integratedMVPD(requestor: requestor, mvpd: mvpd) != nil else {
            throw ConfigurationError("\(mvpd) is not integrated with \(requestor).")
        }
        try await rules.saveDegradationRule(
            DegradationRuleRecord(
                requestorId: requestor, mvpdId: mvpd, rule: rule, startsAt: Int64(start.timeIntervalSince1970 * 1000),
                endsAt: Int64(end.timeIntervalSince1970 * 1000), createdAt: now))
    }
}
