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
        let decisions = await DecisionMaker(service: self, requestor: caller.requestor.id, mvpd: mvpd, profile: profile,
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

/// Decides a list of resources for one profile, asking the MVPD concurrently and signing media tokens.
struct DecisionMaker {
    let service: EntitleService
    let requestor: String
    let mvpd: MVPDRecord
    let profile: ProfileRecord
    let issueTokens: Bool

    func decide(_ resources: [String]) async -> [Decision] {
        let now = service.now
        let client = MVPDAuthorizationClient(httpClient: service.httpClient, timeoutSeconds: service.configuration.mvpdTimeoutSeconds)
        let verdicts = await withTaskGroup(of: (Int, MVPDAuthorizationClient.Verdict).self) { group in
            for (index, raw) in resources.enumerated() {
                group.addTask {
                    do throws(EnhancedError) {
                        _ = try ProtectedResource(parsing: raw)
                    } catch {
                        return (index, .failed(error))
                    }
                    if mvpd.isTempPass { return (index, .authorized) }
                    return (index, await client.authorize(mvpd: mvpd, userID: profile.userId, resource: raw))
                }
            }
            var result = [MVPDAuthorizationClient.Verdict](repeating: .failed(.internalServerError), count: resources.count)
            for await (index, verdict) in group { result[index] = verdict }
            return result
        }
        let signer = issueTokens ? try? await service.mediaTokenSigner() : nil
        let notAfter = min(profile.notAfter, now + service.configuration.decisionLifetime)
        return zip(resources, verdicts).map { resource, verdict in
            var decision = Decision(resource: resource, serviceProvider: requestor, mvpd: mvpd.id,
                                    source: mvpd.isTempPass ? "temppass" : "mvpd", authorized: false)
            switch verdict {
            case .authorized:
                decision.authorized = true
                decision.notBefore = now
                decision.notAfter = notAfter
                if issueTokens {
                    guard let signer, let token = try? signer.token(resource: resource, profile: profile, requestor: requestor, now: now) else {
                        decision.authorized = false
                        decision.error = .internalServerError
                        break
                    }
                    decision.token = token
                }
            case .denied(let parental, let message):
                let base: EnhancedError = issueTokens
                    ? (parental ? .authorizationDeniedByParentalControls : .authorizationDeniedByMVPD)
                    : (parental ? .authorizationDeniedByParentalControls : .preauthorizationDeniedByMVPD)
                decision.error = base.with(details: message)
            case .failed(let error):
                decision.error = error
            }
            service.metrics.recordAuthorization(mvpd: mvpd.id, kind: issueTokens ? "authorize" : "preauthorize",
                                                outcome: decision.authorized ? "authorized" : (decision.error?.status == 403 ? "denied" : "error"))
            return decision
        }
    }
}
