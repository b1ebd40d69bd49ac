import EntitleCore
import Foundation
import Hummingbird

/// Decisions: `POST /api/v2/{sp}/decisions/authorize/{mvpd}` and `/decisions/preauthorize/{mvpd}`.
extension EntitleService {
    func addDecisionRoutes(to router: Router<AppContext>) {
        router.post("/api/v2/:sp/decisions/authorize/:mvpd") { request, context in
            try await self.decide(request, context: context, issueTokens: true)
        }
        router.post("/api/v2/:sp/decisions/preauthorize/:mvpd") { request, context in
            try await self.decide(request, context: context, issueTokens: false)
        }
    }

    func decide(_ request: Request, context: AppContext, issueTokens: Bool) async throws -> Response {
        let caller = try await caller(request, serviceProvider: try context.parameters.require("sp"))
        let mvpd = try await integratedMVPD(try context.parameters.require("mvpd"), requestor: caller.requestor.id)
        let text = try await FormBody.text(of: request, context: context, limit: 256 * 1024)
        let resources = try Self.parseResources(text: text, contentType: request.headers[.contentType])
        guard resources.count <= Int(caller.requestor.maxResources) else {
            throw APIError(EnhancedError.tooManyResources.with(details: "At most \(caller.requestor.maxResources) resources per request."))
        }
        guard let profile = try await repository.profile(requestor: caller.requestor.id, client: caller.clientID,
                                                         device: caller.device.value, mvpd: mvpd.id) else {
            throw APIError(.authenticatedProfileMissing)
        }
        guard profile.notAfter > now else {
            throw APIError(mvpd.isTempPass ? .temporaryAccessDurationLimitExceeded : .authenticatedProfileExpired)
        }
        let decisions = try await DecisionMaker(service: self, requestor: caller.requestor.id, mvpd: mvpd, profile: profile,
                                            issueTokens: issueTokens).decide(resources)
        return JSONCoding.response(DecisionsResponse(decisions: decisions))
    }

    /// Reads `{"resources": [...]}` (JSON) or `resources=a,b` / repeated form fields.
    static func parseResources(text: String, contentType: String?) throws -> [String] {
        let resources: [String]
        if contentType?.lowercased().contains("application/x-www-form-urlencoded") == true {
            resources = (FormBody.parse(text)["resources"] ?? "").split(separator: ",").map(String.init)
        } else {
            guard let body = try? JSONDecoder().decode(DecisionsRequest.self, from: Data(text.utf8)) else {
                throw APIError(EnhancedError.invalidResources.with(details: "The body must be JSON: {\"resources\": [\"…\"]}."))
            }
            resources = body.resources
        }
        guard !resources.isEmpty else {
            throw APIError(EnhancedError.invalidResources.with(details: "At least one resource is required."))
        }
        return resources
    }
}

/// Decides a list of resources for one profile: degradation rules first, then TempPass, then the MVPD (asked concurrently);
/// authorized resources get short media tokens when `issueTokens`.
struct DecisionMaker {
    let service: EntitleService
    let requestor: String
    let mvpd: MVPDRecord
    let profile: ProfileRecord
    let issueTokens: Bool

    enum Verdict: Sendable {
        case authorized(source: DecisionSource)
        case denied(EnhancedError, source: DecisionSource)
    }

