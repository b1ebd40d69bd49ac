import AccessEnabler
import EntitleClients
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import Synchronization

/// The SDK's real ``URLSessionTransport`` with a copy of every exchange kept, so tests can assert what travelled on
/// the wire (headers, bodies, the service's answers). It forwards every request unchanged; it is not a mock.
final class WireRecorder: HTTPTransport {
    /// One request and the answer (nil when the transport failed: no connection, timeout).
    struct Exchange: Sendable {
        let request: HTTPRequest
        let response: HTTPResponse?

        var path: String { request.url.path }
        var port: Int? { request.url.port }
    }

    private let inner = URLSessionTransport(timeout: AnswerPatience.seconds)
    private let exchanges = Mutex<[Exchange]>([])
    /// Path fragments whose requests fail as a lost connection would (the service is not reached).
    let unreachable = Mutex<[String]>([])

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if unreachable.withLock({ $0 }).contains(where: { request.url.path.contains($0) }) {
            exchanges.withLock { $0.append(Exchange(request: request, response: nil)) }
            throw URLError(.networkConnectionLost)
        }
        do {
            let response = try await inner.send(request)
            exchanges.withLock { $0.append(Exchange(request: request, response: response)) }
            return response
        } catch {
            exchanges.withLock { $0.append(Exchange(request: request, response: nil)) }
            throw error
        }
    }

    /// Every exchange so far, in completion order.
    var all: [Exchange] { exchanges.withLock { $0 } }

    /// The exchanges whose URL path contains `fragment`.
    func exchanges(_ fragment: String, method: String? = nil) -> [Exchange] {
        all.filter { $0.path.contains(fragment) && (method == nil || $0.request.method == method) }
    }

    /// Decodes the JSON body of the last answer to a path containing `fragment`.
    func lastBody<T: Decodable>(_ fragment: String, as type: T.Type) throws -> T {
        guard let body = exchanges(fragment).last(where: { $0.response?.status == 200 })?.response?.body else {
            throw BrowserError("no successful answer on the wire for \(fragment)")
        }
        return try JSONDecoder().decode(T.self, from: body)
    }
}

/// An app around the SDK for the method-by-method end-to-end tests: every delegate callback is kept with all its
/// arguments, the SDK talks to the real in-process service through a ``WireRecorder``, and — unless the test plays
/// the web view itself (`play = .manual`) — `navigate` is answered like an app's web view would: one browser that
/// keeps its cookies signs the user in at the DemoMVPD (or follows a logout page) and hands the final
/// custom-scheme URL to `handleExternalURL`.
final class SDKProbe: EntitlementDelegate, EntitlementStatus, Sendable {
    enum Play: Sendable {
        case signIn(user: String, password: String)
        case manual
    }

    struct MetadataCallback: Sendable {
        let value: JSONValue?
        let encrypted: Bool
        let key: Int32
        let arguments: [String: any Sendable]
    }

    let enabler: AccessEnabler
    let service: LocalService
    let wire = WireRecorder()
    let browser: BrowserClient
    let deviceID: String
    let play = Mutex<Play>(.signIn(user: "alice", password: "alice-pass"))

    private let entries = Mutex<[String]>([])
    let tracking = Mutex<[(event: Int32, data: [String])]>([])
    let metadata = Mutex<[MetadataCallback]>([])
    let navigations = Mutex<[(url: String, useSVC: Bool)]>([])
    let providerLists = Mutex<[[MVPD]]>([])
    let selections = Mutex<[MVPD?]>([])
    let statuses = Mutex<[[String: String]]>([])
    let tokens = Mutex<[String: String]>([:])
    /// The custom-scheme URLs the browser ended on (and that were handed to `handleExternalURL`).
    let browserEndings = Mutex<[String]>([])

