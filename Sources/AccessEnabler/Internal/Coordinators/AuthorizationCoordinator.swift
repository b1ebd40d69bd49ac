import EntitleCore
import Foundation

/// The authorization flow: `checkAuthorization` / `getAuthorization` (``AuthorizationStateMachine``: requests waiting
/// for a login, then one decision each), `checkPreauthorizedResources` and the Preauthorize API (with the SDK's
/// ``PreauthorizationCache``). It owns its state machine and the pending replies of its requests, by request id; each
/// decision runs as a job of the engine that awaits the service's answer and then ends its request.
final class AuthorizationCoordinator {
    private var machine = AuthorizationStateMachine()
    private var replies: [Int: EngineCommand.Reply<String>] = [:]
    /// The `withData:` of each request (its Promotional TempPass identity).
    private var data: [Int: [String: any Sendable]] = [:]
    /// Requests that started while the resource's decision was still valid locally ("token in cache" of the
    /// `TRACKING_AUTHORIZATION` event).
    private var cached: Set<Int> = []
    private var nextRequestID = 0
    /// Preauthorization decisions by MVPD and resource, for `checkPreauthorizedResources(_:cache: true)` and the
    /// Preauthorize API's `LOCAL_CACHE`.
    var preauthorizations = PreauthorizationCache()

    /// Creates the flow with no request.
    init() {}

    /// `checkAuthorization` (`mode` `.check`) and `getAuthorization` (`.get`, which starts a login when needed).
    func authorize(
        _ resource: String, mode: AuthorizationStateMachine.Mode, data: [String: any Sendable]?,
        reply: EngineCommand.Reply<String>?, in engine: isolated EntitlementEngine
    ) {
        nextRequestID += 1
        let request = AuthorizationStateMachine.Request(id: nextRequestID, resource: resource, mode: mode)
        if let reply { replies[request.id] = reply }
        if let data, !data.isEmpty { self.data[request.id] = data }
        let authenticated = engine.local.authenticated(now: engine.now()) != nil
        let authenticating = engine.authentication.isInProgress
        if mode == .check && !authenticating {
            // The API reference lists checkAuthorization among the triggers of setAuthenticationStatus: it reports
            // the authentication status it found before the authorization result.
            engine.emit([
                authenticated
                    ? .setAuthenticationStatus(status: ACCESS_ENABLER_STATUS_SUCCESS, errorCode: "")
                    : .setAuthenticationStatus(status: ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR)
            ])
        }
        let actions = machine.authorize(request, authenticated: authenticated, authenticationInProgress: authenticating)
        // The identity of a Promotional TempPass travels with the login this getAuthorization starts.
        if actions.contains(.startAuthentication), let data, !data.isEmpty { engine.authentication.data = data }
        perform(actions, in: engine)
    }

    /// Waiting `getAuthorization` calls continue after the authentication flow ended.
    func authenticationFinished(success: Bool, in engine: isolated EntitlementEngine) {
        perform(machine.authenticationFinished(success: success), in: engine)
    }

    private func perform(_ actions: [AuthorizationStateMachine.Action], in engine: isolated EntitlementEngine) {
        for action in actions {
            switch action {
            case .decide(let request):
                decide(request, in: engine)
            case .failNotAuthenticated(let request):
                finish(request, outcome: Self.notAuthenticated, mvpd: nil, in: engine)
            case .startAuthentication:
                engine.authentication.filter = nil
                engine.authentication.start(force: false, in: engine)
            }
        }
    }

    private static let notAuthenticated = AuthorizationStateMachine.Outcome.failed(
        code: USER_NOT_AUTHENTICATED_ERROR, description: "", statusID: AccessEnablerStatus.ID.notAuthenticated)

    /// Asks the service for the decision of `request` (`POST /api/v2/{sp}/decisions/authorize/{mvpd}`) in a job that
    /// awaits the answer and ends the request.
    private func decide(_ request: AuthorizationStateMachine.Request, in engine: isolated EntitlementEngine) {
        guard let (mvpd, entry) = engine.local.authenticated(now: engine.now()) else {
            finish(request, outcome: Self.notAuthenticated, mvpd: nil, in: engine)
            return
        }
        if let notAfter = engine.local.authorizations[request.resource], notAfter > engine.nowMilliseconds {
            cached.insert(request.id)
        }
        let client = engine.client(for: URL(string: entry.provider) ?? engine.provider(for: mvpd))
        var headers = engine.commonHeaders()
        if let identity = EntitlementEngine.tempPassIdentity(data.removeValue(forKey: request.id)) {
            headers["AP-TempPass-Identity"] = identity
        }
        let body = try? JSONEncoder().encode(DecisionsRequest(resources: [request.resource]))
        let call = APICall(method: "POST", path: ["api", "v2", engine.requestorID, "decisions", "authorize", mvpd], json: body)
        engine.spawn { [headers] engine in
            let outcome: AuthorizationStateMachine.Outcome
            do throws(AccessEnablerError) {
                let response = try await client.send(call, headers: headers, as: DecisionsResponse.self)
                let decision = response.decisions.first { $0.resource == request.resource } ?? response.decisions.first
                outcome = AuthorizationStateMachine.outcome(of: decision)
                if decision?.authorized == true, decision?.source == .mvpd {
                    await Self.refreshMetadata(mvpd: mvpd, client: client, headers: headers, in: engine)
                }
            } catch {
                outcome = AuthorizationStateMachine.outcome(of: error)
            }
            engine.authorization.finish(request, outcome: outcome, mvpd: mvpd, in: engine)
        }
    }

