import EntitleCore
import Foundation

extension EntitlementEngine {
    func authorize(
        _ resource: String, mode: AuthorizationStateMachine.Mode, data: [String: any Sendable]?,
        reply: EngineCommand.Reply<String>?
    ) {
        nextRequestID += 1
        let request = AuthorizationStateMachine.Request(id: nextRequestID, resource: resource, mode: mode)
        if let reply { authorizationReplies[request.id] = reply }
        if let data, !data.isEmpty { authorizationData[request.id] = data }
        let authenticated = local.authenticated(now: now()) != nil
        if mode == .check && !authentication.isInProgress {
            // The API reference lists checkAuthorization among the triggers of setAuthenticationStatus: it reports
            // the authentication status it found before the authorization result.
            emit([
                authenticated
                    ? .setAuthenticationStatus(status: ACCESS_ENABLER_STATUS_SUCCESS, errorCode: "")
                    : .setAuthenticationStatus(status: ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR)
            ])
        }
        let actions = authorization.authorize(
            request, authenticated: authenticated,
            authenticationInProgress: authentication.isInProgress)
        // The identity of a Promotional TempPass travels with the login this getAuthorization starts.
        if actions.contains(.startAuthentication), let data, !data.isEmpty { authenticationData = data }
        perform(actions)
    }

    /// Waiting `getAuthorization` calls continue after the authentication flow ended.
    func resumeAuthorizations(success: Bool) {
        perform(authorization.authenticationFinished(success: success))
    }

    func perform(_ actions: [AuthorizationStateMachine.Action]) {
        for action in actions {
            switch action {
            case .decide(let request):
                decide(request)
            case .failNotAuthenticated(let request):
                finish(
                    request,
                    outcome: .failed(
                        code: USER_NOT_AUTHENTICATED_ERROR, description: "",
                        statusID: AccessEnablerStatus.ID.notAuthenticated), mvpd: nil)
            case .startAuthentication:
                authenticationFilter = nil
                startAuthentication(force: false)
            }
        }
    }

    private func decide(_ request: AuthorizationStateMachine.Request) {
        guard let (mvpd, entry) = local.authenticated(now: now()) else {
            finish(
                request,
                outcome: .failed(
                    code: USER_NOT_AUTHENTICATED_ERROR, description: "",
                    statusID: AccessEnablerStatus.ID.notAuthenticated), mvpd: nil)
            return
        }
        if let notAfter = local.authorizations[request.resource], notAfter > nowMilliseconds { cachedAuthorizations.insert(request.id) }
        let provider = URL(string: entry.provider) ?? provider(for: mvpd)
        let client = client(for: provider)
        var headers = commonHeaders()
        if let identity = Self.tempPassIdentity(authorizationData.removeValue(forKey: request.id)) { headers["AP-TempPass-Identity"] = identity }
        let body = try? JSONEncoder().encode(DecisionsRequest(resources: [request.resource]))
        let path = ["api", "v2", requestorID, "decisions", "authorize", mvpd]
        Task {
            let outcome: AuthorizationStateMachine.Outcome
            do throws(AccessEnablerError) {
                let response = try await client.send(
                    APICall(method: "POST", path: path, json: body), headers: headers,
                    as: DecisionsResponse.self)
                let decision = response.decisions.first { $0.resource == request.resource } ?? response.decisions.first
                outcome = AuthorizationStateMachine.outcome(of: decision)
            } catch {
                outcome = AuthorizationStateMachine.outcome(of: error)
            }
            self.finish(request, outcome: outcome, mvpd: mvpd)
        }
    }

