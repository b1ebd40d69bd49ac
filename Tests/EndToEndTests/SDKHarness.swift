import AccessEnabler
import EntitleClients
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import Synchronization
import Testing

/// An app around the SDK for end-to-end tests: it records every callback, and plays the web view — when the SDK asks
/// to navigate, a real browser client signs the user in at the DemoMVPD and the final custom-scheme URL is handed to
/// `handleExternalURL`, as an app's web view delegate would.
final class TestApp: EntitlementDelegate, EntitlementStatus, Sendable {
    let enabler: AccessEnabler
    let service: LocalService
    let events = Mutex<[String]>([])
    let statuses = Mutex<[[String: String]]>([])
    let credentials = Mutex<(user: String, password: String)>(("alice", "alice-pass"))
    let tokens = Mutex<[String: String]>([:])
    /// The platform pickers handed to `presentTvProviderDialog`.
    let dialogs = Mutex<[PortableTVProviderDialog]>([])

    init(service: LocalService, secondScreen: Bool = false, platformSSO: (any PlatformSingleSignOn)? = nil) {
        self.service = service
        let configuration = AccessEnabler.Configuration(
            transport: URLSessionTransport(timeout: AnswerPatience.seconds), tokenStore: InMemoryTokenStore(),
            callbackExecutor: DispatchQueueExecutor(queue: DispatchQueue(label: "test-app")),
            secondScreen: secondScreen, redirectURL: "adobepass://ios.app", pollInterval: 0.2,
            deviceID: "e2e-" + UUID().uuidString, platformSSO: platformSSO)
        enabler = AccessEnabler(
            softwareStatement: service.softwareStatement, serviceBaseURL: URL(string: service.baseURL)!,
            configuration: configuration)
        enabler.delegate = self
        enabler.statusDelegate = self
    }

    func record(_ line: String) { events.withLock { $0.append(line) } }
    var log: [String] { events.withLock { $0 } }

    /// Waits until `count` recorded callbacks start with `prefix`; returns the last of them.
    @discardableResult
    func waitFor(_ prefix: String, count: Int = 1, timeout: Double = AnswerPatience.seconds) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let lines = log.filter { $0.hasPrefix(prefix) }
            if lines.count >= count, let line = lines.last { return line }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw BrowserError("timed out waiting for \(count)× \(prefix); got \(log)")
    }

    func setRequestorComplete(_ status: Int32) { record("setRequestorComplete(\(status))") }
    func setAuthenticationStatus(_ status: Int32, errorCode code: String!) { record("setAuthenticationStatus(\(status),\(code ?? ""))") }
    func displayProviderDialog(_ mvpds: [Any]!) {
        record("displayProviderDialog(\((mvpds as? [MVPD] ?? []).map(\.ID).joined(separator: ",")))")
    }
    func navigate(toUrl url: String!) {
        guard let url else { return }
        record("navigate")
        let (user, password) = credentials.withLock { $0 }
        Task {
            let outcome = try await DemoSignIn.signIn(browser: service.browser(), authenticationURL: url, username: user, password: password)
            if case .external(let redirect) = outcome { self.enabler.handleExternalURL(redirect) }
        }
    }
    func setToken(_ token: String!, forResource resource: String!) {
        tokens.withLock { $0[resource] = token }
        record("setToken(\(resource ?? ""))")
    }
    func tokenRequestFailed(_ resource: String!, errorCode code: String!, errorDescription description: String!) {
        record("tokenRequestFailed(\(resource ?? ""),\(code ?? ""),\(description ?? ""))")
    }
    func preauthorizedResources(_ resources: [Any]!) {
        record("preauthorizedResources(\((resources as? [String] ?? []).joined(separator: ",")))")
    }
    func selectedProvider(_ mvpd: MVPD!) { record("selectedProvider(\(mvpd?.ID ?? "nil"))") }
    func setMetadataStatus(_ metadata: Any!, encrypted: Bool, forKey key: Int32, andArguments arguments: [AnyHashable: Any]!) {
        record("setMetadataStatus(\(key),\(encrypted),\(metadata.map { "\($0)" } ?? "nil"))")
    }
    func sendTrackingData(_ data: [Any]!, forEventType event: Int32) { record("sendTrackingData(\(event))") }
    func presentTvProviderDialog(_ viewController: TVProviderDialog!) {
        dialogs.withLock { $0.append(viewController) }
        record("presentTvProviderDialog")
    }
    func dismissTvProviderDialog(_ viewController: TVProviderDialog!) { record("dismissTvProviderDialog") }

    /// The last platform picker shown.
    func waitForDialog() async throws -> PortableTVProviderDialog {
        _ = try await waitFor("presentTvProviderDialog")
        return try #require(dialogs.withLock { $0.last })
    }

    /// The recorded callbacks after configuration, without tracking and selected-provider noise.
    var flow: [String] {
        log.filter { !$0.hasPrefix("sendTracking") && !$0.hasPrefix("selectedProvider") && !$0.hasPrefix("setRequestorComplete") }
    }
    func status(_ statusDictionary: [AnyHashable: Any]!) {
        let dictionary = statusStrings(statusDictionary)
        statuses.withLock { $0.append(dictionary) }
        record("status(\(dictionary["errorId"] ?? "?"))")
    }
}

/// A status dictionary as the strings it carries.
func statusStrings(_ dictionary: [AnyHashable: Any]?) -> [String: String] {
    var result: [String: String] = [:]
    for (key, value) in dictionary ?? [:] { result["\(key.base)"] = value as? String ?? "\(value)" }
    return result
}
