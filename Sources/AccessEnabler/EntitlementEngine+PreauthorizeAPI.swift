import EntitleCore
import Foundation

/// Adobe's Preauthorize API on the engine: every decision with its Enhanced Error Code, the SDK's cache of decisions
/// (`LOCAL_CACHE`) and the service's cache of MVPD answers (`REMOTE_CACHE`, `Cache-Control: no-cache`) each optional.
extension EntitlementEngine {
    func preauthorizeDecisions(
        _ resources: [String], localCache: Bool, remoteCache: Bool, reply: @escaping EngineCommand.Reply<[EntitleCore.Decision]>
    ) {
        guard requestor.phase == .configured else {
            reply(.failure(AccessEnablerError(code: .notConfigured, message: "setRequestor has not succeeded.")))
            return
        }
        guard let (mvpd, entry) = local.authenticated(now: now()) else {
            let expired = !local.profiles.isEmpty
            reply(.failure(AccessEnablerError(code: expired ? .expired : .notAuthenticated, message: "The user is not authenticated.")))
            return
        }
        let (known, missing) = localCache ? preauthorizations.lookup(resources, mvpd: mvpd, now: now()) : ([:], Self.unique(resources))
        let cached = known.map {
            EntitleCore.Decision(resource: $0.key, serviceProvider: requestorID, mvpd: mvpd, source: .mvpd, authorized: $0.value)
        }
        guard !missing.isEmpty else {
            reply(.success(cached))
            return
        }
        let client = client(for: URL(string: entry.provider) ?? provider(for: mvpd))
        var headers = commonHeaders()
        if !remoteCache { headers["Cache-Control"] = "no-cache" }
        let body = try? JSONEncoder().encode(DecisionsRequest(resources: missing))
        let path = ["api", "v2", requestorID, "decisions", "preauthorize", mvpd]
        Task {
            do throws(AccessEnablerError) {
                let response = try await client.send(APICall(method: "POST", path: path, json: body), headers: headers, as: DecisionsResponse.self)
                self.preauthorizations.store(response.decisions, mvpd: mvpd, now: self.now())
                reply(.success(cached + response.decisions))
            } catch {
                reply(.failure(error))
            }
        }
    }
}
