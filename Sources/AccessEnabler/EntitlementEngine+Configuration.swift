import EntitleCore
import Foundation

extension EntitlementEngine {
    /// `setRequestor`: loads the requestor's local state, then fetches every provider's configuration at once.
    func startConfiguration(requestorID id: String, providers: [URL], reply: EngineCommand.Reply<[MVPD]>?) async {
        if let reply { setRequestorReplies.append(reply) }
        if id != requestor.requestorID {
            local = await storage.read(LocalState.self, LocalState.storageKey(requestor: id)) ?? LocalState()
            authorization.preauthorizations.clear()
        }
        let list = providers.isEmpty ? [settings.defaultProvider] : providers
        guard case .fetch(let generation, let unique) = requestor.setRequestor(id, providers: list) else { return }
        syncedProfiles = [:]
        let headers = commonHeaders()
        let pending = local.pendingLogouts ?? [:]
        let redirect = redirectURL(requiresSVC: false)
        for provider in unique {
            let client = client(for: provider)
            let unconfirmed = pending.filter { $0.value == provider.absoluteString }.map(\.key).sorted()
            spawn { engine in
                let result = await Self.fetchConfiguration(client: client, requestorID: id, headers: headers)
                var profiles: ProfilesResponse?
                if case .success = result {
                    let confirmed = await LogoutCoordinator.retry(
                        unconfirmed, client: client, requestorID: id, redirect: redirect,
                        headers: headers)
                    engine.logoutsConfirmed(confirmed)
                    profiles = try? await client.send(
                        APICall(method: "GET", path: ["api", "v2", id, "profiles"]),
                        headers: headers, as: ProfilesResponse.self)
                }
                let redirects = await client.credentials.registeredRedirectURIs()
                engine.configurationReceived(
                    generation: generation, provider: provider, result: result, profiles: profiles,
                    redirects: redirects)
            }
        }
    }

    /// Logouts the service has confirmed on a retry.
    func logoutsConfirmed(_ mvpds: [String]) { LogoutCoordinator.confirmed(mvpds, in: &local) }

    /// Several providers were asked, one answered, and some are still silent ``EngineSettings/configurationTimeout``
    /// later: each is reported (`CFG408`, `serviceProvider`) and counted as failed, so the others' MVPDs are used.
    func configurationTimedOut(generation: Int) {
        let silent = requestor.silentProviders(generation: generation)
        guard !silent.isEmpty else { return }
        emit(
            silent.map { provider in
                .status(
                    AccessEnablerStatus(
                        errorID: AccessEnablerStatus.ID.serviceTimeout, level: "warning",
                        message: "The service provider did not answer in time; its MVPDs are left out.",
                        extras: ["serviceProvider": provider.absoluteString]))
            })
        for provider in silent {
            let error = AccessEnablerError(
                code: .network, message: "\(provider.absoluteString) did not answer.",
                statusID: AccessEnablerStatus.ID.serviceTimeout)
            configurationReceived(generation: generation, provider: provider, result: .failure(error), profiles: nil)
        }
    }

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

    func configurationReceived(
        generation: Int, provider: URL, result: Result<ConfigurationResponse, AccessEnablerError>,
        profiles: ProfilesResponse?, redirects: [String] = []
    ) {
        if generation == requestor.generation, let profiles { syncedProfiles[provider] = profiles }
        for redirect in redirects where !registeredRedirects.contains(redirect) { registeredRedirects.append(redirect) }
        let action = requestor.received(generation: generation, provider: provider, result: result)
        if case .success = result, configurationTimerGeneration != generation, !requestor.silentProviders(generation: generation).isEmpty {
            // The first service answered: the others get `configurationTimeout` more. A network timeout, in real time
            // like the transport's own (the injected test clock does not wait while the network does).
            configurationTimerGeneration = generation
            let timeout = settings.configurationTimeout
            spawn { engine in
                do { try await Task.sleep(for: .seconds(timeout)) } catch { return }
                engine.configurationTimedOut(generation: generation)
            }
        }
        guard case .complete(let success, let error, let held) = action else { return }
        let replies = setRequestorReplies
        setRequestorReplies = []
        if success {
            applyProfileSync()
            // Persist in the background: awaiting here would let later calls run before the held ones.
            spawn { await $0.persist() }
            emit([.setRequestorComplete(status: ACCESS_ENABLER_STATUS_SUCCESS)])
            let mvpds = currentMVPDs()
            for reply in replies { reply(.success(mvpds)) }
        } else {
            let failure = (error ?? AccessEnablerError(code: .server, message: "No service provider answered."))
            let statusID = Self.configurationStatusID(failure)
            var events: [AccessEnablerEvent] = [.setRequestorComplete(status: ACCESS_ENABLER_STATUS_ERROR)]
            events.append(.status(AccessEnablerStatus(errorID: statusID, level: "error", message: failure.message)))
            emit(events)
            for reply in replies { reply(.failure(failure.with(statusID: statusID))) }
        }
        for call in held { execute(call) }
    }

    /// After a successful configuration: the service's view of the profiles replaces the local one for every provider
    /// that answered (a logout elsewhere removes the local profile; a profile made elsewhere — SSO — is adopted).
    func applyProfileSync() {
        guard !syncedProfiles.isEmpty else { return }
        for (provider, response) in syncedProfiles {
            for (mvpd, entry) in local.profiles where entry.provider == provider.absoluteString && response.profiles[mvpd] == nil {
                local.profiles.removeValue(forKey: mvpd)
            }
            for (mvpd, profile) in response.profiles
            where requestor.route(for: mvpd)?.provider ?? provider == provider
                && local.pendingLogouts?[mvpd] == nil
            {
                local.profiles[mvpd] = LocalState.Entry(provider: provider.absoluteString, profile: profile)
            }
        }
        if let selected = local.selectedMVPD, local.profiles[selected] == nil { local.selectedMVPD = nil }
        if local.selectedMVPD == nil, let first = local.authenticated(now: now()) { local.selectedMVPD = first.mvpd }
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
