import EntitleCore
import Foundation
import Testing
@testable import AccessEnabler

/// Records callbacks as short strings, in delivery order, through the delegate and the status delegate.
final class Recorder: EntitlementDelegate, EntitlementStatus {
    let log = Locked<[String]>([])
    let events = Locked<[AccessEnablerEvent]>([])

    private func add(_ entry: String) { log.withLock { $0.append(entry) } }
    var entries: [String] { log.value }

    func setRequestorComplete(_ status: Int32) { add("setRequestorComplete(\(status))") }
    func setAuthenticationStatus(_ status: Int32, errorCode code: String!) { add("setAuthenticationStatus(\(status),\(code ?? ""))") }
    func displayProviderDialog(_ mvpds: [Any]!) {
        add("displayProviderDialog(\((mvpds as? [MVPD] ?? []).map(\.ID).joined(separator: ",")))")
    }
    func navigate(toUrl url: String!) { add("navigate(\(url ?? ""))") }
    func navigate(toUrl url: String!, useSVC: Bool) { add("navigateSVC(\(url ?? ""),\(useSVC))") }
    func setToken(_ token: String!, forResource resource: String!) { add("setToken(\(resource ?? ""))") }
    func tokenRequestFailed(_ resource: String!, errorCode code: String!, errorDescription description: String!) {
        add("tokenRequestFailed(\(resource ?? ""),\(code ?? ""),\(description ?? ""))")
    }
    func preauthorizedResources(_ resources: [Any]!) {
        add("preauthorizedResources(\((resources as? [String] ?? []).joined(separator: ",")))")
    }
    func selectedProvider(_ mvpd: MVPD!) { add("selectedProvider(\(mvpd?.ID ?? "nil"))") }
    func setMetadataStatus(_ metadata: Any!, encrypted: Bool, forKey key: Int32, andArguments arguments: [AnyHashable: Any]!) {
        let value: String =
            switch metadata {
            case let text as String: text
            case let values as [Any]: values.compactMap { $0 as? String }.joined(separator: "|")
            case nil: "nil"
            default: "other"
            }
        add("setMetadataStatus(\(value),\(encrypted),\(key))")
    }
    func sendTrackingData(_ data: [Any]!, forEventType event: Int32) { add("sendTrackingData(\(event),\(data?.count ?? 0))") }
    func status(_ statusDictionary: [AnyHashable: Any]!) { add("status(\(statusDictionary?["errorId"] as? String ?? "?"))") }

    /// Waits (up to 5 s of real time) until `condition` holds for the log.
    func waitFor(
        _ description: String = "", _ condition: @escaping @Sendable ([String]) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        for _ in 0..<1000 {
            if condition(entries) { return }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        Issue.record("timed out waiting for \(description); log: \(entries)", sourceLocation: sourceLocation)
    }

    func waitFor(_ entry: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        await waitFor(entry, { $0.contains(entry) }, sourceLocation: sourceLocation)
    }

    func clear() { log.withLock { $0 = [] } }
}

/// An enabler wired to a fake service, an in-memory store and a test clock.
struct Harness {
    let clock: TestClock
    let service: FakeService
    let store: InMemoryTokenStore
    let recorder = Recorder()
    let enabler: AccessEnabler

    init(
        secondScreen: Bool = false, store: InMemoryTokenStore = InMemoryTokenStore(), clock: TestClock = TestClock(),
        service: FakeService? = nil, transport: (any HTTPTransport)? = nil, platformSSO: (any PlatformSingleSignOn)? = nil
    ) {
        self.clock = clock
        self.store = store
        let service = service ?? FakeService(clock: clock)
        self.service = service
        let configuration = AccessEnabler.Configuration(
            transport: transport ?? service, tokenStore: store, clock: clock,
            secondScreen: secondScreen, redirectURL: "entitle-demo://callback",
            deviceID: "device-1", platformSSO: platformSSO)
        enabler = AccessEnabler(softwareStatement: "statement", serviceBaseURL: URL(string: "http://fake")!, configuration: configuration)
        enabler.delegate = recorder
        enabler.statusDelegate = recorder
    }

    /// `setRequestor("REF")` and wait for its completion.
    func configure() async {
        enabler.setRequestor("REF")
        await recorder.waitFor("setRequestorComplete(1)")
    }

    /// Authenticates with DemoCable through the web-view flow.
    func authenticate(_ mvpd: String = "DemoCable") async {
        enabler.setSelectedProvider(mvpd)
        await recorder.waitFor("navigate", { $0.contains { $0.hasPrefix("navigate") } })
        let sessionCode = service.state.withLock { $0.lastCode }!
        service.completeLogin(code: sessionCode)
        enabler.handleExternalURL(ADOBEPASS_REDIRECT_URL)
        await recorder.waitFor("setAuthenticationStatus(1,)")
    }
}
