import EntitleCore
import Foundation

/// The service's part of a login: the session (`POST /api/v2/{sp}/sessions`) and, after the login page, the profile
/// (`GET /api/v2/{sp}/profiles/{mvpd}`); each awaited in a job of the engine that feeds the answer to the state machine.
extension AuthenticationCoordinator {
    func createSession(mvpd: String?, attempt: Int, in engine: isolated EntitlementEngine) {
        let provider = engine.provider(for: mvpd)
        let client = engine.client(for: provider)
        var form: [(String, String)] = []
        if let mvpd { form.append(("mvpd", mvpd)) }
        if let domain = engine.domainName(at: provider) { form.append(("domainName", domain)) }
        let requiresSVC = mvpd.flatMap { engine.mvpdModel($0)?.requiresSafariViewController } ?? false
        if !engine.settings.deviceMode { form.append(("redirectUrl", engine.redirectURL(requiresSVC: requiresSVC))) }
        var headers = engine.commonHeaders()
        if let identity = EntitlementEngine.tempPassIdentity(data) { headers["AP-TempPass-Identity"] = identity }
        let call = APICall(method: "POST", path: ["api", "v2", engine.requestorID, "sessions"], form: form)
        engine.spawn { [headers] engine in
            let result: Result<SessionResponse, AccessEnablerError>
            do throws(AccessEnablerError) {
                result = .success(try await client.send(call, headers: headers, as: SessionResponse.self))
            } catch {
                result = .failure(error)
            }
            let outcome = Self.sessionOutcome(result, mvpd: mvpd, provider: provider, in: engine)
            engine.authentication.sessionCreated(attempt: attempt, outcome: outcome, in: engine)
        }
    }

    /// What the service's answer to a session means for the login.
    private static func sessionOutcome(
        _ result: Result<SessionResponse, AccessEnablerError>, mvpd: String?, provider: URL, in engine: isolated EntitlementEngine
    ) -> AuthenticationStateMachine.SessionOutcome {
        let deviceMode = engine.settings.deviceMode
        switch result {
        case .success(let session):
            let notAfter = session.notAfter.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) }
            switch session.actionName {
            case .authenticate:
                return .interactive(url: engine.absolute(session.url ?? "", provider: provider), code: session.code, notAfter: notAfter)
            case .resume where deviceMode && session.code != nil:
                return .interactive(url: engine.absolute(session.url ?? "", provider: provider), code: session.code, notAfter: notAfter)
            case .authorize:
                guard let resolved = session.mvpd ?? mvpd else { return .failed(statusID: AccessEnablerStatus.ID.authenticationInternal) }
                return .direct(mvpd: resolved)
            default:
                return .failed(statusID: AccessEnablerStatus.ID.authenticationInternal)
            }
        case .failure(let error):
            return .failed(
                statusID: deviceMode
                    ? AccessEnablerStatus.ID.registrationCodeFailed
                    : (error.statusID ?? AccessEnablerStatus.ID.authenticationInternal))
        }
    }

    func fetchProfile(mvpd: String, attempt: Int, in engine: isolated EntitlementEngine) {
        let provider = engine.provider(for: mvpd)
        let client = engine.client(for: provider)
        let headers = engine.commonHeaders()
        let call = APICall(method: "GET", path: ["api", "v2", engine.requestorID, "profiles", mvpd])
        engine.spawn { engine in
            let result: Result<String, AccessEnablerError>
            do throws(AccessEnablerError) {
                let response = try await client.send(call, headers: headers, as: ProfilesResponse.self)
                if let (key, profile) = response.profiles[mvpd].map({ (mvpd, $0) }) ?? response.profiles.first.map({ ($0.key, $0.value) }) {
                    engine.store(profile: profile, mvpd: key, provider: provider)
                    result = .success(key)
                } else {
                    result = .failure(
                        AccessEnablerError(
                            code: .notAuthenticated, message: "No profile.", statusID: AccessEnablerStatus.ID.authenticationNotFound))
                }
            } catch {
                result = .failure(error)
            }
            engine.authentication.profileFetched(attempt: attempt, result: result, in: engine)
        }
    }
}
