import EntitleCore
import Foundation

/// The second-screen part of a login (``SecondScreenPollingStateMachine``): shows the registration code
/// (`status(REGCODE)`) and polls the profile by code (`GET /api/v2/{sp}/profiles/code/{code}`) until the login
/// completes, the code expires or the login is stopped. The polling is one job of the engine — a loop that sleeps on
/// the injected clock and awaits each answer — stopped through its ``JobCancellation``.
final class SecondScreenCoordinator {
    private var machine: SecondScreenPollingStateMachine
    /// The attempt of the authentication state machine this polling serves.
    private var attempt = 0
    private var polling: JobCancellation?

    /// Creates the flow polling every `interval` seconds.
    init(interval: TimeInterval) {
        machine = SecondScreenPollingStateMachine(interval: interval)
    }

    /// Shows the registration code and starts polling.
    func start(code: String, url: String, notAfter: Date?, mvpd: String?, attempt: Int, in engine: isolated EntitlementEngine) {
        polling?.cancel()
        polling = nil
        self.attempt = attempt
        let activation = engine.settings.activationURL ?? engine.absolute("/activate", provider: engine.provider(for: mvpd))
        var extras = [STATUS_REGISTRATION_CODE_KEY: code, STATUS_ACTIVATION_URL_KEY: activation, STATUS_SESSION_URL_KEY: url]
        if let notAfter { extras[STATUS_EXPIRES_KEY] = String(Int64(notAfter.timeIntervalSince1970 * 1000)) }
        engine.emit([
            .status(
                AccessEnablerStatus(
                    errorID: AccessEnablerStatus.ID.registrationCode, level: .success, message: code, extras: extras))
        ])
        let first = machine.start(code: code, notAfter: notAfter, now: engine.now())
        guard case .pollAfter = first else { return finish(first, in: engine) }
        let cancellation = JobCancellation()
        polling = cancellation
        engine.spawn(cancellation: cancellation) { engine in
            await engine.secondScreen.poll(first, code: code, mvpd: mvpd, in: engine)
        }
    }

    /// Stops the polling; returns the code it was polling, if any.
    func stop() -> String? {
        let code = machine.code
        _ = machine.cancel()
        polling?.cancel()
        polling = nil
        return code
    }

    /// The polling loop: sleeps, asks, and feeds each answer to the state machine until it stops asking.
    private func poll(_ first: SecondScreenPollingStateMachine.Action, code: String, mvpd: String?, in engine: isolated EntitlementEngine) async {
        var action = first
        while case .pollAfter(let seconds, let generation) = action {
            do { try await engine.clock.sleep(seconds: seconds) } catch { return }
            if Task.isCancelled { return }
            let provider = engine.provider(for: mvpd)
            let client = engine.client(for: provider)
            let call = APICall(method: "GET", path: ["api", "v2", engine.requestorID, "profiles", "code", code])
            let result: Result<ProfilesResponse, AccessEnablerError>
            do throws(AccessEnablerError) {
                result = .success(try await client.send(call, headers: engine.commonHeaders(), as: ProfilesResponse.self))
            } catch {
                result = .failure(error)
            }
            if Task.isCancelled { return }
            guard let pollResult = answer(result, generation: generation, mvpd: mvpd, provider: provider, in: engine) else { return }
            action = machine.pollCompleted(generation: generation, result: pollResult, now: engine.now())
        }
        finish(action, in: engine)
    }

    /// What an answer means for the polling; nil when the polling it answers was stopped meanwhile.
    private func answer(
        _ result: Result<ProfilesResponse, AccessEnablerError>, generation: Int, mvpd: String?, provider: URL,
        in engine: isolated EntitlementEngine
    ) -> SecondScreenPollingStateMachine.PollResult? {
        switch result {
        case .success(let response):
            guard let (key, profile) = response.profiles.first(where: { mvpd == nil || $0.key == mvpd }) ?? response.profiles.first else {
                return .pending
            }
            guard case .polling(_, _, let current) = machine.state, current == generation else { return nil }
            engine.store(profile: profile, mvpd: key, provider: provider)
            return .authenticated(mvpd: key)
        case .failure(let error):
            switch error.code {
            case .throttled: return .throttled(retryAfter: error.retryAfter ?? 1)
            case .network, .invalidResponse: return .transientFailure
            case .server where (error.httpStatus ?? 500) >= 500: return .transientFailure
            case .server where error.httpStatus == 404: return .pending
            case .server where error.enhancedError?.code == .invalidParameterCode:
                return .failed(error.with(statusID: AccessEnablerStatus.ID.authenticationNotFound))
            case .server: return .pending
            default: return .failed(error)
            }
        }
    }

    /// The polling ended: its result goes to the authentication flow.
    private func finish(_ action: SecondScreenPollingStateMachine.Action, in engine: isolated EntitlementEngine) {
        switch action {
        case .none, .pollAfter:
            return
        case .succeeded(let mvpd, _):
            polling = nil
            engine.authentication.secondScreenFinished(attempt: attempt, result: .success(mvpd), in: engine)
        case .expired:
            polling = nil
            let error = AccessEnablerError(
                code: .expired, message: "The registration code expired.", statusID: AccessEnablerStatus.ID.authenticationNotFound)
            engine.authentication.secondScreenFinished(attempt: attempt, result: .failure(error), in: engine)
        case .failed(let error, _):
            polling = nil
            engine.authentication.secondScreenFinished(attempt: attempt, result: .failure(error), in: engine)
        }
    }
}