    init(
        service: LocalService, redirectURL: String? = "adobepass://ios.app", serviceBaseURL: String? = nil,
        deviceInfo: DeviceInfo = DeviceEnvironment.current(applicationID: "tv.reference.app"),
        softwareStatement: String? = nil, deviceIDMetadata: Bool = false
    ) {
        self.service = service
        self.browser = service.browser()
        self.deviceID = "e2e-" + UUID().uuidString
        let configuration = AccessEnabler.Configuration(
            transport: wire, tokenStore: InMemoryTokenStore(),
            callbackExecutor: DispatchQueueExecutor(queue: DispatchQueue(label: "sdk-probe")),
            secondScreen: false, redirectURL: redirectURL, deviceInfo: deviceInfo, deviceID: deviceID)
        var configured = configuration
        configured.deviceIDMetadata = deviceIDMetadata
        enabler = AccessEnabler(
            softwareStatement: softwareStatement ?? service.softwareStatement,
            serviceBaseURL: URL(string: serviceBaseURL ?? service.baseURL)!, configuration: configured)
        enabler.delegate = self
        enabler.statusDelegate = self
    }

    // MARK: waiting

    func record(_ line: String) { entries.withLock { $0.append(line) } }

    /// Every callback so far, as one line each (`setAuthenticationStatus(1,)`, `navigate(<url>)`, …).
    var log: [String] { entries.withLock { $0 } }

    /// The callbacks whose line starts with `prefix`.
    func lines(_ prefix: String) -> [String] { log.filter { $0.hasPrefix(prefix) } }

