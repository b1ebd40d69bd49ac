import EntitleCore
import Foundation

extension EntitlementEngine {
    /// `checkAuthentication`: local only.
    func checkAuthentication(reply: EngineCommand.Reply<String>?) {
        if let (mvpd, entry) = local.authenticated(now: now()) {
            emit([
                .setAuthenticationStatus(status: ACCESS_ENABLER_STATUS_SUCCESS, errorCode: USER_AUTHENTICATED),
                tracking(authenticationSucceeded: true, mvpd: mvpd, profile: entry.profile, cached: true),
            ])
            reply?(.success(mvpd))
        } else {
            var events: [AccessEnablerEvent] = [
                .setAuthenticationStatus(status: ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR),
                tracking(authenticationSucceeded: false, mvpd: nil, profile: nil, cached: true),
            ]
            if local.expiredTemporaryProfile(now: now()) != nil {
                events.append(
                    .status(
                        AccessEnablerStatus(
                            errorID: AccessEnablerStatus.ID.tempPassExpired, level: "warning",
                            message: "The TempPass has expired.")))
            }
            emit(events)
            reply?(
                .failure(
                    AccessEnablerError(
                        code: .notAuthenticated, message: "The user is not authenticated.",
                        statusID: AccessEnablerStatus.ID.notAuthenticated)))
        }
    }

    func getAuthentication(
        force: Bool, data: [String: any Sendable]?, filter: [String: any Sendable]?,
        reply: EngineCommand.Reply<String>?
    ) {
        if let reply { authenticationReplies.append(reply) }
        authenticationData = data
        authenticationFilter = filter
        startAuthentication(force: force)
    }

    /// Starts the authentication flow: platform single sign-on when the device has an account and the requestor
    /// SSO MVPDs, else the picker.
    func startAuthentication(force: Bool) {
        let actions = authentication.getAuthentication(
            force: force, authenticatedMVPD: local.authenticated(now: now())?.mvpd,
            hasProviders: !requestor.routes.isEmpty, platformSSO: platformSSOAvailable)
        perform(actions)
    }

    func selectProvider(_ id: String?, reply: EngineCommand.Reply<String>?) {
        if let reply { authenticationReplies.append(reply) }
        if let id {
            emit([.sendTrackingData(data: [id] + deviceTrackingFields(), eventType: TRACKING_GET_SELECTED_PROVIDER)])
        }
        let known = id.map { requestor.route(for: $0) != nil } ?? false
        perform(authentication.selectProvider(id, known: known))
    }

    func startSecondScreen(mvpd: String?, reply: EngineCommand.Reply<String>?) {
        if let reply { authenticationReplies.append(reply) }
        if let mvpd {
            perform(authentication.selectProvider(mvpd, known: requestor.route(for: mvpd) != nil))
        } else {
            perform(authentication.startSecondScreen())
        }
    }

    func handleExternalURL(_ url: String) {
        let matcher = ExternalURLMatcher(customRedirects: customRedirects())
        guard matcher.matches(url) else { return }
        if logout.isAwaitingRedirect {
            logout.externalURL(in: self)
            return
        }
        closeSafariView()
        perform(authentication.externalURL(error: ExternalURLMatcher.errorParameter(url)))
    }

    /// Ends the authentication flow under way because the user logged out: its waiting calls fail as cancelled.
    func abandonAuthentication() {
        perform(authentication.reset())
        let abandoned = authenticationReplies
        authenticationReplies = []
        for reply in abandoned { reply(.failure(AccessEnablerError(code: .cancelled, message: "Logged out during authentication."))) }
    }

    /// The app's own redirect URLs: the configured one and the registered custom schemes.
    func customRedirects() -> [String] {
        var result: [String] = []
        if let configured = settings.redirectURL { result.append(configured) }
        return result + registeredRedirects
    }

    /// Performs the authentication state machine's actions.
    func perform(_ actions: [AuthenticationStateMachine.Action]) {
        for action in actions {
            switch action {
            case .reportAuthenticated(let mvpd, let cached):
                finishAuthentication(mvpd: mvpd, cached: cached)
            case .reportFailure(let code, let statusID):
                failAuthentication(code: code, statusID: statusID)
            case .displayProviderDialog:
                emit([.displayProviderDialog(mvpds: currentMVPDs())])
            case .createSession(let mvpd, let attempt):
                createSession(mvpd: mvpd, attempt: attempt)
            case .navigate(let url, let mvpd):
                openPage(url, mvpd: mvpd)
            case .startPolling(let code, let url, let notAfter, let mvpd, let attempt):
                startPolling(code: code, url: url, notAfter: notAfter, mvpd: mvpd, attempt: attempt)
            case .stopPolling:
                if let code = polling.code { abandonSession(code: code) }
                polling.cancel()
                pollingTask?.cancel()
                pollingTask = nil
            case .fetchProfile(let mvpd, let attempt):
                fetchProfile(mvpd: mvpd, attempt: attempt)
            case .startPlatformSSO(let attempt):
                startPlatformSSO(attempt: attempt)
            case .stopPlatformSSO:
                platformTask?.cancel()
                platformTask = nil
            }
        }
    }