    private func finish(_ request: AuthorizationStateMachine.Request, outcome: AuthorizationStateMachine.Outcome, mvpd: String?) {
        let reply = authorizationReplies.removeValue(forKey: request.id)
        authorizationData.removeValue(forKey: request.id)
        let cached = cachedAuthorizations.remove(request.id) != nil
        let profile = mvpd.flatMap { local.profiles[$0]?.profile }
        switch outcome {
        case .token(let token, let notAfter, let statusID):
            if let notAfter { local.authorizations[request.resource] = Int64(notAfter.timeIntervalSince1970 * 1000) }
            var events: [AccessEnablerEvent] = []
            if statusID == AccessEnablerStatus.ID.tempPassAuthorized {
                events.append(
                    .status(
                        AccessEnablerStatus(
                            errorID: AccessEnablerStatus.ID.tempPassAuthorized, level: "info",
                            message: "Authorized with TempPass.", extras: [STATUS_RESOURCE_KEY: request.resource])))
            } else if statusID == AccessEnablerStatus.ID.degradedAuthorization {
                events.append(
                    .status(
                        AccessEnablerStatus(
                            errorID: AccessEnablerStatus.ID.degradedAuthorization, level: "warning",
                            message: "Authorized under a degradation rule.",
                            extras: [STATUS_RESOURCE_KEY: request.resource])))
            }
            events.append(.setToken(token: token, resource: request.resource))
            events.append(tracking(authorizationSucceeded: true, mvpd: mvpd, profile: profile, cached: cached, error: "", details: ""))
            emit(events)
            reply?(.success(token))
            Task { await self.persist() }
        case .failed(let code, let description, let statusID):
            report(
                request, code: code, description: description, statusID: statusID, mvpd: mvpd, profile: profile, cached: cached,
                reply: reply)
        case .authenticationLost(let description, let statusID):
            if let mvpd { local.profiles.removeValue(forKey: mvpd) }
            if local.selectedMVPD == mvpd { local.selectedMVPD = nil }
            Task { await self.persist() }
            report(
                request, code: USER_NOT_AUTHENTICATED_ERROR, description: description, statusID: statusID, mvpd: mvpd,
                profile: profile, cached: cached, reply: reply)
        }
    }

    private func report(
        _ request: AuthorizationStateMachine.Request, code: String, description: String, statusID: String,
        mvpd: String?, profile: Profile?, cached: Bool = false, reply: EngineCommand.Reply<String>?
    ) {
        local.authorizations.removeValue(forKey: request.resource)
        emit([
            .status(
                AccessEnablerStatus(
                    errorID: statusID, level: "error", message: description.isEmpty ? code : description,
                    extras: [STATUS_RESOURCE_KEY: request.resource])),
            .tokenRequestFailed(resource: request.resource, errorCode: code, errorDescription: description),
            tracking(authorizationSucceeded: false, mvpd: mvpd, profile: profile, cached: cached, error: code, details: description),
        ])
        let errorCode: AccessEnablerError.Code =
            switch code {
            case USER_NOT_AUTHORIZED_ERROR: .notAuthorized
            case USER_NOT_AUTHENTICATED_ERROR: .notAuthenticated
            default: .server
            }
        reply?(.failure(AccessEnablerError(code: errorCode, message: code, statusID: statusID, details: description)))
    }

    /// `checkPreauthorizedResources(_:cache:)`: the authorized subset, in request order.
    func checkPreauthorized(_ resources: [String], cache: Bool, reply: EngineCommand.Reply<[String]>?) {
        guard let (mvpd, entry) = local.authenticated(now: now()) else {
            emit([.preauthorizedResources(resources: [])])
            reply?(.success([]))
            return
        }
        let (known, missing) = cache ? preauthorizations.lookup(resources, mvpd: mvpd, now: now()) : ([:], Self.unique(resources))
        guard !missing.isEmpty else {
            let authorized = resources.filter { known[$0] == true }
            emit([.preauthorizedResources(resources: authorized)])
            reply?(.success(authorized))
            return
        }
        let provider = URL(string: entry.provider) ?? provider(for: mvpd)
        let client = client(for: provider)
        let headers = commonHeaders()
        let body = try? JSONEncoder().encode(DecisionsRequest(resources: missing))
        let path = ["api", "v2", requestorID, "decisions", "preauthorize", mvpd]
        Task {
            let result: Result<DecisionsResponse, AccessEnablerError>
            do throws(AccessEnablerError) {
                result = .success(
                    try await client.send(
                        APICall(method: "POST", path: path, json: body), headers: headers,
                        as: DecisionsResponse.self))
            } catch {
                result = .failure(error)
            }
            self.preauthorizationAnswered(resources: resources, known: known, mvpd: mvpd, result: result, reply: reply)
        }
    }

    private func preauthorizationAnswered(
        resources: [String], known: [String: Bool], mvpd: String,
        result: Result<DecisionsResponse, AccessEnablerError>, reply: EngineCommand.Reply<[String]>?
    ) {
        switch result {
        case .success(let response):
            preauthorizations.store(response.decisions, mvpd: mvpd, now: now())
            var answers = known
            for decision in response.decisions { answers[decision.resource] = decision.authorized }
            let authorized = resources.filter { answers[$0] == true }
            emit([.preauthorizedResources(resources: authorized)])
            reply?(.success(authorized))
        case .failure(let error):
            emit([
                .status(AccessEnablerStatus(errorID: AccessEnablerStatus.ID.preauthorizationFailed, level: "error", message: error.message)),
                .preauthorizedResources(resources: []),
            ])
            reply?(.failure(error.with(statusID: AccessEnablerStatus.ID.preauthorizationFailed)))
        }
    }

    static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}
