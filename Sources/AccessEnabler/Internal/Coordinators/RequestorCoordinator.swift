import EntitleCore
import Foundation

/// The configuration flow (``RequestorStateMachine``): `setRequestor` loads the requestor's local state and fetches
/// every service's configuration and profiles at once, each in a job of the engine that awaits the service's answer;
/// the fastest service wins per MVPD, and calls that need the configuration are held until it is complete. It owns its
/// state machine, the pending replies of `setRequestor`, the profiles the services returned and the redirect URIs the
/// registrations allow; the other flows read the routes and configurations through it.
final class RequestorCoordinator {
    private var machine = RequestorStateMachine<EngineCommand>()
    private var replies: [EngineCommand.Reply<[MVPD]>] = []
    /// The services' profiles of the configuration under way, by service.
    private var syncedProfiles: [URL: ProfilesResponse] = [:]
    /// The configuration generation whose wait for silent services has started.
    private var timerGeneration: Int?
    /// The redirect URIs the registrations allow (the app's custom schemes among them).
    private(set) var registeredRedirects: [String] = []

    /// Creates the flow before any `setRequestor`.
    init() {}

    /// Whether `setRequestor` has not run, runs, succeeded or failed.
    var phase: RequestorStateMachine<EngineCommand>.Phase { machine.phase }
    /// The requestor of the last `setRequestor`.
    var requestorID: String? { machine.requestorID }
    /// The configured MVPDs with the service of each.
    var routes: [MVPDRoute] { machine.routes }
    /// Each service's configuration.
    var configurations: [(provider: URL, configuration: ConfigurationResponse)] { machine.configurations }

    /// The route of `mvpd`.
    func route(for mvpd: String) -> MVPDRoute? { machine.route(for: mvpd) }

    /// A command that needs the configuration: run now, or held until `setRequestorComplete`.
    func submit(_ command: EngineCommand) -> RequestorStateMachine<EngineCommand>.Action { machine.submit(command) }

    /// `setRequestor`: loads the requestor's local state, then fetches every provider's configuration at once.
    func setRequestor(_ id: String, providers: [URL], reply: EngineCommand.Reply<[MVPD]>?, in engine: isolated EntitlementEngine) async {
        if let reply { replies.append(reply) }
        if id != machine.requestorID {
            await engine.loadLocalState(requestor: id)
            engine.authorization.preauthorizations.clear()
        }
        let list = providers.isEmpty ? [engine.settings.defaultProvider] : providers
        guard case .fetch(let generation, let unique) = machine.setRequestor(id, providers: list) else { return }
        syncedProfiles = [:]
        let headers = engine.commonHeaders()
        let pending = engine.local.pendingLogouts ?? [:]
        let redirect = engine.redirectURL(requiresSVC: false)
        for provider in unique {
            let client = engine.client(for: provider)
            let unconfirmed = pending.filter { $0.value == provider.absoluteString }.map(\.key).sorted()
            engine.spawn { engine in
                let result = await Self.fetchConfiguration(client: client, requestorID: id, headers: headers)
                var profiles: ProfilesResponse?
                if case .success = result {
                    let confirmed = await LogoutCoordinator.retry(
                        unconfirmed, client: client, requestorID: id, redirect: redirect, headers: headers)
                    engine.update { LogoutCoordinator.confirmed(confirmed, in: &$0) }
                    profiles = try? await client.send(
                        APICall(method: "GET", path: ["api", "v2", id, "profiles"]), headers: headers, as: ProfilesResponse.self)
                }
                let redirects = await client.credentials.registeredRedirectURIs()
                engine.requestor.received(
                    generation: generation, provider: provider, result: result, profiles: profiles, redirects: redirects, in: engine)
            }
        }
    }

    /// Several providers were asked, one answered, and some are still silent ``EngineSettings/configurationTimeout``
    /// later: each is reported (`CFG408`, `serviceProvider`) and counted as failed, so the others' MVPDs are used.
    private func timedOut(generation: Int, in engine: isolated EntitlementEngine) {
        let silent = machine.silentProviders(generation: generation)
        guard !silent.isEmpty else { return }
        engine.emit(
            silent.map { provider in
                .status(
                    AccessEnablerStatus(
                        errorID: AccessEnablerStatus.ID.serviceTimeout, level: .warning,
                        message: "The service provider did not answer in time; its MVPDs are left out.",
                        extras: ["serviceProvider": provider.absoluteString]))
            })
        for provider in silent {
            var error = AccessEnablerError(
                code: .network, message: "\(provider.absoluteString) did not answer.", statusID: AccessEnablerStatus.ID.serviceTimeout)
            error.networkReason = .timedOut
            received(generation: generation, provider: provider, result: .failure(error), profiles: nil, in: engine)
        }
    }

