import EntitleCore
import Foundation

extension EntitlementEngine {
    /// `logout`: wipes local state first, then asks the service how to finish (page, complete or platform SSO).
    func logout(reply: EngineCommand.Reply<Void>?) {
        if let reply { logoutReplies.append(reply) }
        var authenticated: String? = local.authenticated(now: now())?.mvpd
        if authenticated == nil { authenticated = local.selectedMVPD }
        if authenticated == nil { authenticated = local.profiles.keys.sorted().first }
        let service: URL? = authenticated.map { self.provider(for: $0) }
        loggingOutMVPD = authenticated
        let keptPendingLogouts = local.pendingLogouts
        perform(authentication.reset())
        let abandoned = authenticationReplies
        authenticationReplies = []
        for reply in abandoned { reply(.failure(AccessEnablerError(code: .cancelled, message: "Logged out during authentication."))) }
        resumeAuthorizations(success: false)
        local = LocalState()
        preauthorizations.clear()
        local.pendingLogouts = keptPendingLogouts
        Task { await self.persist() }
        let actions = logoutMachine.logout(authenticatedMVPD: authenticated)
        if case .requestLogout(let attempt)? = actions.first, let mvpd = authenticated, let service {
            requestLogout(mvpd: mvpd, provider: service, attempt: attempt)
        } else {
            performLogout(actions)
        }
    }

    private func requestLogout(mvpd: String, provider: URL, attempt: Int) {
        let client = client(for: provider)
        let headers = commonHeaders()
        let redirect = redirectURL(requiresSVC: mvpdModel(mvpd)?.requiresSafariViewController ?? false)
        let path = ["api", "v2", requestorID, "logout", mvpd]
        Task {
            let answer: LogoutStateMachine.Answer
            do throws(AccessEnablerError) {
                let response = try await client.send(
                    APICall(method: "GET", path: path, query: [("redirectUrl", redirect)]),
                    headers: headers, as: LogoutsResponse.self)
                let action = response.logouts[mvpd] ?? response.logouts.first?.value
                switch action?.actionName {
                case .logout:
                    if let url = action?.url { answer = .interactive(url: self.absolute(url, provider: provider)) } else { answer = .complete }
                case .partnerLogout: answer = .partner
                default: answer = .complete
                }
            } catch {
                self.logoutFailed(mvpd: mvpd, provider: provider, error: error)
                self.logoutAnswered(attempt: attempt, answer: .complete, page: nil)
                return
            }
            self.logoutAnswered(
                attempt: attempt, answer: answer,
                page: self.logoutPage(mvpd: mvpd, provider: provider, redirect: redirect))
        }
    }

    /// The service's logout page for an MVPD without Single Logout: an iOS-style device still drives it through
    /// `navigate(toUrl:)` (the API reference: the logout always goes through the web view on iOS).
    private func logoutPage(mvpd: String, provider: URL, redirect: String) -> String {
        provider.absoluteString + "/adobe-services/logout?"
            + FormURLEncoding.encode([
                ("noflash", "true"), ("mso_id", mvpd), ("requestor_id", requestorID), ("redirect_url", redirect),
            ])
    }

    /// The service did not confirm the logout: remember it, so the next `setRequestor` retries it and does not adopt
    /// the service's copy of the profile meanwhile, and tell the app (`LGO503`).
    private func logoutFailed(mvpd: String, provider: URL, error: AccessEnablerError) {
        var pending = local.pendingLogouts ?? [:]
        pending[mvpd] = provider.absoluteString
        local.pendingLogouts = pending
        Task { await self.persist() }
        emit([
            .status(
                AccessEnablerStatus(
                    errorID: AccessEnablerStatus.ID.logoutPending, level: "warning",
                    message: "Signed out on this device; the service will be told at the next setRequestor.",
                    extras: ["mvpd": mvpd, "details": error.message]))
        ])
    }

    /// Logouts the service has confirmed on a retry.
    func logoutsConfirmed(_ mvpds: [String]) {
        guard var pending = local.pendingLogouts, !mvpds.isEmpty else { return }
        for mvpd in mvpds { pending.removeValue(forKey: mvpd) }
        local.pendingLogouts = pending.isEmpty ? nil : pending
    }

    /// Retries the unconfirmed logouts kept for `provider`; returns the MVPDs the service confirmed.
    static func retryLogouts(
        _ mvpds: [String], client: APIClient, requestorID: String, redirect: String,
        headers: [String: String]
    ) async -> [String] {
        var confirmed: [String] = []
        for mvpd in mvpds {
            let call = APICall(method: "GET", path: ["api", "v2", requestorID, "logout", mvpd], query: [("redirectUrl", redirect)])
            if (try? await client.send(call, headers: headers, as: LogoutsResponse.self)) != nil { confirmed.append(mvpd) }
        }
        return confirmed
    }

    private func logoutAnswered(attempt: Int, answer: LogoutStateMachine.Answer, page: String?) {
        // No Single Logout: the service's own logout page still runs in the web view, and, as the API reference says
        // of every logout, the flow ends ("in the end", status 0) when its redirect comes back through
        // handleExternalURL. A failed request (no page) completes at once: the local state is gone anyway.
        let shown: LogoutStateMachine.Answer = if answer == .complete, let page { .interactive(url: page) } else { answer }
        performLogout(logoutMachine.answered(attempt: attempt, answer: shown, deviceMode: settings.deviceMode))
        if answer == .complete, page != nil {
            // The async `signOut()` returns now: the sign-in is gone here and at the service; the page only confirms.
            let replies = logoutReplies
            logoutReplies = []
            for reply in replies { reply(.success(())) }
        }
    }

    func performLogout(_ actions: [LogoutStateMachine.Action]) {
        for action in actions {
            switch action {
            case .requestLogout:
                break
            case .navigate(let url):
                openPage(url, mvpd: loggingOutMVPD)
            case .complete(let partner):
                closeSafariView()
                var events: [AccessEnablerEvent] = []
                if partner {
                    events.append(
                        .status(
                            AccessEnablerStatus(
                                errorID: AccessEnablerStatus.ID.platformLogout, level: "info",
                                message: "Also sign out of the TV provider in the system settings.")))
                }
                events.append(.setAuthenticationStatus(status: ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR))
                emit(events)
                let replies = logoutReplies
                logoutReplies = []
                for reply in replies { reply(.success(())) }
            }
        }
    }
}
