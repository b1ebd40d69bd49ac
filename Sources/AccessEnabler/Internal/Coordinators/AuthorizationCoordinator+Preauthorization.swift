import EntitleCore
import Foundation

/// Preauthorization: `checkPreauthorizedResources(_:cache:)` and Adobe's Preauthorize API (every decision with its
/// Enhanced Error Code, the SDK's cache of decisions — `LOCAL_CACHE` — and the service's cache of MVPD answers —
/// `REMOTE_CACHE`, `Cache-Control: no-cache` — each optional). The service's answer is awaited in a job of the engine.
extension AuthorizationCoordinator {
    /// `checkPreauthorizedResources(_:cache:)` → `preauthorizedResources`: the authorized subset, in request order.
    func checkPreauthorized(
        _ resources: [String], cache: Bool, reply: EngineCommand.Reply<[String]>?, in engine: isolated EntitlementEngine
    ) {
        guard let (mvpd, entry) = engine.local.authenticated(now: engine.now()) else {
            engine.emit([.preauthorizedResources(resources: [])])
            reply?(.success([]))
            return
        }
        let (known, missing) =
            cache ? preauthorizations.lookup(resources, mvpd: mvpd, now: engine.now()) : ([:], Self.unique(resources))
        guard !missing.isEmpty else {
            let authorized = resources.filter { known[$0] == true }
            engine.emit([.preauthorizedResources(resources: authorized)])
            reply?(.success(authorized))
            return
        }
        let client = engine.client(for: URL(string: entry.provider) ?? engine.provider(for: mvpd))
        let headers = engine.commonHeaders()
        let body = try? JSONEncoder().encode(DecisionsRequest(resources: missing))
        let call = APICall(method: "POST", path: ["api", "v2", engine.requestorID, "decisions", "preauthorize", mvpd], json: body)
        engine.spawn { [headers] engine in
            let result: Result<DecisionsResponse, AccessEnablerError>
            do throws(AccessEnablerError) {
                result = .success(try await client.send(call, headers: headers, as: DecisionsResponse.self))
            } catch {
                result = .failure(error)
            }
            engine.authorization.preauthorizationAnswered(resources: resources, known: known, mvpd: mvpd, result: result, reply: reply, in: engine)
        }
    }

    private func preauthorizationAnswered(
        resources: [String], known: [String: Bool], mvpd: String, result: Result<DecisionsResponse, AccessEnablerError>,
        reply: EngineCommand.Reply<[String]>?, in engine: isolated EntitlementEngine
    ) {
        switch result {
        case .success(let response):
            preauthorizations.store(response.decisions, mvpd: mvpd, now: engine.now())
            var answers = known
            for decision in response.decisions { answers[decision.resource] = decision.authorized }
            let authorized = resources.filter { answers[$0] == true }
            engine.emit([.preauthorizedResources(resources: authorized)])
            reply?(.success(authorized))
        case .failure(let error):
            engine.emit([
                .status(
                    AccessEnablerStatus(errorID: AccessEnablerStatus.ID.preauthorizationFailed, level: .error, message: error.message)),
                .preauthorizedResources(resources: []),
            ])
            reply?(.failure(error.with(statusID: AccessEnablerStatus.ID.preauthorizationFailed)))
        }
    }

    /// The Preauthorize API: every decision, each cache optional; the reply is the only answer (no delegate call).
    func preauthorizeDecisions(
        _ resources: [String], localCache: Bool, remoteCache: Bool, reply: @escaping EngineCommand.Reply<[EntitleCore.Decision]>,
        in engine: isolated EntitlementEngine
    ) {
        guard engine.requestor.phase == .configured else {
            reply(.failure(AccessEnablerError(code: .notConfigured, message: "setRequestor has not succeeded.")))
            return
        }
        guard let (mvpd, entry) = engine.local.authenticated(now: engine.now()) else {
            let expired = !engine.local.profiles.isEmpty
            reply(.failure(AccessEnablerError(code: expired ? .expired : .notAuthenticated, message: "The user is not authenticated.")))
            return
        }
        let (known, missing) =
            localCache ? preauthorizations.lookup(resources, mvpd: mvpd, now: engine.now()) : ([:], Self.unique(resources))
        let requestorID = engine.requestorID
        let cached = known.map {
            EntitleCore.Decision(resource: $0.key, serviceProvider: requestorID, mvpd: mvpd, source: .mvpd, authorized: $0.value)
        }
        guard !missing.isEmpty else {
            reply(.success(cached))
            return
        }
        let client = engine.client(for: URL(string: entry.provider) ?? engine.provider(for: mvpd))
        var headers = engine.commonHeaders()
        if !remoteCache { headers["Cache-Control"] = "no-cache" }
        let body = try? JSONEncoder().encode(DecisionsRequest(resources: missing))
        let call = APICall(method: "POST", path: ["api", "v2", requestorID, "decisions", "preauthorize", mvpd], json: body)
        engine.spawn { [headers] engine in
            do throws(AccessEnablerError) {
                let response = try await client.send(call, headers: headers, as: DecisionsResponse.self)
                engine.authorization.preauthorizations.store(response.decisions, mvpd: mvpd, now: engine.now())
                reply(.success(cached + response.decisions))
            } catch {
                reply(.failure(error))
            }
        }
    }

    /// `values` without repetitions, in order.
    static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}