    /// Waits until `count` callbacks start with `prefix` and returns the `count`-th.
    @discardableResult
    func waitFor(_ prefix: String, count: Int = 1, timeout: Double = AnswerPatience.seconds) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let matching = lines(prefix)
            if matching.count >= count { return matching[count - 1] }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw BrowserError("timed out waiting for \(count)× \(prefix); got \(log)")
    }

    /// Lets callbacks that are not expected have a chance to arrive before asserting their absence.
    func settle(_ milliseconds: Int = 400) async throws { try await Task.sleep(for: .milliseconds(milliseconds)) }

    /// Configures the enabler with `REF` and waits for `setRequestorComplete(1)`.
    func configure() async throws {
        enabler.setRequestor("REF")
        let line = try await waitFor("setRequestorComplete")
        guard line == "setRequestorComplete(1)" else {
            let failures = wire.all.filter { ($0.response?.status ?? 0) >= 300 || $0.response == nil }.map { exchange in
                "\(exchange.request.method) \(exchange.path) → \(exchange.response.map { "\($0.status) " + String(decoding: $0.body, as: UTF8.self) } ?? "no answer")"
            }
            throw BrowserError("configuration failed: \(log) \(statuses.withLock { $0 }) \(failures)")
        }
    }

    /// Signs `user` in at `mvpd` through the delegate API (picker skipped) and waits for `setAuthenticationStatus(1,)`.
    func signIn(mvpd: String = "DemoCable", user: String = "alice") async throws {
        play.withLock { $0 = .signIn(user: user, password: user + "-pass") }
        let before = lines("setAuthenticationStatus").count
        enabler.setSelectedProvider(mvpd)
        let line = try await waitFor("setAuthenticationStatus", count: before + 1)
        guard line == "setAuthenticationStatus(1,)" else { throw BrowserError("login failed: \(log)") }
    }

    /// Plays a login page in the browser and returns the custom-scheme URL it ended on (without handing it to the SDK).
    /// Plays the web view by hand: configures, selects `mvpd`, waits for its login page and returns that page's URL.
    func openLoginPageByHand(_ mvpd: String = "DemoCable") async throws -> String {
        play.withLock { $0 = .manual }
        try await configure()
        enabler.setSelectedProvider(mvpd)
        _ = try await waitFor("navigate")
        guard let url = navigations.withLock({ $0.first?.url }) else { throw BrowserError("no login page for \(mvpd)") }
        return url
    }

    func browseLogin(_ url: String, user: String = "alice") async throws -> String {
        let outcome = try await DemoSignIn.signIn(browser: browser, authenticationURL: url, username: user, password: user + "-pass")
        guard case .external(let redirect) = outcome else { throw BrowserError("the login did not end on a custom-scheme URL") }
        return redirect
    }

    /// Follows a logout page in the browser and returns the custom-scheme URL it ended on.
    func browseLogout(_ url: String) async throws -> String {
        guard case .external(let redirect) = try await browser.get(url) else { throw BrowserError("the logout did not end on a custom-scheme URL") }
        return redirect
    }

    /// The headers the SDK sent with its last call to the REST API (bearer token, device identifier, device info).
    func lastAPIHeaders() throws -> [String: String] {
        guard let exchange = wire.all.last(where: { $0.path.hasPrefix("/api/v2/") && $0.request.header("Authorization") != nil }) else {
            throw BrowserError("no REST call on the wire yet")
        }
        return exchange.request.headers
    }

    // MARK: EntitlementDelegate

    func setRequestorComplete(_ status: Int32) { record("setRequestorComplete(\(status))") }
    func setAuthenticationStatus(_ status: Int32, errorCode code: String!) { record("setAuthenticationStatus(\(status),\(code ?? ""))") }
    func displayProviderDialog(_ mvpds: [Any]!) {
        let mvpds = mvpds as? [MVPD] ?? []
        providerLists.withLock { $0.append(mvpds) }
        record("displayProviderDialog(\(mvpds.map(\.ID).joined(separator: ",")))")
    }
    func navigate(toUrl url: String!) { navigated(url ?? "", useSVC: false) }
    func navigate(toUrl url: String!, useSVC: Bool) { navigated(url ?? "", useSVC: useSVC) }

    private func navigated(_ url: String, useSVC: Bool) {
        navigations.withLock { $0.append((url, useSVC)) }
        record(useSVC ? "navigateSVC(\(url))" : "navigate(\(url))")
        guard case .signIn(let user, _) = play.withLock({ $0 }) else { return }
        Task {
            do {
                let ending = url.contains("/adobe-services/logout") ? try await self.browseLogout(url) : try await self.browseLogin(url, user: user)
                self.browserEndings.withLock { $0.append(ending) }
                self.enabler.handleExternalURL(ending)
            } catch {
                // In the log a waiting test prints when it times out: why the web view never came back.
                self.record("browserFailed(\(error))")
            }
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
    func selectedProvider(_ mvpd: MVPD!) {
        selections.withLock { $0.append(mvpd) }
        record("selectedProvider(\(mvpd?.ID ?? "nil"))")
    }
    func setMetadataStatus(_ metadata: Any!, encrypted: Bool, forKey key: Int32, andArguments arguments: [AnyHashable: Any]!) {
        let callback = MetadataCallback(
            value: metadata.flatMap(Self.json), encrypted: encrypted, key: key,
            arguments: Self.sendable(arguments ?? [:]))
        self.metadata.withLock { $0.append(callback) }
        record("setMetadataStatus(\(key),\(encrypted))")
    }
    func sendTrackingData(_ data: [Any]!, forEventType event: Int32) {
        let data = data as? [String] ?? []
        tracking.withLock { $0.append((event, data)) }
        record("sendTrackingData(\(event),\(data.joined(separator: "|")))")
    }
    func presentTvProviderDialog(_ viewController: TVProviderDialog!) { record("presentTvProviderDialog") }
    func dismissTvProviderDialog(_ viewController: TVProviderDialog!) { record("dismissTvProviderDialog") }

    /// The metadata value the SDK hands to the delegate (`String`, `Double`, `Bool`, arrays) as JSON.
    static func json(_ value: Any) -> JSONValue? {
        switch value {
        case let text as String: .string(text)
        case let flag as Bool: .bool(flag)
        case let number as Double: .number(number)
        case let values as [Any]: .array(values.compactMap(json))
        default: nil
        }
    }

    /// The arguments dictionary with string keys and Sendable values (strings, Int32/Int opcodes, booleans).
    static func sendable(_ dictionary: [AnyHashable: Any]) -> [String: any Sendable] {
        var result: [String: any Sendable] = [:]
        for (key, value) in dictionary {
            let converted: any Sendable =
                switch value {
                case let text as String: text
                case let number as Int32: number
                case let number as Int: number
                case let flag as Bool: flag
                default: "\(value)"
                }
            result["\(key.base)"] = converted
        }
        return result
    }

    // MARK: EntitlementStatus

    func status(_ statusDictionary: [AnyHashable: Any]!) {
        let dictionary = statusStrings(statusDictionary)
        statuses.withLock { $0.append(dictionary) }
        record("status(\(dictionary[STATUS_ERROR_ID_KEY] ?? "?"))")
    }
}
