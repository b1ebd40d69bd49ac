import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// Decides resources for one authenticated profile: degradation rules first, then TempPass, then the MVPD (its answers
/// cached for the integration's authorization TTL, several resources asked concurrently); authorized resources get short
/// media tokens when tokens are asked for. Knows nothing of HTTP, and of storage only the protocols it reads through:
/// unit tests run it on in-memory stores with the MVPD's answers given (``MVPDAuthorizing``).
package final class DecisionService: Sendable, ClockReading {
    /// The catalog reads of a decision (authorization protocol and TTL; its generation keys the kept answers).
    package let catalog: any AuthorizationSettingsReading
    /// SAML, XACML and preflight options of the MVPD.
    package let mvpdOptions: any MVPDOptionsReading
    /// Promotional TempPass counters.
    package let tempPasses: any TempPassStoring
    /// Profiles whose user metadata an authorization refreshes.
    package let profileStore: any ProfileStoring
    /// The MVPD answers kept for their TTL (in memory, per instance).
    package let authorizations: AuthorizationCache
    /// The MVPD's authorization endpoint (over HTTP in the service).
    package let mvpdClient: any MVPDAuthorizing
    /// Degradation rules, read before the MVPD is asked.
    package let degradation: DegradationService
    /// The signer of media tokens.
    package let mediaTokens: any MediaTokenSigning
    /// OAuth 2.0 MVPDs: the access token for each authorization call.
    package let oauth2: any OAuth2AccessTokens
    /// Decision, media-token and MVPD-call counts.
    package let metrics: ServiceMetrics
    package let clock: any ServiceClock
    /// The MVPD answer lifetime when no TTL is configured for the integration, seconds.
    package let defaultAuthorizationTTL: Int64
    /// How long an authorization decision is valid, ms.
    package let decisionLifetime: Int64

    // A class, not a struct: a decision's async frames and closures hold it, and copying a struct of a dozen references
    // cost about 40 reference-count operations per decision.
    package init(
        catalog: any AuthorizationSettingsReading, mvpdOptions: any MVPDOptionsReading, tempPasses: any TempPassStoring,
        profileStore: any ProfileStoring, authorizations: AuthorizationCache, mvpdClient: any MVPDAuthorizing,
        degradation: DegradationService, mediaTokens: any MediaTokenSigning, oauth2: any OAuth2AccessTokens, metrics: ServiceMetrics,
        clock: any ServiceClock, defaultAuthorizationTTL: Int64, decisionLifetime: Int64
    ) {
        self.catalog = catalog
        self.mvpdOptions = mvpdOptions
        self.tempPasses = tempPasses
        self.profileStore = profileStore
        self.authorizations = authorizations
        self.mvpdClient = mvpdClient
        self.degradation = degradation
        self.mediaTokens = mediaTokens
        self.oauth2 = oauth2
        self.metrics = metrics
        self.clock = clock
        self.defaultAuthorizationTTL = defaultAuthorizationTTL
        self.decisionLifetime = decisionLifetime
    }

    /// A resource's verdict before it becomes a ``Decision``.
    package enum Verdict: Sendable {
        case authorized(source: DecisionSource)
        case denied(EnhancedError, source: DecisionSource)
    }

    /// Decisions for `resources` of `requestor` through `mvpd` for `profile`; with `issueTokens` (authorize, not
    /// preauthorize) authorized resources carry media tokens and a Promotional TempPass counts them. `fresh` asks the
    /// MVPD again instead of using its kept answers. The decisions, the media tokens and the MVPD calls are counted for
    /// the reports as coming from `origin`'s client; `deliversTokens` false (REST v1 `authorize`, which keeps only the
    /// decision) leaves the media tokens uncounted.
    package func decide(
        _ resources: [String], requestor: String, mvpd: MVPDRecord, profile: ProfileRecord, issueTokens: Bool, origin: ReportOrigin,
        deliversTokens: Bool = true, clientIP: String? = nil, fresh: Bool = false
    ) async throws -> [Decision] {
        let now = self.now
        let reportKey = ReportKey(requestor: requestor, mvpd: mvpd.id, origin: origin, profile: profile)
        // A proxied MVPD is authorized through its proxy: the proxy's protocol and options.
        let authorizationProtocol = try await catalog.authorizationProtocol(mvpd: mvpd.settingsMVPDId)
        let xacml = authorizationProtocol == .xacml ? try await xacmlCall(mvpd: mvpd.settingsMVPDId) : XACMLCall()
        let rules = try await degradation.activeDegradation(requestor: requestor, mvpd: mvpd.id)
        // Read after the rules (which refresh the catalog): answers kept under an older catalog are not served.
        let catalogGeneration = catalog.catalogGeneration
        let ttl = try await catalog.authorizationTTL(requestor: requestor, mvpd: mvpd.id) ?? defaultAuthorizationTTL
        // An MVPD without an authorization endpoint answers invalid_integration, unless the operator configured it to
        // authorize every authenticated subscriber.
        let authorizeAll: Bool
        if authorizationProtocol == .noCall {
            authorizeAll = true
        } else if mvpd.authorizationUrl == nil && !mvpd.isTempPass {
            authorizeAll = try await mvpdOptions.samlOptions(mvpd: mvpd.settingsMVPDId)?.authorizeAll == true
        } else {
            authorizeAll = false
        }
        let round = DecisionContext(
            service: self, requestor: requestor, mvpd: mvpd, profile: profile, issueTokens: issueTokens, rules: rules,
            authorizeAll: authorizeAll, authorizationProtocol: authorizationProtocol, xacml: xacml, catalogGeneration: catalogGeneration,
            ttl: ttl, fresh: fresh, clientIP: clientIP, reportKey: reportKey, now: now)
        var verdicts: [Verdict]
        if !issueTokens, round.answersFromMVPD, let lineup = try await lineup(requestor: requestor, mvpd: mvpd, profile: profile) {
            // Preflight by lineup: answered from the lineup of the sign-in, no MVPD call.
            verdicts = Self.lineupVerdicts(resources, lineup: lineup, mvpd: mvpd)
        } else if !issueTokens, resources.count > 1, authorizationProtocol == .xacml || authorizationProtocol == .rest, round.answersFromMVPD,
            let limit = try await mvpdOptions.preflightMaxResources(requestor: requestor, mvpd: mvpd.id), limit > 0
        {
            // Preflight in one call per `limit` resources (multi-channel AuthZ), where the integration has it.
            verdicts = await preflight(
                resources, mvpd: mvpd, profile: profile, limit: Int(limit), clientIP: clientIP, kind: authorizationProtocol, xacml: xacml,
                reportKey: reportKey)
        } else if resources.count == 1 {
            // One resource (the common play): asked inline, without a child task and its thread hop.
            verdicts = [await round.verdict(for: resources[0])]
        } else {
            verdicts = await withTaskGroup(of: (Int, Verdict).self) { group in
                for (index, raw) in resources.enumerated() {
                    group.addTask { (index, await round.verdict(for: raw)) }
                }
                var result = [Verdict](repeating: .denied(.internalServerError, source: .mvpd), count: resources.count)
                for await (index, verdict) in group { result[index] = verdict }
                return result
            }
        }
        verdicts = try await applyingHBAPolicy(verdicts, resources: resources, requestor: requestor, mvpd: mvpd, profile: profile)
        let signer = issueTokens ? try? await mediaTokens.mediaTokenSigner(requestor: requestor) : nil
        let notAfter = min(profile.notAfter, now + decisionLifetime)
        let decisions = zip(resources, verdicts).map { resource, verdict in
            var decision = Decision(resource: resource, serviceProvider: requestor, mvpd: mvpd.id, source: .mvpd, authorized: false)
            switch verdict {
            case .authorized(let source):
                decision.source = source
                decision.authorized = true
                decision.notBefore = now
                decision.notAfter = notAfter
                if issueTokens {
                    if let signer,
                        let token = try? signer.token(
                            resource: resource, profile: profile, requestor: requestor, proxyMVPD: mvpd.proxyMvpdId, now: now)
                    {
                        decision.token = token
                    } else {
                        decision.authorized = false
                        decision.error = .internalServerError
                    }
                }
            case .denied(let error, let source):
                decision.source = source
                decision.error = error
            }
            return decision
        }
        metrics.recordDecisions(
            decisions, issueTokens: issueTokens, deliversTokens: deliversTokens, key: reportKey, profile: profile, visitor: origin.visitor, at: now)
        return decisions
    }

    /// TempPass authorizes everything while the pass lasts; a Promotional TempPass also counts distinct resources.
    package func tempPassVerdict(mvpd: MVPDRecord, profile: ProfileRecord, resource: String, consume: Bool) async -> Verdict {
        guard let limit = mvpd.temppassResourceLimit, limit > 0 else { return .authorized(source: .tempPass) }
        do {
            let allowed: Bool
            if consume {
                allowed = try await tempPasses.usePromoResource(passKey: profile.nameId, resource: resource, limit: limit, now: now)
            } else {
                let used = try await tempPasses.promoResources(passKey: profile.nameId)
                allowed = used.contains(resource) || Int64(used.count) < limit
            }
            return allowed ? .authorized(source: .tempPass) : .denied(.temporaryAccessResourcesLimitExceeded, source: .tempPass)
        } catch {
            return .denied(.internalServerError, source: .tempPass)
        }
    }
}
