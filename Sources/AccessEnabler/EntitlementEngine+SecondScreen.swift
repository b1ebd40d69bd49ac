import EntitleCore
import Foundation

extension EntitlementEngine {
    /// Shows the registration code (`status(REGCODE)`) and starts polling the profile by code.
    func startPolling(code: String, url: String, notAfter: Date?, mvpd: String?, attempt: Int) {
        pollingTask?.cancel()
        pollingAttempt = attempt
        let activation = settings.activationURL ?? absolute("/activate", provider: provider(for: mvpd))
        var extras = [STATUS_REGISTRATION_CODE_KEY: code, STATUS_ACTIVATION_URL_KEY: activation, STATUS_SESSION_URL_KEY: url]
        if let notAfter { extras[STATUS_EXPIRES_KEY] = String(Int64(notAfter.timeIntervalSince1970 * 1000)) }
        emit([
            .status(
                AccessEnablerStatus(
                    errorID: AccessEnablerStatus.ID.registrationCode, level: "success", message: code,
                    extras: extras))
        ])
        let action = polling.start(code: code, notAfter: notAfter, now: now())
        performPolling(action, code: code, mvpd: mvpd)
    }

    private func performPolling(_ action: SecondScreenPollingStateMachine.Action, code: String, mvpd: String?) {
        switch action {
        case .none:
            break
        case .pollAfter(let seconds, let generation):
            let provider = provider(for: mvpd)
            let client = client(for: provider)
            let headers = commonHeaders()
            let path = ["api", "v2", requestorID, "profiles", "code", code]
            let clock = clock
            pollingTask = Task {
                do { try await clock.sleep(seconds: seconds) } catch { return }
                if Task.isCancelled { return }
                let result: Result<ProfilesResponse, AccessEnablerError>
                do throws(AccessEnablerError) {
                    result = .success(try await client.send(APICall(method: "GET", path: path), headers: headers, as: ProfilesResponse.self))
                } catch {
                    result = .failure(error)
                }
                if Task.isCancelled { return }
                self.pollAnswered(generation: generation, code: code, mvpd: mvpd, provider: provider, result: result)
            }
        case .succeeded(let resolved, _):
            pollingTask = nil
            perform(authentication.secondScreenFinished(attempt: pollingAttempt, result: .success(resolved)))
        case .expired:
            pollingTask = nil
            perform(
                authentication.secondScreenFinished(
                    attempt: pollingAttempt,
                    result: .failure(
                        AccessEnablerError(
                            code: .expired, message: "The registration code expired.",
                            statusID: AccessEnablerStatus.ID.authenticationNotFound))))
        case .failed(let error, _):
            pollingTask = nil
            perform(authentication.secondScreenFinished(attempt: pollingAttempt, result: .failure(error)))
        }
    }

    private func pollAnswered(
        generation: Int, code: String, mvpd: String?, provider: URL,
        result: Result<ProfilesResponse, AccessEnablerError>
    ) {
        let pollResult: SecondScreenPollingStateMachine.PollResult
        switch result {
        case .success(let response):
            if let (key, profile) = response.profiles.first(where: { mvpd == nil || $0.key == mvpd }) ?? response.profiles.first {
                guard polling.state != .idle, case .polling(_, _, let current) = polling.state, current == generation else { return }
                store(profile: profile, mvpd: key, provider: provider)
                pollResult = .authenticated(mvpd: key)
            } else {
                pollResult = .pending
            }
        case .failure(let error):
            switch error.code {
            case .throttled: pollResult = .throttled(retryAfter: error.retryAfter ?? 1)
            case .network, .invalidResponse: pollResult = .transientFailure
            case .server where (error.httpStatus ?? 500) >= 500: pollResult = .transientFailure
            case .server where error.httpStatus == 404: pollResult = .pending
            case .server where error.enhancedError?.code == .invalidParameterCode:
                pollResult = .failed(error.with(statusID: AccessEnablerStatus.ID.authenticationNotFound))
            case .server: pollResult = .pending
            default: pollResult = .failed(error)
            }
        }
        performPolling(polling.pollCompleted(generation: generation, result: pollResult, now: now()), code: code, mvpd: mvpd)
    }
}