    /// `GET /api/v2/{sp}/configuration` of one service.
    static func fetchConfiguration(
        client: APIClient, requestorID: String,
        headers: [String: String]
    ) async -> Result<ConfigurationResponse, AccessEnablerError> {
        if client.baseURL == EngineSettings.unconfiguredProvider {
            return .failure(
                AccessEnablerError(
                    code: .notConfigured,
                    message: "No Entitle service is named: set the EntitleServiceURL "
                        + "Info.plist key, pass serviceBaseURL, or call setRequestor(_:serviceProviders:).",
                    statusID: AccessEnablerStatus.ID.serviceNotNamed))
        }
        do {
            let configuration = try await client.send(
                APICall(method: "GET", path: ["api", "v2", requestorID, "configuration"]),
                headers: headers, as: ConfigurationResponse.self)
            return .success(configuration)
        } catch {
            return .failure(error)
        }
    }

    /// One service answered (or was given up): when every service has, the held calls run.
    private func received(
        generation: Int, provider: URL, result: Result<ConfigurationResponse, AccessEnablerError>, profiles: ProfilesResponse?,
        redirects: [String] = [], in engine: isolated EntitlementEngine
    ) {
        if generation == machine.generation, let profiles { syncedProfiles[provider] = profiles }
        for redirect in redirects where !registeredRedirects.contains(redirect) { registeredRedirects.append(redirect) }
        let action = machine.received(generation: generation, provider: provider, result: result)
        if case .success = result, timerGeneration != generation, !machine.silentProviders(generation: generation).isEmpty {
            // The first service answered: the others get `configurationTimeout` more. A network timeout, in real time
            // like the transport's own (the injected test clock does not wait while the network does).
            timerGeneration = generation
            let timeout = engine.settings.configurationTimeout
            engine.spawn { engine in
                do { try await Task.sleep(for: .seconds(timeout)) } catch { return }
                engine.requestor.timedOut(generation: generation, in: engine)
            }
        }
        guard case .complete(let success, let error, let held) = action else { return }
        let waiting = replies
        replies = []
        if success {
            // The change is persisted by a job: awaiting the write here would let later calls run before the held ones.
            let now = engine.now()
            engine.update { applyProfileSync(to: &$0, now: now) }
            engine.emit([.setRequestorComplete(status: ACCESS_ENABLER_STATUS_SUCCESS)])
            let mvpds = engine.currentMVPDs()
            for reply in waiting { reply(.success(mvpds)) }
        } else {
            let failure = (error ?? AccessEnablerError(code: .server, message: "No service provider answered."))
            let statusID = Self.configurationStatusID(failure)
            var events: [AccessEnablerEvent] = [.setRequestorComplete(status: ACCESS_ENABLER_STATUS_ERROR)]
            events.append(.status(AccessEnablerStatus(errorID: statusID, level: .error, message: failure.message)))
            engine.emit(events)
            for reply in waiting { reply(.failure(failure.with(statusID: statusID))) }
        }
        for call in held { engine.execute(call) }
    }

    /// After a successful configuration: the service's view of the profiles replaces the local one for every provider
    /// that answered (a logout elsewhere removes the local profile; a profile made elsewhere — SSO — is adopted).
    private func applyProfileSync(to local: inout LocalState, now: Date) {
        guard !syncedProfiles.isEmpty else { return }
        for (provider, response) in syncedProfiles {
            for (mvpd, entry) in local.profiles where entry.provider == provider.absoluteString && response.profiles[mvpd] == nil {
                local.profiles.removeValue(forKey: mvpd)
            }
            for (mvpd, profile) in response.profiles
            where machine.route(for: mvpd)?.provider ?? provider == provider
                && local.pendingLogouts?[mvpd] == nil
            {
                local.profiles[mvpd] = LocalState.Entry(provider: provider.absoluteString, profile: profile)
            }
        }
        if let selected = local.selectedMVPD, local.profiles[selected] == nil { local.selectedMVPD = nil }
        if local.selectedMVPD == nil, let first = local.authenticated(now: now) {
            local.selectedMVPD = first.mvpd
        }
        syncedProfiles = [:]
    }

    /// The `CFG…`/`R…` status id of a failed configuration.
    static func configurationStatusID(_ error: AccessEnablerError) -> String {
        if let id = error.statusID { return id }
        switch error.code {
        case .throttled: return AccessEnablerStatus.ID.configurationThrottled
        case .network: return AccessEnablerStatus.ID.serviceNotFound
        case .invalidResponse: return AccessEnablerStatus.ID.serviceError(500)
        default:
            let status = error.httpStatus ?? 500
            if status >= 500 { return AccessEnablerStatus.ID.serviceError(status) }
            if status == 404 && error.enhancedError == nil { return AccessEnablerStatus.ID.serviceNotFound }
            return AccessEnablerStatus.ID.invalidRequestor
        }
    }
}
