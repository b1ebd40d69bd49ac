import EntitleCore
import Foundation

/// The logout flow (``LogoutStateMachine``): the local state is wiped at once, then the service says how the logout
/// ends — a page in the web view (finished by `handleExternalURL`), at once, or with the platform's sign-out. It owns
/// its state machine and the pending replies of `logout`; the service's answer is awaited in a job of the engine.
final class LogoutCoordinator {
    private var machine = LogoutStateMachine()
    private var replies: [EngineCommand.Reply<Void>] = []
    /// The MVPD being logged out of (its pages may need SFSafariViewController).
    private var mvpd: String?

    /// Creates the flow with no logout under way.
    init() {}

    /// Whether a logout page is open and its redirect (through `handleExternalURL`) ends the logout.
    var isAwaitingRedirect: Bool { machine.isAwaitingRedirect }

    /// `logout`: wipes local state first, then asks the service how to finish (page, complete or platform SSO).
    func logout(reply: EngineCommand.Reply<Void>?, in engine: isolated EntitlementEngine) {
        if let reply { replies.append(reply) }
        var authenticated: String? = engine.local.authenticated(now: engine.now())?.mvpd
        if authenticated == nil { authenticated = engine.local.selectedMVPD }
        if authenticated == nil { authenticated = engine.local.profiles.keys.sorted().first }
        let service: URL? = authenticated.map { engine.provider(for: $0) }
        mvpd = authenticated
        let keptPendingLogouts = engine.local.pendingLogouts
        engine.authentication.abandon(in: engine)
        engine.authorization.authenticationFinished(success: false, in: engine)
        engine.update { state in
            state = LocalState()
            state.pendingLogouts = keptPendingLogouts
        }
        engine.authorization.preauthorizations.clear()
        let actions = machine.logout(authenticatedMVPD: authenticated)
        if case .requestLogout(let attempt)? = actions.first, let mvpd = authenticated, let service {
            requestLogout(mvpd: mvpd, provider: service, attempt: attempt, in: engine)
        } else {
            perform(actions, in: engine)
        }
    }

    /// The logout page's redirect came back through `handleExternalURL`.
    func externalURL(in engine: isolated EntitlementEngine) {
        perform(machine.externalURL(), in: engine)
    }

    /// `GET /api/v2/{sp}/logout/{mvpd}` in a job that awaits the answer and goes on with the logout.
    private func requestLogout(mvpd: String, provider: URL, attempt: Int, in engine: isolated EntitlementEngine) {
        let client = engine.client(for: provider)
        let headers = engine.commonHeaders()
        let redirect = engine.redirectURL(requiresSVC: engine.mvpdModel(mvpd)?.requiresSafariViewController ?? false)
        let call = APICall(
            method: "GET", path: ["api", "v2", engine.requestorID, "logout", mvpd], query: [("redirectUrl", redirect)])
        let page = Self.logoutPage(mvpd: mvpd, provider: provider, requestorID: engine.requestorID, redirect: redirect)
        engine.spawn { engine in
            let answer: LogoutStateMachine.Answer
            do throws(AccessEnablerError) {
                let response = try await client.send(call, headers: headers, as: LogoutsResponse.self)
                let action = response.logouts[mvpd] ?? response.logouts.first?.value
                switch action?.actionName {
                case .logout:
                    if let url = action?.url { answer = .interactive(url: engine.absolute(url, provider: provider)) } else { answer = .complete }
                case .partnerLogout: answer = .partner
                default: answer = .complete
                }
            } catch {
                engine.logout.logoutFailed(mvpd: mvpd, provider: provider, error: error, in: engine)
                engine.logout.answered(attempt: attempt, answer: .complete, page: nil, in: engine)
                return
            }
            engine.logout.answered(attempt: attempt, answer: answer, page: page, in: engine)
        }
    }

