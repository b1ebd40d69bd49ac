import Foundation

/// The authentication flow: provider picker → session → login page (or registration code) → profile.
///
/// Each attempt has a number; answers for an older attempt (superseded by a new selection, a cancel or a new
/// `getAuthentication(forceAuthn:)`) are ignored, so every attempt reports at most once.
struct AuthenticationStateMachine: Sendable {
    enum State: Equatable, Sendable {
        case idle
        /// `displayProviderDialog` was sent; waiting for `setSelectedProvider`.
        case selectingProvider
        /// Creating the authentication session for `mvpd` (nil: the second screen picks it).
        case creatingSession(mvpd: String?, attempt: Int)
        /// The login page is open; waiting for `handleExternalURL`.
        case awaitingRedirect(mvpd: String, attempt: Int)
        /// A registration code is shown; the engine polls for the profile.
        case awaitingSecondScreen(mvpd: String?, code: String, attempt: Int)
        /// Fetching the new profile.
        case fetchingProfile(mvpd: String, attempt: Int)
        /// Platform single sign-on (Apple SSO picker, relayed SAML) is running.
        case platformSSO(attempt: Int)
    }

    /// How a platform single sign-on attempt ended.
    enum PlatformOutcome: Equatable, Sendable {
        /// A profile for `mvpd` was created from the platform's answer.
        case authenticated(mvpd: String)
        /// Continue with the regular picker (`displayProviderDialog`).
        case fallBack
        /// The user cancelled the platform picker.
        case cancelled
        /// Continue with the service's own login for `mvpd` (an MVPD boarded `PICKER`), or — on a second-screen
        /// device after "other TV provider" — with a registration code for any MVPD (`mvpd` nil).
        case regularFlow(mvpd: String?)
    }

    /// What the session answer asks for.
    enum SessionOutcome: Equatable, Sendable {
        /// Open `url` (login page) — or, on a second-screen device, show `code`.
        case interactive(url: String, code: String?, notAfter: Date?)
        /// No login needed (TempPass, already authenticated): fetch the profile.
        case direct(mvpd: String)
        /// The session could not be created.
        case failed(statusID: String?)
    }

    enum Action: Equatable, Sendable {
        /// `setAuthenticationStatus(1, "")` (+ tracking; `cached` when no network was involved).
        case reportAuthenticated(mvpd: String, cached: Bool)
        /// `setAuthenticationStatus(0, code)` (+ `status(statusID)` when given).
        case reportFailure(code: String, statusID: String?)
        /// `displayProviderDialog(mvpds)`.
        case displayProviderDialog
        /// Create an authentication session.
        case createSession(mvpd: String?, attempt: Int)
        /// Send `navigate(toUrl:)` for `mvpd`'s login page.
        case navigate(url: String, mvpd: String)
        /// Show the registration code (`status(REGCODE)`) and start polling.
        case startPolling(code: String, url: String, notAfter: Date?, mvpd: String?, attempt: Int)
        /// Stop the second-screen polling of the superseded attempt.
        case stopPolling
        /// Fetch the profile of `mvpd`.
        case fetchProfile(mvpd: String, attempt: Int)
        /// Run platform single sign-on.
        case startPlatformSSO(attempt: Int)
        /// Stop the platform single sign-on of the superseded attempt.
        case stopPlatformSSO
    }

    private(set) var state: State = .idle
    private var attempts = 0

    var isInProgress: Bool { state != .idle }

    /// The MVPD the user selected in the flow under way (nil before a selection, or with no flow).
    var selectedMVPD: String? {
        switch state {
        case .creatingSession(let mvpd?, _), .awaitingRedirect(let mvpd, _), .awaitingSecondScreen(let mvpd?, _, _),
            .fetchingProfile(let mvpd, _):
            mvpd
        default:
            nil
        }
    }

    /// `getAuthentication`: reports a valid profile without a picker unless `force`; else runs platform single
    /// sign-on when `platformSSO` (the requestor has SSO MVPDs and the device an account), else shows the picker.
    mutating func getAuthentication(force: Bool, authenticatedMVPD: String?, hasProviders: Bool, platformSSO: Bool = false) -> [Action] {
        if !force, let mvpd = authenticatedMVPD { return [.reportAuthenticated(mvpd: mvpd, cached: true)] }
        var actions = leaveCurrent()
        guard hasProviders else {
            state = .idle
            return actions + [.reportFailure(code: PROVIDER_NOT_AVAILABLE_ERROR, statusID: nil)]
        }
        if platformSSO {
            attempts += 1
            state = .platformSSO(attempt: attempts)
            return actions + [.startPlatformSSO(attempt: attempts)]
        }
        state = .selectingProvider
        actions.append(.displayProviderDialog)
        return actions
    }

    /// `setSelectedProvider(id)`; `known` says whether `id` is a configured MVPD. `nil` cancels.
    mutating func selectProvider(_ id: String?, known: Bool) -> [Action] {
        var actions = leaveCurrent()
        guard let id else {
            state = .idle
            return actions + [.reportFailure(code: PROVIDER_NOT_SELECTED_ERROR, statusID: nil)]
        }
        guard known else {
            state = .idle
            return actions + [.reportFailure(code: GENERIC_AUTHENTICATION_ERROR, statusID: AccessEnablerStatus.ID.authenticationInternal)]
        }
        attempts += 1
        state = .creatingSession(mvpd: id, attempt: attempts)
        actions.append(.createSession(mvpd: id, attempt: attempts))
        return actions
    }

