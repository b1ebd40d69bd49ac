import EntitleCore
import Foundation

/// Apple-style platform single sign-on: permission → platform picker → partner session → SAML relayed through
/// the platform account → `appleSSO` profile. Every way out that is not a success reports its documented status
/// (`N003`, `N004`, `N005`, `VSA404`, `VSA503`, `AAPL`) and continues with the regular picker, except a cancel; on a
/// second-screen device (tvOS cookbook) a provider choice the platform cannot complete goes on to the registration code.
///
/// One sign-on runs at a time, as one job of the engine that awaits the platform and the service in turn and hands its
/// outcome to the authentication flow; the authentication state machine stops it (`stopPlatformSSO`) through its
/// ``JobCancellation``.
final class PlatformSSOCoordinator {
    private var running: JobCancellation?

    /// Creates the flow with no sign-on under way.
    init() {}

    /// The requestor's MVPDs that take part in platform single sign-on.
    func mvpds(in engine: isolated EntitlementEngine) -> [MVPDConfiguration] {
        engine.requestor.routes.map(\.mvpd).filter(\.enablePlatformServices)
    }

    /// Whether `getAuthentication` starts with platform single sign-on.
    func isAvailable(in engine: isolated EntitlementEngine) -> Bool {
        engine.settings.platformSSO != nil && !mvpds(in: engine).isEmpty
    }

    /// Runs platform single sign-on for `attempt`; its end feeds the authentication flow.
    func start(attempt: Int, filter: [String: any Sendable]?, in engine: isolated EntitlementEngine) {
        guard let platform = engine.settings.platformSSO else {
            engine.authentication.platformSSOFinished(attempt: attempt, outcome: .fallBack, in: engine)
            return
        }
        let (supported, featured) = candidates(filter: filter, in: engine)
        guard !supported.isEmpty else {
            engine.authentication.platformSSOFinished(attempt: attempt, outcome: .fallBack, in: engine)
            return
        }
        stop()
        let cancellation = JobCancellation()
        running = cancellation
        engine.spawn(cancellation: cancellation) { engine in
            let outcome = await engine.platformSSO.signOn(platform, supported: supported, featured: featured, in: engine)
            guard !Task.isCancelled else { return }
            engine.authentication.platformSSOFinished(attempt: attempt, outcome: outcome, in: engine)
        }
    }

    /// Stops the sign-on under way.
    func stop() {
        running?.cancel()
        running = nil
    }

    /// The MVPDs the platform picker may offer and the ones to feature, narrowed and ordered by `filter`
    /// (`TV_PROVIDERS`, `FEATURED_TV_PROVIDERS`; ids of non-SSO MVPDs are ignored).
    func candidates(
        filter: [String: any Sendable]?, in engine: isolated EntitlementEngine
    ) -> (supported: [MVPDConfiguration], featured: [MVPDConfiguration]) {
        let all = mvpds(in: engine)
        func pick(_ ids: [String]) -> [MVPDConfiguration] {
            var seen = Set<String>()
            return ids.compactMap { id in all.first { $0.id == id } }.filter { seen.insert($0.id).inserted }
        }
        let listed = Self.identifiers(filter?[TV_PROVIDERS])
        let supported = listed.map(pick) ?? all
        let featured = pick(Self.identifiers(filter?[FEATURED_TV_PROVIDERS]) ?? []).filter { mvpd in supported.contains { $0.id == mvpd.id } }
        return (supported, featured)
    }

    /// An MVPD's id on the platform.
    static func platformID(_ mvpd: MVPDConfiguration) -> String { mvpd.platformMappingId ?? mvpd.id }

    /// A filter value: an array of ids, or one comma-separated string.
    static func identifiers(_ value: (any Sendable)?) -> [String]? {
        if let list = value as? [String] { return list }
        if let list = value as? [any Sendable] { return list.compactMap { $0 as? String } }
        if let text = value as? String { return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        return nil
    }

    /// The service's SAML entity id, the platform's channel identifier.
    func channelIdentifier(in engine: isolated EntitlementEngine) -> String {
        if let configured = engine.settings.platformChannelIdentifier { return configured }
        var base = (engine.requestor.configurations.first?.provider ?? engine.settings.defaultProvider).absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/sp/saml/metadata"
    }

    /// Permission, then the platform's picker, then the exchange with the service.
    private func signOn(
        _ platform: any PlatformSingleSignOn, supported: [MVPDConfiguration], featured: [MVPDConfiguration],
        in engine: isolated EntitlementEngine
    ) async -> AuthenticationStateMachine.PlatformOutcome {
        guard await platform.accessStatus(prompt: true) == .granted else {
            return failure(PlatformSSOError(.accessDenied, details: "Access to the TV provider account was not granted."), in: engine)
        }
        let channel = channelIdentifier(in: engine)
        let request = PlatformProviderRequest(
            channelIdentifier: channel, supportedProviderIDs: supported.map(Self.platformID),
            featuredProviderIDs: featured.map(Self.platformID))
        let hub = engine.hub
        let presenter = TVProviderDialogPresenter(
            present: { hub.emit(.presentTvProviderDialog($0)) },
            dismiss: { hub.emit(.dismissTvProviderDialog($0)) })
        let info: PlatformProviderInfo
        do throws(PlatformSSOError) {
            info = try await platform.selectProvider(request, presenter: presenter)
        } catch {
            return Task.isCancelled ? .cancelled : failure(error, in: engine)
        }
        guard !Task.isCancelled else { return .cancelled }
        guard let mvpd = supported.first(where: { Self.platformID($0) == info.providerID }) else {
            return failure(PlatformSSOError(.unsupportedProvider, details: "\(info.providerID) is not offered by this requestor."), in: engine)
        }
        // boardingStatus PICKER: the MVPD appears in the platform's picker, but the login is the service's own (a web
        // page, or a registration code on a second-screen device); SUPPORTED: the platform's SSO token is used.
        if mvpd.boardingStatus == BoardingStatus.picker.rawValue { return .regularFlow(mvpd: mvpd.id) }
        return await exchange(platform, mvpd: mvpd, info: info, channel: channel, in: engine)
    }
}
