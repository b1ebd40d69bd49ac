import EntitleCore
import EntitleModel
import EntitleStorage

/// Preauthorization of several resources in one MVPD call per `limit` resources (Adobe's multi-channel AuthZ, notes
/// §3), for integrations with a preflight setting whose MVPD answers XACML or the REST form. Preflight answers are not cached: they
/// decorate a UI, and each preauthorize asks once.
extension DecisionService {
    /// The MVPD's answer as a decision verdict: a denial is the parental-control one when the MVPD says so, else the
    /// MVPD's (pre)authorization denial with its message.
    package static func verdict(_ answer: MVPDAuthorizationClient.Verdict, issueTokens: Bool) -> Verdict {
        switch answer {
        case .authorized, .authorizedFor: return .authorized(source: .mvpd)
        case .denied(let parental, let message):
            let base: EnhancedError =
                parental ? .authorizationDeniedByParentalControls : (issueTokens ? .authorizationDeniedByMVPD : .preauthorizationDeniedByMVPD)
            return .denied(base.with(details: message), source: .mvpd)
        case .failed(let error): return .denied(error, source: .mvpd)
        }
    }

    /// Verdicts for `resources` (in order), asked `limit` at a time.
    package func preflight(
        _ resources: [String], mvpd: MVPDRecord, profile: ProfileRecord, limit: Int, clientIP: String?, kind: MVPDAuthorizationProtocol = .xacml,
        xacml: XACMLCall = XACMLCall(), reportKey: ReportKey
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
            let asked = chunk.map { resources[$0] }
            let started = ContinuousClock.now
            let answers =
                kind == .rest
                ? await mvpdClient.preflightREST(mvpd: mvpd, userID: profile.userId, resources: asked, clientIP: clientIP, bearer: bearer)
                : await mvpdClient.preflightXACML(
                    mvpd: mvpd, userID: profile.userId, resources: asked, clientIP: clientIP, bearer: bearer, call: xacml)
            metrics.recordMVPDCall(duration: ContinuousClock.now - started, key: reportKey, at: now)
            for (index, answer) in zip(chunk, answers) { verdicts[index] = Self.verdict(answer, issueTokens: false) }
            if let carrying = answers.first(where: { if case .authorizedFor(_, let ratings) = $0 { !ratings.isEmpty } else { false } }) {
                await keepAuthorizationMetadata(carrying, profile: profile)
            }
        }
        return verdicts
    }

    /// How XACML is exchanged with an MVPD: its binding and signing, and whether its SHA-1 signatures are accepted.
    package func xacmlCall(mvpd: String) async throws -> XACMLCall {
        XACMLCall(
            options: try await mvpdOptions.xacmlOptions(mvpd: mvpd), allowSHA1: try await mvpdOptions.samlOptions(mvpd: mvpd)?.allowRSASHA1 == true)
    }
}
