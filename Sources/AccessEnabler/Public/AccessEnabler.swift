import EntitleCore
import Foundation

/// The AccessEnabler: the client API of TV Everywhere authentication (`AccessEnabler.h`), against the Entitle service
/// (Adobe Pass REST API v2 with Dynamic Client Registration).
///
/// Create one per app, set ``delegate`` (and optionally ``statusDelegate``), call `setRequestor`, then the
/// authentication and authorization methods; results arrive as ``EntitlementDelegate`` callbacks, on
/// ``events``, on closure observers (``observe(_:)``) — or as return values of the async API
/// (`try await enabler.authorize("news")`). Every method may be called from any thread or task; calls are taken in
/// the order they are made, and calls made before `setRequestorComplete` wait for it.
public final class AccessEnabler: Sendable {
    let hub: EventHub
    let engine: EntitlementEngine
    private let commands: AsyncStream<EngineCommand>.Continuation
    private let worker: Task<Void, Never>

    /// Creates the enabler for the app identified by `softwareStatement`, talking to `serviceBaseURL` (by default the
    /// app's `EntitleServiceURL` Info.plist value) unless `setRequestor(_:serviceProviders:)` names other services.
    /// With no service at all, `setRequestor(_:)` reports `CFG100`. Registration (DCR) happens lazily, on the first
    /// call that needs the network.
    public init(
        softwareStatement: String, serviceBaseURL: URL? = AccessEnabler.defaultServiceBaseURL,
        configuration: Configuration = Configuration()
    ) {
        let hub = EventHub(executor: configuration.callbackExecutor)
        let provider = serviceBaseURL.map { Self.normalizedServiceURL($0.absoluteString) ?? $0 } ?? EngineSettings.unconfiguredProvider
        var settings = EngineSettings(
            softwareStatement: softwareStatement, defaultProvider: provider,
            deviceMode: configuration.secondScreen, redirectURL: configuration.redirectURL,
            pollInterval: configuration.pollInterval, activationURL: configuration.activationURL,
            deviceInfo: configuration.deviceInfo, deviceID: configuration.deviceID,
            userAgent: configuration.userAgent, platformSSO: configuration.platformSSO,
            platformChannelIdentifier: configuration.platformChannelIdentifier,
            safariPresenter: configuration.safariPresenter)
        settings.deviceIDMetadata = configuration.deviceIDMetadata
        settings.configurationTimeout = configuration.configurationTimeout
        let (jobStream, jobs) = AsyncStream<EntitlementEngine.Job>.makeStream(bufferingPolicy: .unbounded)
        let engine = EntitlementEngine(
            settings: settings, transport: configuration.transport, clock: configuration.clock,
            storage: SecureStorage(store: configuration.tokenStore, check: configuration.storageCheck),
            hub: hub, jobs: jobs)
        let (stream, continuation) = AsyncStream<EngineCommand>.makeStream(bufferingPolicy: .unbounded)
        self.hub = hub
        self.engine = engine
        self.commands = continuation
        // The enabler's one unstructured task: the Objective-C-shaped methods are fire-and-forget by contract and
        // answer through the delegate. Inside it everything is structured: commands are taken one at a time, in call
        // order, and the flows' jobs run as children of one task group, ended with the enabler.
        self.worker = Task {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    await withDiscardingTaskGroup { flows in
                        for await job in jobStream { flows.addTask { await job(engine) } }
                    }
                }
                for await command in stream { await engine.accept(command) }
                await engine.shutdown()
                group.cancelAll()
            }
        }
    }

    /// `init:softwareStatement` — `AccessEnabler(softwareStatement)`.
    public convenience init(_ softwareStatement: String) {
        self.init(softwareStatement: softwareStatement)
    }

    /// `initWithStorageCheck:softwareStatement:` (3.8.3+): chooses what happens to stored data at start-up.
    public convenience init(storageCheck: IntegrityCheckType, softwareStatement: String) {
        self.init(softwareStatement: softwareStatement, configuration: Configuration(storageCheck: storageCheck))
    }

    deinit {
        commands.finish()
        hub.finish()
    }

    /// The callback receiver (held weakly).
    public var delegate: (any EntitlementDelegate)? {
        get { hub.delegate }
        set { hub.delegate = newValue }
    }

    /// The receiver of advanced status reports (held weakly).
    public var statusDelegate: (any EntitlementStatus)? {
        get { hub.statusDelegate }
        set { hub.statusDelegate = newValue }
    }

    /// A new stream of every event from now on (ends when the enabler is released).
    public var events: AsyncStream<AccessEnablerEvent> { hub.stream() }

    /// Calls `handler` (on the callback executor) for every event until the token is cancelled.
    public func observe(_ handler: @escaping @Sendable (AccessEnablerEvent) -> Void) -> ObservationToken {
        hub.observe(handler)
    }

    func send(_ command: EngineCommand) { commands.yield(command) }

    /// A service-provider string (`sp.example.com/adobe-services`, `http://127.0.0.1:8080/`) as a base URL.
    static func normalizedServiceURL(_ text: String) -> URL? {
        var value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !value.contains("://") { value = "https://" + value }
        guard var components = URLComponents(string: value), let host = components.host, !host.isEmpty else { return nil }
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        if path.hasSuffix("/adobe-services") { path.removeLast("/adobe-services".count) }
        components.path = path
        components.query = nil
        components.fragment = nil
        return components.url
    }
}