    /// The user metadata an MVPD adds when it authorizes (its permit's `maxRating`, for example) is saved in the
    /// service's profile: after an MVPD's permit the SDK reads the profile again (`GET profiles/{mvpd}`) and keeps its
    /// attributes, so `getMetadata` sees them before the token is delivered, without a new `setRequestor`. Only the
    /// same sign-in is updated (same `notBefore`); a failure keeps the copy it had.
    private static func refreshMetadata(mvpd: String, client: APIClient, headers: [String: String], in engine: isolated EntitlementEngine) async {
        let call = APICall(method: "GET", path: ["api", "v2", engine.requestorID, "profiles", mvpd])
        guard let response = try? await client.send(call, headers: headers, as: ProfilesResponse.self),
            let fresh = response.profiles[mvpd]
        else { return }
        engine.update { state in
            guard var entry = state.profiles[mvpd], entry.profile.notBefore == fresh.notBefore, entry.profile.attributes != fresh.attributes
            else { return }
            entry.profile.attributes = fresh.attributes
            state.profiles[mvpd] = entry
        }
    }

    private func finish(
        _ request: AuthorizationStateMachine.Request, outcome: AuthorizationStateMachine.Outcome, mvpd: String?,
        in engine: isolated EntitlementEngine
    ) {
        let reply = replies.removeValue(forKey: request.id)
        data.removeValue(forKey: request.id)
        let cached = cached.remove(request.id) != nil
        let profile = mvpd.flatMap { engine.local.profiles[$0]?.profile }
        switch outcome {
        case .token(let token, let notAfter, let statusID):
            if let notAfter { engine.update { $0.authorizations[request.resource] = Int64(notAfter.timeIntervalSince1970 * 1000) } }
            var events: [AccessEnablerEvent] = []
            if statusID == AccessEnablerStatus.ID.tempPassAuthorized {
                events.append(
                    .status(
                        AccessEnablerStatus(
                            errorID: AccessEnablerStatus.ID.tempPassAuthorized, level: .info,
                            message: "Authorized with TempPass.", extras: [STATUS_RESOURCE_KEY: request.resource])))
            } else if statusID == AccessEnablerStatus.ID.degradedAuthorization {
                events.append(
                    .status(
                        AccessEnablerStatus(
                            errorID: AccessEnablerStatus.ID.degradedAuthorization, level: .warning,
                            message: "Authorized under a degradation rule.",
                            extras: [STATUS_RESOURCE_KEY: request.resource])))
            }
            events.append(.setToken(token: token, resource: request.resource))
            events.append(
                engine.tracking.authorization(succeeded: true, mvpd: mvpd, profile: profile, cached: cached, error: "", details: "", in: engine))
            engine.emit(events)
            reply?(.success(token))
        case .failed(let code, let description, let statusID):
            report(
                request, code: code, description: description, statusID: statusID, mvpd: mvpd, profile: profile, cached: cached,
                reply: reply, in: engine)
        case .authenticationLost(let description, let statusID):
            engine.update { state in
                if let mvpd { state.profiles.removeValue(forKey: mvpd) }
                if state.selectedMVPD == mvpd { state.selectedMVPD = nil }
            }
            report(
                request, code: USER_NOT_AUTHENTICATED_ERROR, description: description, statusID: statusID, mvpd: mvpd,
                profile: profile, cached: cached, reply: reply, in: engine)
        }
    }

    private func report(
        _ request: AuthorizationStateMachine.Request, code: String, description: String, statusID: String,
        mvpd: String?, profile: Profile?, cached: Bool, reply: EngineCommand.Reply<String>?, in engine: isolated EntitlementEngine
    ) {
        engine.update { $0.authorizations.removeValue(forKey: request.resource) }
        engine.emit([
            .status(
                AccessEnablerStatus(
                    errorID: statusID, level: .error, message: description.isEmpty ? code : description,
                    extras: [STATUS_RESOURCE_KEY: request.resource])),
            .tokenRequestFailed(resource: request.resource, errorCode: code, errorDescription: description),
            engine.tracking.authorization(
                succeeded: false, mvpd: mvpd, profile: profile, cached: cached, error: code, details: description, in: engine),
        ])
        let errorCode: AccessEnablerError.Code =
            switch code {
            case USER_NOT_AUTHORIZED_ERROR: .notAuthorized
            case USER_NOT_AUTHENTICATED_ERROR: .notAuthenticated
            default: .server
            }
        reply?(.failure(AccessEnablerError(code: errorCode, message: code, statusID: statusID, details: description)))
    }
}