    /// Opens a login or logout page of `mvpd`: for an MVPD that requires SFSafariViewController, the app's
    /// `navigate(toUrl:useSVC: true)` when it handles that (`handleSVC`), else the SDK's own browser when it has one;
    /// `navigate(toUrl:)` otherwise.
    func openPage(_ url: String, mvpd: String?) {
        let requiresSVC = mvpd.flatMap { mvpdModel($0)?.requiresSafariViewController } ?? false
        if requiresSVC && !options.handleSVC, let presenter = settings.safariPresenter, let address = URL(string: url) {
            safariViewOpen = true
            Task { await presenter.open(address) }
        } else {
            emit([.navigate(url: url, useSVC: requiresSVC && options.handleSVC)])
        }
    }

    /// The domain of the requestor's configuration at `provider` (sent as `domainName` with sessions).
    func domainName(at provider: URL) -> String? {
        requestor.configurations.first { $0.provider == provider }?.configuration.requestor.domains.first?.name
    }

    /// Closes the browser the SDK opened for an SFSafariViewController MVPD.
    func closeSafariView() {
        guard safariViewOpen, let presenter = settings.safariPresenter else { return }
        safariViewOpen = false
        Task { await presenter.close() }
    }

    private func finishAuthentication(mvpd: String, cached: Bool) {
        closeSafariView()
        local.selectedMVPD = mvpd
        let profile = local.profiles[mvpd]?.profile
        var events: [AccessEnablerEvent] = []
        if profile?.type == .temporary && !cached {
            events.append(
                .status(
                    AccessEnablerStatus(
                        errorID: AccessEnablerStatus.ID.tempPassAuthenticated, level: "info",
                        message: "Authenticated with TempPass.")))
        }
        if profile?.type == .degraded && !cached {
            events.append(
                .status(
                    AccessEnablerStatus(
                        errorID: AccessEnablerStatus.ID.degradedAuthentication, level: "warning",
                        message: "Authenticated under a degradation rule.")))
        }
        events.append(.setAuthenticationStatus(status: ACCESS_ENABLER_STATUS_SUCCESS, errorCode: USER_AUTHENTICATED))
        events.append(tracking(authenticationSucceeded: true, mvpd: mvpd, profile: profile, cached: cached))
        emit(events)
        let replies = authenticationReplies
        authenticationReplies = []
        for reply in replies { reply(.success(mvpd)) }
        if !cached { spawn { await $0.persist() } }
        authorization.authenticationFinished(success: true, in: self)
    }

    private func failAuthentication(code: String, statusID: String?) {
        closeSafariView()
        var events: [AccessEnablerEvent] = []
        if let statusID {
            events.append(.status(AccessEnablerStatus(errorID: statusID, level: "error", message: code)))
        }
        events.append(.setAuthenticationStatus(status: ACCESS_ENABLER_STATUS_ERROR, errorCode: code))
        if code != PROVIDER_NOT_SELECTED_ERROR && code != PROVIDER_NOT_AVAILABLE_ERROR {
            events.append(tracking(authenticationSucceeded: false, mvpd: nil, profile: nil, cached: false))
        }
        emit(events)
        let replies = authenticationReplies
        authenticationReplies = []
        let errorCode: AccessEnablerError.Code =
            code == PROVIDER_NOT_SELECTED_ERROR
            ? .cancelled
            : statusID == AccessEnablerStatus.ID.authenticationNotFound ? .expired : .notAuthenticated
        let error = AccessEnablerError(code: errorCode, message: code, statusID: statusID)
        if errorCode == .cancelled {
            deliverAfterAbandonment { for reply in replies { reply(.failure(error)) } }
        } else {
            for reply in replies { reply(.failure(error)) }
        }
        authorization.authenticationFinished(success: false, in: self)
    }

