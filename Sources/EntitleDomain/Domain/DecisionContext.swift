import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// What one call of ``DecisionService/decide(_:requestor:mvpd:profile:issueTokens:origin:deliversTokens:clientIP:fresh:)``
/// has settled before it asks about each resource: the integration, the profile, the rules in force and how the MVPD is
/// asked.
///
/// A class, so that the verdict of each resource (inline, in a child task, or in the closure that asks the MVPD on a
/// cache miss) holds one reference instead of copies of the MVPD and profile records: every copy of those retained each
/// of their strings, about 100 reference-count operations per decision (measured with callgrind).
package final class DecisionContext: Sendable {
    package typealias Verdict = DecisionService.Verdict

    package let service: DecisionService
    package let requestor: String
    package let mvpd: MVPDRecord
    package let profile: ProfileRecord
    /// Authorize (tokens, a Promotional TempPass counts the resource) rather than preauthorize.
    package let issueTokens: Bool
    package let rules: Set<DegradationRule>
    /// Every authenticated subscriber is authorized (no MVPD call).
    package let authorizeAll: Bool
    package let authorizationProtocol: MVPDAuthorizationProtocol
    package let xacml: XACMLCall
    /// The catalog generation the kept answers must have been stored under.
    package let catalogGeneration: UInt64
    /// How long the MVPD's answers are kept, ms.
    package let ttl: Int64
    /// Asks the MVPD again instead of using its kept answers.
    package let fresh: Bool
    package let clientIP: String?
    package let reportKey: ReportKey
    package let now: Int64
    package let subject: AuthorizationCache.Subject
    /// The sign-in the kept answers belong to (a new sign-in asks again).
    package let signIn: AuthorizationCache.SignIn

    package init(
        service: DecisionService, requestor: String, mvpd: MVPDRecord, profile: ProfileRecord, issueTokens: Bool,
        rules: Set<DegradationRule>, authorizeAll: Bool, authorizationProtocol: MVPDAuthorizationProtocol, xacml: XACMLCall,
        catalogGeneration: UInt64, ttl: Int64, fresh: Bool, clientIP: String?, reportKey: ReportKey, now: Int64
    ) {
        self.service = service
        self.requestor = requestor
        self.mvpd = mvpd
        self.profile = profile
        self.issueTokens = issueTokens
        self.rules = rules
        self.authorizeAll = authorizeAll
        self.authorizationProtocol = authorizationProtocol
        self.xacml = xacml
        self.catalogGeneration = catalogGeneration
        self.ttl = ttl
        self.fresh = fresh
        self.clientIP = clientIP
        self.reportKey = reportKey
        self.now = now
        subject = AuthorizationCache.Subject(requestor: requestor, mvpd: mvpd.id, userID: profile.userId)
        signIn = .init(
            notBefore: profile.notBefore, session: profile.sessionIndex ?? profile.sessionCode ?? "", client: profile.clientId,
            device: profile.deviceId)
    }

    /// Whether the MVPD decides (no degradation rule, TempPass or authorize-all answers for it).
    package var answersFromMVPD: Bool {
        !authorizeAll && !mvpd.isTempPass && !rules.contains(.authzNone) && !rules.contains(.authzAll) && profile.type != .degraded
    }

    /// The verdict for one resource of the request: degradation rules, then TempPass, then the MVPD's kept or fresh answer.
    package func verdict(for raw: String) async -> Verdict {
        do throws(EnhancedError) {
            _ = try ProtectedResource(parsing: raw)
        } catch {
            return .denied(error, source: .mvpd)
        }
        if rules.contains(.authzNone) { return .denied(.authorizationDeniedByDegradationRule, source: .degradation) }
        if rules.contains(.authzAll) || profile.type == .degraded { return .authorized(source: .degradation) }
        if authorizeAll { return .authorized(source: .mvpd) }
        if mvpd.isTempPass {
            return await service.tempPassVerdict(mvpd: mvpd, profile: profile, resource: raw, consume: issueTokens)
        }
        let answer = await service.authorizations.answer(
            subject: subject, question: .init(signIn: signIn, resource: raw), now: now, ttl: max(0, ttl) * 1000,
            notAfter: profile.notAfter, catalogGeneration: catalogGeneration, fresh: fresh
        ) { [self] in await askMVPD(raw) }
        return DecisionService.verdict(answer, issueTokens: issueTokens)
    }

    /// Asks the MVPD about `raw` (a cache miss), counts the call and keeps the user metadata the answer carries.
    private func askMVPD(_ raw: String) async -> MVPDAuthorizationClient.Verdict {
        // An OAuth 2.0 MVPD is asked on the user's behalf: its refresh token is exchanged for an access token first.
        var bearer: String?
        if mvpd.kind == .oauth2 {
            switch await service.oauth2.accessToken(profile: profile, mvpd: mvpd) {
            case .success(let token): bearer = token
            case .failure(let error): return .failed(error)
            }
        }
        let started = ContinuousClock.now
        let answer = await service.mvpdClient.authorize(
            mvpd: mvpd, userID: profile.userId, resource: raw, kind: authorizationProtocol, clientIP: clientIP, bearer: bearer,
            xacml: xacml)
        service.metrics.recordMVPDCall(duration: ContinuousClock.now - started, key: reportKey, at: now)
        await service.keepAuthorizationMetadata(answer, profile: profile)
        return answer
    }
}
