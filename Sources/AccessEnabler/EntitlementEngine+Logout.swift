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
        perform(authentication.reset())
        let abandoned = authenticationReplies
        authenticationReplies = []
        for reply in abandoned { reply(.failure(AccessEnablerError(code: .cancelled, message: "Logged out during authentication."))) }
        resumeAuthorizations(success: false)
        local = LocalState()
        preauthorizations.clear()
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
        let path = ["api", "v2", requestorID, "logout", mvpd]
        let redirect = redirectURL(requiresSVC: mvpdModel(mvpd)?.requiresSafariViewController ?? false)
        Task {
            let answer: LogoutStateMachine.Answer
            do throws(AccessEnablerError) {
                let response = try await client.send(APICall(method: "GET", path: path, query: [("redirectUrl", redirect)]),
                                                     headers: headers, as: LogoutsResponse.self)
                let action = response.logouts[mvpd] ?? response.logouts.first?.value
                switch action?.actionName {
                case "logout":
                    if let url = action?.url { answer = .interactive(url: self.absolute(url, provider: provider)) }
                    else { answer = .complete }
                case "partner_logout": answer = .partner
                default: answer = .complete
                }
            } catch {
                answer = .complete
            }
            self.logoutAnswered(attempt: attempt, answer: answer)
        }
    }

    private func logoutAnswered(attempt: Int, answer: LogoutStateMachine.Answer) {
        performLogout(logoutMachine.answered(attempt: attempt, answer: answer, deviceMode: settings.deviceMode))
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
                    events.append(.status(AccessEnablerStatus(errorID: AccessEnablerStatus.ID.platformLogout, level: "info",
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