    func decide(_ resources: [String]) async throws -> [Decision] {
        let now = service.now
        let rules = try await service.activeDegradation(requestor: requestor, mvpd: mvpd.id)
        // Read after the rules (which refresh the catalog): answers kept under an older catalog are not served.
        let catalogGeneration = service.repository.catalog.generation
        let ttl = try await service.repository.authorizationTTL(requestor: requestor, mvpd: mvpd.id) ?? service.configuration.mvpdAuthorizationTTL
        // An MVPD without an authorization endpoint answers invalid_integration, unless the operator configured it to
        // authorize every authenticated subscriber.
        let authorizeAll = mvpd.authorizationUrl == nil && !mvpd.isTempPass
            ? try await service.repository.samlOptions(mvpd: mvpd.id)?.authorizeAll == true : false
        let client = MVPDAuthorizationClient(httpClient: service.httpClient, timeoutSeconds: service.configuration.mvpdTimeoutSeconds)
        let mvpd = self.mvpd, profile = self.profile, issueTokens = self.issueTokens, service = self.service, requestor = self.requestor
        let subject = AuthorizationCache.Subject(requestor: requestor, mvpd: mvpd.id, userID: profile.userId)
        let signIn = "\(profile.notBefore)|\(profile.sessionIndex ?? profile.sessionCode ?? "")|\(profile.clientId)|\(profile.deviceId)"
        let ask: @Sendable (Int, String) async -> (Int, Verdict) = { index, raw in
            do throws(EnhancedError) {
                _ = try ProtectedResource(parsing: raw)
            } catch {
                return (index, .denied(error, source: .mvpd))
            }
            if rules.contains(.authzNone) {
                return (index, .denied(.authorizationDeniedByDegradationRule, source: .degradation))
            }
            if rules.contains(.authzAll) || profile.type == .degraded { return (index, .authorized(source: .degradation)) }
            if authorizeAll { return (index, .authorized(source: .mvpd)) }
            if mvpd.isTempPass {
                return (index, await Self.tempPassVerdict(service: service, mvpd: mvpd, profile: profile, resource: raw, consume: issueTokens))
            }
            let verdict = await service.caches.authorizations.answer(
                subject: subject, question: .init(signIn: signIn, resource: raw), now: now, ttl: max(0, ttl) * 1000,
                notAfter: profile.notAfter, catalogGeneration: catalogGeneration
            ) { await client.authorize(mvpd: mvpd, userID: profile.userId, resource: raw) }
            switch verdict {
            case .authorized: return (index, .authorized(source: .mvpd))
            case .denied(let parental, let message):
                let base: EnhancedError = parental ? .authorizationDeniedByParentalControls
                    : (issueTokens ? .authorizationDeniedByMVPD : .preauthorizationDeniedByMVPD)
                return (index, .denied(base.with(details: message), source: .mvpd))
            case .failed(let error): return (index, .denied(error, source: .mvpd))
            }
        }
        // One resource (the common play): asked inline, without a child task and its thread hop.
        let verdicts = resources.count == 1 ? [await ask(0, resources[0]).1] : await withTaskGroup(of: (Int, Verdict).self) { group in
            for (index, raw) in resources.enumerated() {
                group.addTask { await ask(index, raw) }
            }
            var result = [Verdict](repeating: .denied(.internalServerError, source: .mvpd), count: resources.count)
            for await (index, verdict) in group { result[index] = verdict }
            return result
        }
        let signer = issueTokens ? try? await service.mediaTokenSigner(requestor: requestor) : nil
        let notAfter = min(profile.notAfter, now + service.configuration.decisionLifetime)
        return zip(resources, verdicts).map { resource, verdict in
            var decision = Decision(resource: resource, serviceProvider: requestor, mvpd: mvpd.id, source: .mvpd, authorized: false)
            switch verdict {
            case .authorized(let source):
                decision.source = source
                decision.authorized = true
                decision.notBefore = now
                decision.notAfter = notAfter
                if issueTokens {
                    if let signer, let token = try? signer.token(resource: resource, profile: profile, requestor: requestor, now: now) {
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
            service.metrics.recordAuthorization(mvpd: mvpd.id, kind: issueTokens ? "authorize" : "preauthorize",
                                                outcome: decision.authorized ? "authorized" : (decision.error?.status == 403 ? "denied" : "error"))
            return decision
        }
    }

    /// TempPass authorizes everything while the pass lasts; a Promotional TempPass also counts distinct resources.
    static func tempPassVerdict(service: EntitleService, mvpd: MVPDRecord, profile: ProfileRecord, resource: String, consume: Bool) async -> Verdict {
        guard let limit = mvpd.temppassResourceLimit, limit > 0 else { return .authorized(source: .tempPass) }
        do {
            let allowed: Bool
            if consume {
                allowed = try await service.repository.usePromoResource(passKey: profile.nameId, resource: resource, limit: limit, now: service.now)
            } else {
                let used = try await service.repository.promoResources(passKey: profile.nameId)
                allowed = used.contains(resource) || Int64(used.count) < limit
            }
            return allowed ? .authorized(source: .tempPass) : .denied(.temporaryAccessResourcesLimitExceeded, source: .tempPass)
        } catch {
            return .denied(.internalServerError, source: .tempPass)
        }
    }
}
