import AccessEnabler
import EntitleClients
import EntitleHost
import EntitleTesting
import Foundation

/// An app written for Adobe's AccessEnabler, unchanged: the delegate class and its callbacks have the Swift
/// signatures Swift gives Adobe's Objective-C headers (`String!`, `[Any]!`, `[AnyHashable: Any]!`, `MVPD!`), and it
/// talks to the enabler with Adobe-era call sites. Only what a UIKit app does on screen is played here: the web view
/// of `navigate(toUrl:)` is a real HTTP browser that signs the user in at the DemoMVPD and hands the final
/// custom-scheme URL to `handleExternalURL`, as a WKWebView's navigation delegate would.
///
/// Like a UIKit app it keeps plain mutable state; the SDK calls it on one serial queue, and the test reads the state
/// under the same lock.
final class AdobeStyleApp: NSObject, EntitlementDelegate, EntitlementStatus {
    var accessEnabler: AccessEnabler!
    var mvpdList: [MVPD] = []
    var currentMvpd: MVPD?
    var mediaToken: String?
    var userMetadata: Any?
    var authorizedResources: [String] = []
    var lastStatus: [AnyHashable: Any] = [:]
    var username = "alice"
    private let browser: BrowserClient
    private let lock = NSLock()
    private var callbacks: [String] = []

    init(browser: BrowserClient) {
        self.browser = browser
    }

    private func log(_ line: String) { lock.withLock { callbacks.append(line) } }

    /// The callbacks so far, one line each.
    var log: [String] { lock.withLock { callbacks } }

    /// Reads the app's state under the lock the callbacks write it under.
    func read<T>(_ body: (AdobeStyleApp) -> T) -> T { lock.withLock { body(self) } }

    // MARK: EntitlementDelegate — as in an app written for Adobe's SDK

    func setRequestorComplete(_ status: Int32) {
        log("setRequestorComplete(\(status))")
    }

    func setAuthenticationStatus(_ status: Int32, errorCode code: String!) {
        log("setAuthenticationStatus(\(status),\(code ?? ""))")
    }

    func displayProviderDialog(_ mvpds: [Any]!) {
        let list = mvpds as! [MVPD]
        lock.withLock { mvpdList = list }
        log("displayProviderDialog(\(list.map { $0.id }.joined(separator: ",")))")
    }

    func navigate(toUrl url: String!) {
        log("navigate(toUrl:)")
        // The app's WKWebView loads `url`; its navigation delegate sees the ADOBEPASS_REDIRECT_URL and calls
        // handleExternalURL.
        let (browser, enabler, user) = lock.withLock { (self.browser, accessEnabler!, username) }
        Task {
            let outcome: BrowserClient.Outcome
            if url.contains("/logout") {
                outcome = try await browser.get(url)
            } else {
                outcome = try await DemoSignIn.signIn(browser: browser, authenticationURL: url, username: user, password: user + "-pass")
            }
            if case .external(let redirect) = outcome, redirect.hasPrefix(ADOBEPASS_REDIRECT_URL) {
                enabler.handleExternalURL(redirect)
            }
        }
    }

    func setToken(_ token: String!, forResource resource: String!) {
        lock.withLock { mediaToken = token }
        log("setToken(\(resource!))")
    }

    func tokenRequestFailed(_ resource: String!, errorCode code: String!, errorDescription description: String!) {
        log("tokenRequestFailed(\(resource!),\(code!))")
    }

    func preauthorizedResources(_ resources: [Any]!) {
        let list = resources as! [String]
        lock.withLock { authorizedResources = list }
        log("preauthorizedResources(\(list.joined(separator: ",")))")
    }

    func selectedProvider(_ mvpd: MVPD!) {
        lock.withLock { currentMvpd = mvpd }
        log("selectedProvider(\(mvpd?.displayName ?? "none"))")
    }

    func setMetadataStatus(_ metadata: Any!, encrypted: Bool, forKey key: Int32, andArguments arguments: [AnyHashable: Any]!) {
        lock.withLock { userMetadata = metadata }
        let name = arguments?[METADATA_USER_META_KEY] as? String ?? ""
        log("setMetadataStatus(\(key),\(name),\(encrypted))")
    }

    func sendTrackingData(_ data: [Any]!, forEventType event: Int32) {
        log("sendTrackingData(\(event),\(data.count))")
    }

    // MARK: EntitlementStatus

    func status(_ statusDictionary: [AnyHashable: Any]!) {
        lock.withLock { lastStatus = statusDictionary }
        log("status(\(statusDictionary["errorId"] as? String ?? "?"))")
    }

    // MARK: waiting (test only)

    /// Waits until `count` callbacks start with `prefix`; returns the last of them.
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
}
