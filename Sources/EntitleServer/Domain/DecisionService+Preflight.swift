import EntitleCore

/// Preauthorization of several resources in one MVPD call per `limit` resources (Adobe's multi-channel AuthZ, notes
/// §3), for integrations with a preflight setting whose MVPD answers XACML. Preflight answers are not cached: they
/// decorate a UI, and each preauthorize asks once.
extension DecisionService {
    /// The MVPD's answer as a decision verdict: a denial is the parental-control one when the MVPD says so, else the
    /// MVPD's (pre)authorization denial with its message.
    static func verdict(_ answer: MVPDAuthorizationClient.Verdict, issueTokens: Bool) -> Verdict {
        switch answer {
        case .authorized: return .authorized(source: .mvpd)
        case .denied(let parental, let message):
            let base: EnhancedError =
                parental ? .authorizationDeniedByParentalControls : (issueTokens ? .authorizationDeniedByMVPD : .preauthorizationDeniedByMVPD)
            return .denied(base.with(details: message), source: .mvpd)
        case .failed(let error): return .denied(error, source: .mvpd)
        }
    }

    /// Verdicts for `resources` (in order), asked `limit` at a time.
    func preflight(
        _ resources: [String], mvpd: MVPDRecord, profile: ProfileRecord, limit: Int, clientIP: String?, reportKey: ReportKey
    ) async -> [Verdict] {
        var verdicts = [Verdict](repeating: .denied(.internalServerError, source: .mvpd), count: resources.count)
        var asked: [Int] = []
        for (index, raw) in resources.enumerated() {
            do throws(EnhancedError) {
                _ = try ProtectedResource(parsing: raw)
                asked.append(index)
            } catch {
                verdicts[index] = .denied(error, source: .mvpd)
            }
        }
        var bearer: String?
        if mvpd.kind == .oauth2, !asked.isEmpty {
            switch await oauth2.accessToken(profile: profile, mvpd: mvpd) {
            case .success(let token): bearer = token
            case .failure(let error):
                for index in asked { verdicts[index] = .denied(error, source: .mvpd) }
                return verdicts
            }
        }
        for start in stride(from: 0, to: asked.count, by: max(1, limit)) {
            let chunk = Array(asked[start..<min(start + max(1, limit), asked.count)])
            let started = ContinuousClock.now
            let answers = await mvpdClient.preflightXACML(
                mvpd: mvpd, userID: profile.userId, resources: chunk.map { resources[$0] }, clientIP: clientIP, bearer: bearer)
            metrics.recordMVPDCall(duration: ContinuousClock.now - started, key: reportKey, at: now)
            for (index, answer) in zip(chunk, answers) { verdicts[index] = Self.verdict(answer, issueTokens: false) }
        }
        return verdicts
    }
}