    private func createSession(mvpd: String?, attempt: Int) {
        let provider = provider(for: mvpd)
        let client = client(for: provider)
        var form: [(String, String)] = []
        if let mvpd { form.append(("mvpd", mvpd)) }
        if let domain = domainName(at: provider) { form.append(("domainName", domain)) }
        let requiresSVC = mvpd.flatMap { mvpdModel($0)?.requiresSafariViewController } ?? false
        if !settings.deviceMode { form.append(("redirectUrl", redirectURL(requiresSVC: requiresSVC))) }
        var headers = commonHeaders()
        if let identity = Self.tempPassIdentity(authenticationData) { headers["AP-TempPass-Identity"] = identity }
        let path = ["api", "v2", requestorID, "sessions"]
        Task {
            let result: Result<SessionResponse, AccessEnablerError>
            do throws(AccessEnablerError) {
                result = .success(
                    try await client.send(
                        APICall(method: "POST", path: path, form: form), headers: headers,
                        as: SessionResponse.self))
            } catch {
                result = .failure(error)
            }
            self.sessionAnswered(attempt: attempt, mvpd: mvpd, provider: provider, result: result)
        }
    }

    private func sessionAnswered(attempt: Int, mvpd: String?, provider: URL, result: Result<SessionResponse, AccessEnablerError>) {
        let outcome: AuthenticationStateMachine.SessionOutcome
        switch result {
        case .success(let session):
            let notAfter = session.notAfter.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) }
            switch session.actionName {
            case .authenticate:
                outcome = .interactive(url: absolute(session.url ?? "", provider: provider), code: session.code, notAfter: notAfter)
            case .resume where settings.deviceMode && session.code != nil:
                outcome = .interactive(url: absolute(session.url ?? "", provider: provider), code: session.code, notAfter: notAfter)
            case .authorize:
                if let resolved = session.mvpd ?? mvpd {
                    outcome = .direct(mvpd: resolved)
                } else {
                    outcome = .failed(statusID: AccessEnablerStatus.ID.authenticationInternal)
                }
            default:
                outcome = .failed(statusID: AccessEnablerStatus.ID.authenticationInternal)
            }
        case .failure(let error):
            outcome = .failed(
                statusID: settings.deviceMode
                    ? AccessEnablerStatus.ID.registrationCodeFailed
                    : (error.statusID ?? AccessEnablerStatus.ID.authenticationInternal))
        }
        perform(authentication.sessionCreated(attempt: attempt, outcome: outcome, deviceMode: settings.deviceMode))
    }

    /// The redirect URL of a session: the app's custom scheme for MVPDs that need SFSafariViewController, else
    /// `ADOBEPASS_REDIRECT_URL` — unless the registration does not allow it, then the app's custom scheme.
    func redirectURL(requiresSVC: Bool) -> String {
        let registeredCustom = registeredRedirects.filter { !ExternalURLMatcher(customRedirects: []).matches($0) }
        var custom = registeredCustom.first ?? settings.redirectURL
        if let configured = settings.redirectURL,
            registeredRedirects.isEmpty || ExternalURLMatcher(customRedirects: registeredRedirects).matches(configured)
        {
            custom = configured
        }
        if requiresSVC { return custom ?? ADOBEPASS_REDIRECT_URL }
        let allowsAdobePass = registeredRedirects.isEmpty || registeredCustom.count < registeredRedirects.count
        return allowsAdobePass ? ADOBEPASS_REDIRECT_URL : (custom ?? ADOBEPASS_REDIRECT_URL)
    }

    func fetchProfile(mvpd: String, attempt: Int) {
        let provider = provider(for: mvpd)
        let client = client(for: provider)
        let headers = commonHeaders()
        let path = ["api", "v2", requestorID, "profiles", mvpd]
        Task {
            let result: Result<ProfilesResponse, AccessEnablerError>
            do throws(AccessEnablerError) {
                result = .success(try await client.send(APICall(method: "GET", path: path), headers: headers, as: ProfilesResponse.self))
            } catch {
                result = .failure(error)
            }
            self.profileAnswered(mvpd: mvpd, provider: provider, attempt: attempt, result: result)
        }
    }

    private func profileAnswered(mvpd: String, provider: URL, attempt: Int, result: Result<ProfilesResponse, AccessEnablerError>) {
        switch result {
        case .success(let response):
            if let profile = response.profiles[mvpd] ?? response.profiles.first?.value {
                let key = response.profiles[mvpd] != nil ? mvpd : response.profiles.first!.key
                store(profile: profile, mvpd: key, provider: provider)
                perform(authentication.profileFetched(attempt: attempt, result: .success(key)))
            } else {
                perform(
                    authentication.profileFetched(
                        attempt: attempt,
                        result: .failure(
                            AccessEnablerError(
                                code: .notAuthenticated, message: "No profile.", statusID: AccessEnablerStatus.ID.authenticationNotFound))))
            }
        case .failure(let error):
            perform(authentication.profileFetched(attempt: attempt, result: .failure(error)))
        }
    }

    func store(profile: Profile, mvpd: String, provider: URL) {
        local.profiles[mvpd] = LocalState.Entry(provider: provider.absoluteString, profile: profile)
        local.selectedMVPD = mvpd
        authorization.preauthorizations.clear()
    }
}
