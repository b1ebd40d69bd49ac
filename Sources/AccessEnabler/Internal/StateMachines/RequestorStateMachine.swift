import EntitleCore
import Foundation

/// An MVPD and the service provider that first answered with it.
struct MVPDRoute: Sendable, Equatable {
    var mvpd: MVPDConfiguration
    var provider: URL
}

/// The configuration phase (`setRequestor`): fetches every service provider's configuration at once, merges the
/// MVPD lists with the fastest responder winning per MVPD, and holds calls made before it completes.
///
/// A value type: the engine feeds it events and performs the actions it returns.
struct RequestorStateMachine<Call: Sendable>: Sendable {
    enum Phase: Equatable, Sendable {
        /// `setRequestor` was never called.
        case unset
        /// Configurations are being fetched.
        case configuring
        /// At least one service provider answered.
        case configured
        /// Every service provider failed.
        case failed
    }

    enum Action: Sendable {
        /// Fetch the configuration from every provider (concurrently), tagging answers with `generation`.
        case fetch(generation: Int, providers: [URL])
        /// Nothing to do.
        case none
        /// The phase is over: report it, then run the held calls in order.
        case complete(success: Bool, error: AccessEnablerError?, run: [Call])
        /// Run the call now.
        case run(Call)
    }

    private(set) var phase: Phase = .unset
    private(set) var requestorID: String?
    private(set) var generation = 0
    /// The merged MVPD list, in the order the MVPDs were first seen (fastest provider first).
    private(set) var routes: [MVPDRoute] = []
    /// Every provider's configuration, in answer order.
    private(set) var configurations: [(provider: URL, configuration: ConfigurationResponse)] = []
    private var outstanding: Set<URL> = []
    private var pendingRoutes: [MVPDRoute] = []
    private var pendingConfigurations: [(provider: URL, configuration: ConfigurationResponse)] = []
    private var errors: [AccessEnablerError] = []
    private var held: [Call] = []

    /// `setRequestor(id, serviceProviders:)`: starts a new configuration phase (an older one still running is
    /// superseded; its answers are ignored).
    mutating func setRequestor(_ id: String, providers: [URL]) -> Action {
        generation += 1
        requestorID = id
        var unique: [URL] = []
        for provider in providers where !unique.contains(provider) { unique.append(provider) }
        outstanding = Set(unique)
        pendingRoutes = []
        pendingConfigurations = []
        errors = []
        phase = .configuring
        return .fetch(generation: generation, providers: unique)
    }

    /// One provider answered (or failed).
    mutating func received(generation: Int, provider: URL, result: Result<ConfigurationResponse, AccessEnablerError>) -> Action {
        guard generation == self.generation, phase == .configuring, outstanding.remove(provider) != nil else { return .none }
        switch result {
        case .success(let configuration):
            pendingConfigurations.append((provider, configuration))
            for mvpd in configuration.requestor.mvpds where !pendingRoutes.contains(where: { $0.mvpd.id == mvpd.id }) {
                pendingRoutes.append(MVPDRoute(mvpd: mvpd, provider: provider))
            }
        case .failure(let error):
            errors.append(error)
        }
        guard outstanding.isEmpty else { return .none }
        let success = !pendingConfigurations.isEmpty
        if success {
            routes = pendingRoutes
            configurations = pendingConfigurations
            phase = .configured
        } else {
            phase = .failed
        }
        let run = held
        held = []
        return .complete(success: success, error: success ? nil : errors.first, run: run)
    }

    /// The providers of `generation` that have not answered yet.
    func silentProviders(generation: Int) -> [URL] {
        guard generation == self.generation, phase == .configuring else { return [] }
        return outstanding.sorted { $0.absoluteString < $1.absoluteString }
    }

    /// A call that needs the configuration: held while it is being fetched (or before `setRequestor`), else run.
    mutating func submit(_ call: Call) -> Action {
        switch phase {
        case .unset, .configuring:
            held.append(call)
            return .none
        case .configured, .failed:
            return .run(call)
        }
    }

    /// The provider that serves `mvpd`, when it is configured.
    func route(for mvpd: String) -> MVPDRoute? { routes.first { $0.mvpd.id == mvpd } }

    /// Number of calls waiting for the configuration.
    var heldCount: Int { held.count }
}
