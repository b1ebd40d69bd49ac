import EntitleCore
import Foundation

/// The authentication flow (``AuthenticationStateMachine``): `checkAuthentication`, `getAuthentication`, the provider
/// choice, the login page or the registration code (``SecondScreenCoordinator``), platform single sign-on
/// (``PlatformSSOCoordinator``) and the profile. It owns its state machine, the pending replies of the calls waiting
/// for the login and the `withData:` / filter of the login under way; the service's answers are awaited in jobs of
/// the engine, which feed them back into the state machine (attempts are numbered, so stale answers are ignored).
final class AuthenticationCoordinator {
    private var machine = AuthenticationStateMachine()
    private var replies: [EngineCommand.Reply<String>] = []
    /// The `withData:` of the login under way (its Promotional TempPass identity).
    var data: [String: any Sendable]?
    /// The platform picker's filter of the login under way (`TV_PROVIDERS`, `FEATURED_TV_PROVIDERS`).
    var filter: [String: any Sendable]?
    /// The second-screen sessions given up whose `DELETE` is under way, with the replies waiting for it.
    private var abandonments: [Int: [@Sendable () -> Void]] = [:]
    private var lastAbandonment = 0
    private var currentAbandonment: Int?

    /// Creates the flow with no login under way.
    init() {}

    /// Whether a login is under way.
    var isInProgress: Bool { machine.isInProgress }

    /// The MVPD selected in the login under way.
    var selectedMVPD: String? { machine.selectedMVPD }

    // MARK: commands

    /// `checkAuthentication`: local only.
    func checkAuthentication(reply: EngineCommand.Reply<String>?, in engine: isolated EntitlementEngine) {
        let now = engine.now()
        if let (mvpd, entry) = engine.local.authenticated(now: now) {
            engine.emit([
                .setAuthenticationStatus(status: ACCESS_ENABLER_STATUS_SUCCESS, errorCode: USER_AUTHENTICATED),
                engine.tracking.authentication(succeeded: true, mvpd: mvpd, profile: entry.profile, cached: true, in: engine),
            ])
            reply?(.success(mvpd))
            return
        }
        var events: [AccessEnablerEvent] = [
            .setAuthenticationStatus(status: ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR),
            engine.tracking.authentication(succeeded: false, mvpd: nil, profile: nil, cached: true, in: engine),
        ]
        if engine.local.expiredTemporaryProfile(now: now) != nil {
            events.append(
                .status(
                    AccessEnablerStatus(
                        errorID: AccessEnablerStatus.ID.tempPassExpired, level: .warning, message: "The TempPass has expired.")))
        }
        engine.emit(events)
        reply?(
            .failure(
                AccessEnablerError(
                    code: .notAuthenticated, message: "The user is not authenticated.",
                    statusID: AccessEnablerStatus.ID.notAuthenticated)))
    }

    /// `getAuthentication` (with `forceAuthn`, `withData:` and the platform picker's filter).
    func getAuthentication(
        force: Bool, data: [String: any Sendable]?, filter: [String: any Sendable]?, reply: EngineCommand.Reply<String>?,
        in engine: isolated EntitlementEngine
    ) {
        if let reply { replies.append(reply) }
        self.data = data
        self.filter = filter
        start(force: force, in: engine)
    }

    /// Starts the login: platform single sign-on when the device has an account and the requestor SSO MVPDs, else
    /// the picker.
    func start(force: Bool, in engine: isolated EntitlementEngine) {
        let actions = machine.getAuthentication(
            force: force, authenticatedMVPD: engine.local.authenticated(now: engine.now())?.mvpd,
            hasProviders: !engine.requestor.routes.isEmpty, platformSSO: engine.platformSSO.isAvailable(in: engine))
        perform(actions, in: engine)
    }

    /// `setSelectedProvider` (nil cancels the login).
    func selectProvider(_ id: String?, reply: EngineCommand.Reply<String>?, in engine: isolated EntitlementEngine) {
        if let reply { replies.append(reply) }
        if let id {
            engine.emit([.sendTrackingData(data: [id] + engine.tracking.deviceFields(in: engine), eventType: TRACKING_GET_SELECTED_PROVIDER)])
        }
        let known = id.map { engine.requestor.route(for: $0) != nil } ?? false
        perform(machine.selectProvider(id, known: known), in: engine)
    }

