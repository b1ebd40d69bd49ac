import EntitleCore
import Foundation

/// The engine: the actor that owns what the flows share (settings, transport, token storage, local state, the
/// requestor's configuration, the event hub) and routes each command to the coordinator of its flow. Commands arrive in
/// call order through ``accept(_:)``; the network work of a flow runs as a job (``spawn(_:)``) — a child of the
/// enabler's task group, isolated to this actor, that awaits its answers and ends the flow itself.
actor EntitlementEngine {
    /// A flow's work after its command was taken: runs on the engine, as a child task of the enabler's task group.
    typealias Job = @Sendable (isolated EntitlementEngine) async -> Void

    /// Settings fixed at `init`.
    let settings: EngineSettings
    /// The seam every REST call goes through.
    let transport: any HTTPTransport
    /// The injected clock.
    let clock: any AccessEnablerClock
    /// The token store, with integrity checks.
    let storage: SecureStorage
    /// Delivers every event to the delegate, observers and streams.
    let hub: EventHub
    /// Where ``spawn(_:)`` puts jobs; the enabler's worker runs each as a child task.
    private let jobs: AsyncStream<Job>.Continuation

    /// `setRequestor`: the configuration every other flow reads.
    let requestor = RequestorCoordinator()
    /// `check/getAuthentication`, `setSelectedProvider`, `handleExternalURL`.
    let authentication = AuthenticationCoordinator()
    /// The registration code and its polling.
    let secondScreen: SecondScreenCoordinator
    /// Platform single sign-on.
    let platformSSO = PlatformSSOCoordinator()
    /// `getMetadata` and `getSelectedProvider`.
    let metadata = MetadataCoordinator()
    /// `check/getAuthorization`, `checkPreauthorizedResources` and the Preauthorize API.
    let authorization = AuthorizationCoordinator()
    /// `logout`.
    let logout = LogoutCoordinator()
    /// The tracking data of the authentication and authorization flows.
    let tracking = TrackingReporter()

    /// `setOptions` values, sent with every request.
    var options = EngineOptions()
    /// The device id (configured, stored, or made once).
    var deviceID = ""
    /// Whether storage is prepared and the device id known.
    var prepared = false

    /// Whether the SDK's own browser shows a page (an SFSafariViewController MVPD's).
    var safariViewOpen = false
    /// The requestor's stored state: profiles, selected MVPD, decision expiries, unconfirmed logouts. Read it freely;
    /// change it only through ``update(_:)``, which persists every change (or ``loadLocalState(requestor:)``).
    private(set) var local = LocalState()
    /// One credential manager (DCR and access token) per service.
    var credentialManagers: [URL: CredentialManager] = [:]

    /// A write of ``local`` is scheduled or under way / another is due after it.
    private var persisting = false
    private var persistPending = false

    init(
        settings: EngineSettings, transport: any HTTPTransport, clock: any AccessEnablerClock, storage: SecureStorage,
        hub: EventHub, jobs: AsyncStream<Job>.Continuation
    ) {
        self.settings = settings
        self.transport = transport
        self.clock = clock
        self.storage = storage
        self.hub = hub
        self.jobs = jobs
        self.secondScreen = SecondScreenCoordinator(interval: settings.pollInterval)
    }

    // MARK: commands

    /// Takes the next command, in call order.
    func accept(_ command: EngineCommand) async {
        await prepareIfNeeded()
        switch command {
        case .setOptions(let values):
            applyOptions(values)
        case .setRequestor(let id, let providers, let reply):
            await requestor.setRequestor(id, providers: providers, reply: reply, in: self)
        default:
            if case .run(let call) = requestor.submit(command) { execute(call) }
        }
    }

    /// Runs a command that needs the configuration.
    func execute(_ command: EngineCommand) {
        switch command {
        case .setOptions, .setRequestor:
            break
        case .checkAuthentication(let reply):
            authentication.checkAuthentication(reply: reply, in: self)
        case .getAuthentication(let force, let data, let filter, let reply):
            authentication.getAuthentication(force: force, data: data, filter: filter, reply: reply, in: self)
        case .selectProvider(let id, let reply):
            authentication.selectProvider(id, reply: reply, in: self)
        case .startSecondScreen(let mvpd, let reply):
            authentication.startSecondScreen(mvpd: mvpd, reply: reply, in: self)
        case .handleExternalURL(let url):
            authentication.handleExternalURL(url, in: self)
        case .checkPreauthorized(let resources, let cache, let reply):
            authorization.checkPreauthorized(resources, cache: cache, reply: reply, in: self)
        case .preauthorizeDecisions(let resources, let localCache, let remoteCache, let reply):
            authorization.preauthorizeDecisions(resources, localCache: localCache, remoteCache: remoteCache, reply: reply, in: self)
        case .authorize(let resource, let mode, let data, let reply):
            authorization.authorize(resource, mode: mode, data: data, reply: reply, in: self)
        case .logout(let reply):
            logout.logout(reply: reply, in: self)
        case .getSelectedProvider(let reply):
            metadata.getSelectedProvider(reply: reply, in: self)
        case .getMetadata(let keys, let reply):
            metadata.getMetadata(keys, reply: reply, in: self)
        case .providers(let reply):
            reply(
                requestor.phase == .configured
                    ? .success(currentMVPDs())
                    : .failure(AccessEnablerError(code: .notConfigured, message: "setRequestor has not succeeded.")))
        }
    }

    /// Stops background work (the enabler is going away): no job starts after this.
    func shutdown() {
        _ = secondScreen.stop()
        platformSSO.stop()
        jobs.finish()
    }

    /// Starts `job` as a child task of the enabler's task group (ended with it), stoppable by `cancellation` when
    /// given. Its answer arrives inside it, by `await`; nothing re-enters the engine from outside.
    func spawn(cancellation: JobCancellation? = nil, _ job: @escaping Job) {
        guard let cancellation else {
            jobs.yield(job)
            return
        }
        jobs.yield { engine in
            await cancellation.run { await job(engine) }
        }
    }

    // MARK: shared helpers

    func emit(_ events: [AccessEnablerEvent]) { hub.emit(events) }

    func now() -> Date { clock.now() }

    var nowMilliseconds: Int64 { Int64(clock.now().timeIntervalSince1970 * 1000) }

    /// The headers of every REST call: `X-Device-Info`, `AP-Device-Identifier`, visitor id, application profile.
    func commonHeaders() -> [String: String] {
        var headers = ["User-Agent": settings.userAgent]
        headers["X-Device-Info"] = options.deviceInfoOverride ?? settings.deviceInfo.headerValue()
        if let identifier = DeviceIdentifier(rawValue: deviceID) { headers["AP-Device-Identifier"] = identifier.headerValue }
        if let visitor = options.visitorID { headers["AP-Visitor-Identifier"] = visitor }
        if let profile = options.applicationProfile { headers["AP-Application-Profile"] = profile }
        return headers
    }

    /// The API client of `provider` (one credential manager per service).
    func client(for provider: URL) -> APIClient {
        let manager: CredentialManager
        if let existing = credentialManagers[provider] {
            manager = existing
        } else {
            manager = CredentialManager(
                baseURL: provider, softwareStatement: settings.softwareStatement,
                redirectURI: nil, transport: transport, clock: clock, storage: storage)
            credentialManagers[provider] = manager
        }
        return APIClient(baseURL: provider, credentials: manager, transport: transport)
    }

    /// The provider serving `mvpd` (its configuration route), else the first configured provider.
    func provider(for mvpd: String?) -> URL {
        if let mvpd, let route = requestor.route(for: mvpd) { return route.provider }
        if let mvpd, let entry = local.profiles[mvpd], let url = URL(string: entry.provider) { return url }
        return requestor.configurations.first?.provider ?? settings.defaultProvider
    }

    var requestorID: String { requestor.requestorID ?? "" }

    /// `url` made absolute against `provider` when it is a path.
    func absolute(_ url: String, provider: URL) -> String {
        if let parsed = URL(string: url), parsed.scheme != nil { return url }
        var base = provider.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base + (url.hasPrefix("/") ? url : "/" + url)
    }

    func currentMVPDs() -> [MVPD] { requestor.routes.map { MVPD(configuration: $0.mvpd) } }

    func mvpdModel(_ id: String) -> MVPD? {
        requestor.route(for: id).map { MVPD(configuration: $0.mvpd) }
    }

    // MARK: start-up and persistence

    private func prepareIfNeeded() async {
        guard !prepared else { return }
        prepared = true
        await storage.prepare()
        if let configured = settings.deviceID, !configured.isEmpty {
            deviceID = configured
        } else if let stored = await storage.read(String.self, "device.id") {
            deviceID = stored
        } else {
            deviceID = SecureStorage.digest(Data(UUID().uuidString.utf8))
            try? await storage.write(deviceID, "device.id")
        }
    }

    // MARK: the local state: one way to change it, and it is persisted

    /// Changes the local state: the one way to do it. When `change` left it different, a write is scheduled (a job,
    /// so it runs after the calling flow's synchronous step); writes never overlap and store the latest state, so
    /// every change is persisted, in order, and a burst of changes costs one or two writes.
    @discardableResult
    func update<Result>(_ change: (inout LocalState) -> Result) -> Result {
        let before = local
        let result = change(&local)
        if local != before { schedulePersist() }
        return result
    }

    /// Replaces the local state with the one stored for `requestor` (`setRequestor` of another requestor): it is what
    /// storage holds, so there is nothing to write.
    func loadLocalState(requestor: String) async {
        local = await storage.read(LocalState.self, LocalState.storageKey(requestor: requestor)) ?? LocalState()
    }

    /// Marks the local state as due for a write and starts the writer job unless it is already scheduled or running.
    private func schedulePersist() {
        persistPending = true
        guard !persisting else { return }
        persisting = true
        spawn { await $0.persist() }
    }

    /// The writer job: writes the local state until no change is due; the last state always wins.
    private func persist() async {
        while persistPending {
            persistPending = false
            guard let id = requestor.requestorID else { break }
            let snapshot = local
            try? await storage.write(snapshot, LocalState.storageKey(requestor: id))
        }
        persisting = false
    }
}