    /// The service's logout page for an MVPD without Single Logout: an iOS-style device still drives it through
    /// `navigate(toUrl:)` (the API reference: the logout always goes through the web view on iOS).
    private static func logoutPage(mvpd: String, provider: URL, requestorID: String, redirect: String) -> String {
        provider.absoluteString + "/adobe-services/logout?"
            + FormURLEncoding.encode([
                ("noflash", "true"), ("mso_id", mvpd), ("requestor_id", requestorID), ("redirect_url", redirect),
            ])
    }

    /// The service did not confirm the logout: remember it, so the next `setRequestor` retries it and does not adopt
    /// the service's copy of the profile meanwhile, and tell the app (`LGO503`).
    private func logoutFailed(mvpd: String, provider: URL, error: AccessEnablerError, in engine: isolated EntitlementEngine) {
        engine.update { state in
            var pending = state.pendingLogouts ?? [:]
            pending[mvpd] = provider.absoluteString
            state.pendingLogouts = pending
        }
        engine.emit([
            .status(
                AccessEnablerStatus(
                    errorID: AccessEnablerStatus.ID.logoutPending, level: .warning,
                    message: "Signed out on this device; the service will be told at the next setRequestor.",
                    extras: ["mvpd": mvpd, "details": error.message]))
        ])
    }

    private func answered(attempt: Int, answer: LogoutStateMachine.Answer, page: String?, in engine: isolated EntitlementEngine) {
        // No Single Logout: the service's own logout page still runs in the web view, and, as the API reference says
        // of every logout, the flow ends ("in the end", status 0) when its redirect comes back through
        // handleExternalURL. A failed request (no page) completes at once: the local state is gone anyway.
        let shown: LogoutStateMachine.Answer = if answer == .complete, let page { .interactive(url: page) } else { answer }
        perform(machine.answered(attempt: attempt, answer: shown, deviceMode: engine.settings.deviceMode), in: engine)
        if answer == .complete, page != nil {
            // The async `signOut()` returns now: the sign-in is gone here and at the service; the page only confirms.
            deliver()
        }
    }

    private func perform(_ actions: [LogoutStateMachine.Action], in engine: isolated EntitlementEngine) {
        for action in actions {
            switch action {
            case .requestLogout:
                break
            case .navigate(let url):
                engine.openPage(url, mvpd: mvpd)
            case .complete(let partner):
                engine.closeSafariView()
                var events: [AccessEnablerEvent] = []
                if partner {
                    events.append(
                        .status(
                            AccessEnablerStatus(
                                errorID: AccessEnablerStatus.ID.platformLogout, level: .info,
                                message: "Also sign out of the TV provider in the system settings.")))
                }
                events.append(.setAuthenticationStatus(status: ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR))
                engine.emit(events)
                deliver()
            }
        }
    }

    /// Answers every waiting `logout`.
    private func deliver() {
        let waiting = replies
        replies = []
        for reply in waiting { reply(.success(())) }
    }

    // MARK: logouts the service has not confirmed

    /// Logouts the service has confirmed on a retry.
    static func confirmed(_ mvpds: [String], in local: inout LocalState) {
        guard var pending = local.pendingLogouts, !mvpds.isEmpty else { return }
        for mvpd in mvpds { pending.removeValue(forKey: mvpd) }
        local.pendingLogouts = pending.isEmpty ? nil : pending
    }

    /// Retries the unconfirmed logouts kept for `provider`; returns the MVPDs the service confirmed.
    static func retry(
        _ mvpds: [String], client: APIClient, requestorID: String, redirect: String, headers: [String: String]
    ) async -> [String] {
        var confirmed: [String] = []
        for mvpd in mvpds {
            let call = APICall(method: "GET", path: ["api", "v2", requestorID, "logout", mvpd], query: [("redirectUrl", redirect)])
            if (try? await client.send(call, headers: headers, as: LogoutsResponse.self)) != nil { confirmed.append(mvpd) }
        }
        return confirmed
    }
}
