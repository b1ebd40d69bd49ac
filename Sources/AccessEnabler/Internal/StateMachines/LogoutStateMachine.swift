/// Logout: local state is wiped first, then the service's logout answer says whether a page must run (web view,
/// finished by `handleExternalURL`) or the logout is already complete.
struct LogoutStateMachine: Sendable {
    enum State: Equatable, Sendable {
        case idle
        case requesting(attempt: Int)
        case awaitingRedirect(attempt: Int)
    }

    /// The service's answer for the MVPD.
    enum Answer: Equatable, Sendable {
        /// Open `url` to finish (`actionName: logout`).
        case interactive(url: String)
        /// Nothing more to do (`complete`), or the request failed (local state is gone anyway).
        case complete
        /// Platform SSO: the user must also sign out in the system settings (`partner_logout`).
        case partner
    }

    enum Action: Equatable, Sendable {
        /// Ask the service how to log out (`GET /logout/{mvpd}`).
        case requestLogout(attempt: Int)
        /// Open the logout page.
        case navigate(url: String)
        /// `setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)`, with `status(VSA203)` first when `partner`.
        case complete(partner: Bool)
    }

    private(set) var state: State = .idle
    private var attempts = 0

    /// `logout()`: `authenticatedMVPD` is the MVPD of the wiped profile (nil: nothing to tell the service).
    mutating func logout(authenticatedMVPD: String?) -> [Action] {
        guard authenticatedMVPD != nil else {
            state = .idle
            return [.complete(partner: false)]
        }
        attempts += 1
        state = .requesting(attempt: attempts)
        return [.requestLogout(attempt: attempts)]
    }

    /// The service answered; on a device without web view (`deviceMode`) no page is opened.
    mutating func answered(attempt: Int, answer: Answer, deviceMode: Bool) -> [Action] {
        guard state == .requesting(attempt: attempt) else { return [] }
        switch answer {
        case .interactive(let url) where !deviceMode:
            state = .awaitingRedirect(attempt: attempt)
            return [.navigate(url: url)]
        case .interactive, .complete:
            state = .idle
            return [.complete(partner: false)]
        case .partner:
            state = .idle
            return [.complete(partner: true)]
        }
    }

    /// `handleExternalURL` with a completion URL: finishes a logout page once.
    mutating func externalURL() -> [Action] {
        guard case .awaitingRedirect = state else { return [] }
        state = .idle
        return [.complete(partner: false)]
    }

    var isAwaitingRedirect: Bool {
        if case .awaitingRedirect = state { return true }
        return false
    }
}