    /// The async API's second-screen login, for `mvpd` or any MVPD.
    func startSecondScreen(mvpd: String?, reply: EngineCommand.Reply<String>?, in engine: isolated EntitlementEngine) {
        if let reply { replies.append(reply) }
        if let mvpd {
            perform(machine.selectProvider(mvpd, known: engine.requestor.route(for: mvpd) != nil), in: engine)
        } else {
            perform(machine.startSecondScreen(), in: engine)
        }
    }

    /// `handleExternalURL`: the app's redirect ends the logout page under way, else the login page.
    func handleExternalURL(_ url: String, in engine: isolated EntitlementEngine) {
        guard ExternalURLMatcher(customRedirects: engine.customRedirects()).matches(url) else { return }
        if engine.logout.isAwaitingRedirect {
            engine.logout.externalURL(in: engine)
            return
        }
        engine.closeSafariView()
        perform(machine.externalURL(error: ExternalURLMatcher.errorParameter(url)), in: engine)
    }

    /// Ends the login under way because the user logged out: its waiting calls fail as cancelled.
    func abandon(in engine: isolated EntitlementEngine) {
        perform(machine.reset(), in: engine)
        let abandoned = replies
        replies = []
        for reply in abandoned { reply(.failure(AccessEnablerError(code: .cancelled, message: "Logged out during authentication."))) }
    }

    // MARK: answers of the flow's jobs

    /// The second-screen login ended (``SecondScreenCoordinator``).
    func secondScreenFinished(attempt: Int, result: Result<String, AccessEnablerError>, in engine: isolated EntitlementEngine) {
        perform(machine.secondScreenFinished(attempt: attempt, result: result), in: engine)
    }

    /// Platform single sign-on ended (``PlatformSSOCoordinator``).
    func platformSSOFinished(
        attempt: Int, outcome: AuthenticationStateMachine.PlatformOutcome, in engine: isolated EntitlementEngine
    ) {
        perform(machine.platformSSOFinished(attempt: attempt, outcome: outcome), in: engine)
    }

    func sessionCreated(attempt: Int, outcome: AuthenticationStateMachine.SessionOutcome, in engine: isolated EntitlementEngine) {
        perform(machine.sessionCreated(attempt: attempt, outcome: outcome, deviceMode: engine.settings.deviceMode), in: engine)
    }

    func profileFetched(attempt: Int, result: Result<String, AccessEnablerError>, in engine: isolated EntitlementEngine) {
        perform(machine.profileFetched(attempt: attempt, result: result), in: engine)
    }

    /// Performs the state machine's actions.
    private func perform(_ actions: [AuthenticationStateMachine.Action], in engine: isolated EntitlementEngine) {
        for action in actions {
            switch action {
            case .reportAuthenticated(let mvpd, let cached):
                finish(mvpd: mvpd, cached: cached, in: engine)
            case .reportFailure(let code, let statusID):
                fail(code: code, statusID: statusID, in: engine)
            case .displayProviderDialog:
                engine.emit([.displayProviderDialog(mvpds: engine.currentMVPDs())])
            case .createSession(let mvpd, let attempt):
                createSession(mvpd: mvpd, attempt: attempt, in: engine)
            case .navigate(let url, let mvpd):
                engine.openPage(url, mvpd: mvpd)
            case .startPolling(let code, let url, let notAfter, let mvpd, let attempt):
                engine.secondScreen.start(code: code, url: url, notAfter: notAfter, mvpd: mvpd, attempt: attempt, in: engine)
            case .stopPolling:
                if let code = engine.secondScreen.stop() { abandonSession(code: code, in: engine) }
            case .fetchProfile(let mvpd, let attempt):
                fetchProfile(mvpd: mvpd, attempt: attempt, in: engine)
            case .startPlatformSSO(let attempt):
                engine.platformSSO.start(attempt: attempt, filter: filter, in: engine)
            case .stopPlatformSSO:
                engine.platformSSO.stop()
            }
        }
    }