    /// Starts a second-screen login where the user picks the MVPD on the activation page.
    mutating func startSecondScreen() -> [Action] {
        var actions = leaveCurrent()
        attempts += 1
        state = .creatingSession(mvpd: nil, attempt: attempts)
        actions.append(.createSession(mvpd: nil, attempt: attempts))
        return actions
    }

    /// The session answer for `attempt`.
    mutating func sessionCreated(attempt: Int, outcome: SessionOutcome, deviceMode: Bool) -> [Action] {
        guard case .creatingSession(let mvpd, let current) = state, current == attempt else { return [] }
        switch outcome {
        case .interactive(let url, let code, let notAfter):
            if deviceMode {
                guard let code else {
                    state = .idle
                    return [.reportFailure(code: GENERIC_AUTHENTICATION_ERROR, statusID: AccessEnablerStatus.ID.registrationCodeFailed)]
                }
                state = .awaitingSecondScreen(mvpd: mvpd, code: code, attempt: attempt)
                return [.startPolling(code: code, url: url, notAfter: notAfter, mvpd: mvpd, attempt: attempt)]
            }
            guard let mvpd else {
                // The service answered a session without an MVPD: an answer the SDK cannot use.
                state = .idle
                return [.reportFailure(code: INTERNAL_AUTHENTICATION_ERROR, statusID: AccessEnablerStatus.ID.authenticationInternal)]
            }
            state = .awaitingRedirect(mvpd: mvpd, attempt: attempt)
            return [.navigate(url: url, mvpd: mvpd)]
        case .direct(let resolved):
            state = .fetchingProfile(mvpd: resolved, attempt: attempt)
            return [.fetchProfile(mvpd: resolved, attempt: attempt)]
        case .failed(let statusID):
            state = .idle
            return [.reportFailure(code: GENERIC_AUTHENTICATION_ERROR, statusID: statusID)]
        }
    }

    /// `handleExternalURL` with a completion URL. Returns nothing when no login page is open (so a second call,
    /// or a call during logout, does not complete anything).
    mutating func externalURL(error: String?) -> [Action] {
        guard case .awaitingRedirect(let mvpd, let attempt) = state else { return [] }
        if error != nil {
            state = .idle
            return [.reportFailure(code: GENERIC_AUTHENTICATION_ERROR, statusID: AccessEnablerStatus.ID.authenticationNotFound)]
        }
        state = .fetchingProfile(mvpd: mvpd, attempt: attempt)
        return [.fetchProfile(mvpd: mvpd, attempt: attempt)]
    }

    /// The profile answer for `attempt`: the authenticated MVPD, or a failure status id.
    mutating func profileFetched(attempt: Int, result: Result<String, AccessEnablerError>) -> [Action] {
        guard case .fetchingProfile(_, let current) = state, current == attempt else { return [] }
        state = .idle
        switch result {
        case .success(let mvpd): return [.reportAuthenticated(mvpd: mvpd, cached: false)]
        case .failure(let error):
            return [
                .reportFailure(
                    code: GENERIC_AUTHENTICATION_ERROR,
                    statusID: error.statusID ?? AccessEnablerStatus.ID.authenticationNotFound)
            ]
        }
    }

    /// The second-screen polling of `attempt` ended.
    mutating func secondScreenFinished(attempt: Int, result: Result<String, AccessEnablerError>) -> [Action] {
        guard case .awaitingSecondScreen(_, _, let current) = state, current == attempt else { return [] }
        state = .idle
        switch result {
        case .success(let mvpd): return [.reportAuthenticated(mvpd: mvpd, cached: false)]
        case .failure(let error):
            return [
                .reportFailure(
                    code: GENERIC_AUTHENTICATION_ERROR,
                    statusID: error.statusID ?? AccessEnablerStatus.ID.authenticationNotFound)
            ]
        }
    }

    /// The platform single sign-on of `attempt` ended.
    mutating func platformSSOFinished(attempt: Int, outcome: PlatformOutcome) -> [Action] {
        guard case .platformSSO(let current) = state, current == attempt else { return [] }
        switch outcome {
        case .authenticated(let mvpd):
            state = .idle
            return [.reportAuthenticated(mvpd: mvpd, cached: false)]
        case .fallBack:
            state = .selectingProvider
            return [.displayProviderDialog]
        case .cancelled:
            state = .idle
            return [.reportFailure(code: PROVIDER_NOT_SELECTED_ERROR, statusID: nil)]
        case .regularFlow(let mvpd):
            attempts += 1
            state = .creatingSession(mvpd: mvpd, attempt: attempts)
            return [.createSession(mvpd: mvpd, attempt: attempts)]
        }
    }

    /// Logout or a new requestor: forget the flow.
    mutating func reset() -> [Action] {
        let actions = leaveCurrent()
        state = .idle
        return actions
    }

    private func leaveCurrent() -> [Action] {
        if case .awaitingSecondScreen = state { return [.stopPolling] }
        if case .platformSSO = state { return [.stopPlatformSSO] }
        return []
    }
}