    private func finish(mvpd: String, cached: Bool, in engine: isolated EntitlementEngine) {
        engine.closeSafariView()
        engine.update { $0.selectedMVPD = mvpd }
        let profile = engine.local.profiles[mvpd]?.profile
        var events: [AccessEnablerEvent] = []
        if profile?.type == .temporary && !cached {
            events.append(
                .status(
                    AccessEnablerStatus(
                        errorID: AccessEnablerStatus.ID.tempPassAuthenticated, level: .info, message: "Authenticated with TempPass.")))
        }
        if profile?.type == .degraded && !cached {
            events.append(
                .status(
                    AccessEnablerStatus(
                        errorID: AccessEnablerStatus.ID.degradedAuthentication, level: .warning,
                        message: "Authenticated under a degradation rule.")))
        }
        events.append(.setAuthenticationStatus(status: ACCESS_ENABLER_STATUS_SUCCESS, errorCode: USER_AUTHENTICATED))
        events.append(engine.tracking.authentication(succeeded: true, mvpd: mvpd, profile: profile, cached: cached, in: engine))
        engine.emit(events)
        let waiting = replies
        replies = []
        for reply in waiting { reply(.success(mvpd)) }
        engine.authorization.authenticationFinished(success: true, in: engine)
    }

    private func fail(code: String, statusID: String?, in engine: isolated EntitlementEngine) {
        engine.closeSafariView()
        var events: [AccessEnablerEvent] = []
        if let statusID {
            events.append(.status(AccessEnablerStatus(errorID: statusID, level: .error, message: code)))
        }
        events.append(.setAuthenticationStatus(status: ACCESS_ENABLER_STATUS_ERROR, errorCode: code))
        if code != PROVIDER_NOT_SELECTED_ERROR && code != PROVIDER_NOT_AVAILABLE_ERROR {
            events.append(engine.tracking.authentication(succeeded: false, mvpd: nil, profile: nil, cached: false, in: engine))
        }
        engine.emit(events)
        let waiting = replies
        replies = []
        let errorCode: AccessEnablerError.Code =
            code == PROVIDER_NOT_SELECTED_ERROR
            ? .cancelled
            : statusID == AccessEnablerStatus.ID.authenticationNotFound ? .expired : .notAuthenticated
        let error = AccessEnablerError(code: errorCode, message: code, statusID: statusID)
        if errorCode == .cancelled {
            deliverAfterAbandonment { for reply in waiting { reply(.failure(error)) } }
        } else {
            for reply in waiting { reply(.failure(error)) }
        }
        engine.authorization.authenticationFinished(success: false, in: engine)
    }

    // MARK: a second-screen session given up

    /// A second-screen login stopped before it completed (the app cancelled it, or a new login replaced it): tell the
    /// service (`DELETE /api/v2/{sp}/sessions/{code}`), so the code shown on the TV no longer leads to a provider
    /// picker or a login page. Best effort: a failure leaves the code to expire by itself.
    private func abandonSession(code: String, in engine: isolated EntitlementEngine) {
        let client = engine.client(for: engine.provider(for: nil))
        let headers = engine.commonHeaders()
        let call = APICall(method: "DELETE", path: ["api", "v2", engine.requestorID, "sessions", code])
        lastAbandonment += 1
        let id = lastAbandonment
        currentAbandonment = id
        abandonments[id] = []
        engine.spawn { engine in
            _ = try? await client.send(call, headers: headers)
            engine.authentication.abandoned(id)
        }
    }

    /// The `DELETE` of abandonment `id` ended: the replies waiting for it are delivered.
    private func abandoned(_ id: Int) {
        if currentAbandonment == id { currentAbandonment = nil }
        for deliver in abandonments.removeValue(forKey: id) ?? [] { deliver() }
    }

    /// Delivers the replies of a cancelled login once the service has heard of the cancellation, so a process that
    /// exits right after (`entitle device login` on Ctrl-C) does not leave a live code behind.
    private func deliverAfterAbandonment(_ deliver: @escaping @Sendable () -> Void) {
        guard let id = currentAbandonment else { return deliver() }
        currentAbandonment = nil
        abandonments[id, default: []].append(deliver)
    }
}
