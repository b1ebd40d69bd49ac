import AsyncHTTPClient
import EntitleClients
import EntitleCore
import Foundation
import Testing
@testable import AccessEnabler

/// Flow tests against a running `entitle serve --rate-limit 0`, enabled with `ENTITLE_LIVE_URL=http://127.0.0.1:8080`
/// and `ENTITLE_LIVE_STATEMENT=<data dir>/demo/software-statement.jwt`: the real transport, the real service and
/// DemoMVPD, the browser leg played by `BrowserClient` and `DemoSignIn` (cookies, login form, SAML POST, stop at the
/// redirect URL).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["ENTITLE_LIVE_URL"] != nil)) struct LiveServiceTests {
    func makeEnabler(secondScreen: Bool = false) throws -> (AccessEnabler, Recorder) {
        let environment = ProcessInfo.processInfo.environment
        let base = try #require(URL(string: environment["ENTITLE_LIVE_URL"] ?? ""))
        let statement = try String(contentsOfFile: try #require(environment["ENTITLE_LIVE_STATEMENT"]), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let configuration = AccessEnabler.Configuration(
            transport: URLSessionTransport(timeout: 10), tokenStore: InMemoryTokenStore(),
            secondScreen: secondScreen, deviceID: "live-\(UUID().uuidString)")
        let enabler = AccessEnabler(softwareStatement: statement, serviceBaseURL: base, configuration: configuration)
        let recorder = Recorder()
        enabler.delegate = recorder
        enabler.statusDelegate = recorder
        return (enabler, recorder)
    }

    @Test func tempPassFlowAgainstTheRealService() async throws {
        let (enabler, recorder) = try makeEnabler()
        let mvpds = try await enabler.configure(requestorID: "REF")
        #expect(mvpds.contains { $0.ID == "TempPass" && $0.isTempPass })
        #expect(mvpds.contains { $0.ID == "DemoCable" })
        #expect(await enabler.authenticatedMVPD() == nil)
        #expect(try await enabler.authenticate(mvpd: "TempPass") == "TempPass")
        await recorder.waitFor("status(N011)")
        let token = try await enabler.authorize("news")
        #expect(Data(base64Encoded: token) != nil)
        #expect(try await enabler.preauthorize(["news", "sports"], cache: false) == ["news", "sports"])
        #expect(try await enabler.metadata([METADATA_OPCODE_KEY: METADATA_AUTHENTICATION]).value != nil)
        try await enabler.signOut()
        #expect(await enabler.authenticatedMVPD() == nil)
    }

    @Test func webViewSessionPointsAtTheService() async throws {
        let (enabler, recorder) = try makeEnabler()
        try await enabler.configure(requestorID: "REF")
        enabler.setSelectedProvider("DemoCable")
        await recorder.waitFor("navigate") { $0.contains { $0.hasPrefix("navigate(") } }
        let base = ProcessInfo.processInfo.environment["ENTITLE_LIVE_URL"]!
        #expect(recorder.entries.contains { $0.hasPrefix("navigate(\(base)/api/v2/authenticate/REF/") })
        enabler.setSelectedProvider(nil)
        await recorder.waitFor("setAuthenticationStatus(0,Provider not Selected Error)")
    }

    @Test func secondScreenCodeIsPolledAndCancelled() async throws {
        let (enabler, recorder) = try makeEnabler(secondScreen: true)
        try await enabler.configure(requestorID: "REF")
        let codes = Locked<[RegistrationCode]>([])
        let task = Task { try await enabler.authenticateWithSecondScreen { code in codes.withLock { $0.append(code) } } }
        await recorder.waitFor("status(REGCODE)")
        try await Task.sleep(nanoseconds: 4_000_000_000)
        task.cancel()
        await recorder.waitFor("setAuthenticationStatus(0,Provider not Selected Error)")
        #expect(codes.value.first?.code.isEmpty == false)
    }

    /// Runs `body` with a new browser on its own HTTP client (no redirects followed by the client), shut down afterwards.
    func withBrowser<T>(_ body: (BrowserClient) async throws -> T) async throws -> T {
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        do {
            let result = try await body(BrowserClient(httpClient: httpClient))
            try await httpClient.shutdown()
            return result
        } catch {
            try? await httpClient.shutdown()
            throw error
        }
    }

    /// Logs `username` in at `mvpd` through the browser leg and hands the redirect to `handleExternalURL`.
    func login(_ enabler: AccessEnabler, _ recorder: Recorder, mvpd: String, username: String) async throws {
        recorder.clear()
        enabler.setSelectedProvider(mvpd)
        // The login page, not the logout page of a sign-out just before (its callback can arrive after `clear()`).
        let isLogin: @Sendable (String) -> Bool = { $0.hasPrefix("navigate") && $0.contains("/authenticate/") }
        await recorder.waitFor("navigate") { $0.contains(where: isLogin) }
        let entry = try #require(recorder.entries.first(where: isLogin))
        let url = String(entry.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" && $0 != "," })
        let outcome = try await withBrowser { browser in
            try await DemoSignIn.signIn(browser: browser, authenticationURL: url, username: username, password: username + "-pass")
        }
        guard case .external(let redirect) = outcome else { throw BrowserError("The login did not end on the redirect URL: \(outcome)") }
        enabler.handleExternalURL(redirect)
        await recorder.waitFor("setAuthenticationStatus(1,)")
    }

    @Test func browserLoginAuthorizationDenialMetadataAndLogout() async throws {
        let (enabler, recorder) = try makeEnabler()
        try await enabler.configure(requestorID: "REF")
        try await login(enabler, recorder, mvpd: "DemoCable", username: "alice")
        #expect(try await enabler.authorize("movies").isEmpty == false)
        let zip = try await enabler.userMetadata("zip")
        #expect(zip.encrypted)
        let statement = ProcessInfo.processInfo.environment["ENTITLE_LIVE_STATEMENT"]!
        let keyPath = URL(fileURLWithPath: statement).deletingLastPathComponent().appendingPathComponent("programmer-key.pem").path
        #if canImport(_CryptoExtras)
        let decryptor = try UserMetadataDecryptor(privateKeyPEM: try String(contentsOfFile: keyPath, encoding: .utf8))
        let plain = try decryptor.decrypt(try #require(zip.value))
        #expect(plain == .string("10001") || plain == .number(10001) || plain == .array([.string("10001")]))
        #endif
        #expect(try await enabler.userMetadata("householdID").value == .string("H-1001"))
        try await enabler.signOut()

        // bob's package has no movies: the MVPD's own message comes back.
        try await login(enabler, recorder, mvpd: "DemoCable", username: "bob")
        enabler.checkAuthorization("movies")
        await recorder.waitFor("denial") {
            $0.contains { $0.hasPrefix("tokenRequestFailed(movies,User not Authorized Error,") && !$0.hasSuffix(",)") }
        }
        #expect(recorder.entries.contains("status(Z100)"))
        try await enabler.signOut()

        // Demo Fiber has Single Logout: the logout page runs and ends on the redirect URL.
        try await login(enabler, recorder, mvpd: "DemoFiber", username: "carol")
        recorder.clear()
        enabler.logout()
        await recorder.waitFor("navigate") { $0.contains { $0.hasPrefix("navigate") } }
        let entry = try #require(recorder.entries.first { $0.hasPrefix("navigate") })
        let logoutURL = String(entry.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" && $0 != "," })
        let end = try await withBrowser { try await $0.get(logoutURL) }
        guard case .external(let redirect) = end else { throw BrowserError("The logout did not end on the redirect URL: \(end)") }
        enabler.handleExternalURL(redirect)
        await recorder.waitFor("setAuthenticationStatus(0,User Not Authenticated Error)")
    }

    @Test func secondScreenLoginCompletesThroughPolling() async throws {
        let (enabler, recorder) = try makeEnabler(secondScreen: true)
        try await enabler.configure(requestorID: "REF")
        let sessionURL = Locked<String?>(nil)
        let token = enabler.observe { event in
            if case .status(let status) = event, status.errorID == "REGCODE" { sessionURL.withLock { $0 = status.extras[STATUS_SESSION_URL_KEY] } }
        }
        defer { token.cancel() }
        enabler.setSelectedProvider("DemoCable")
        await recorder.waitFor("status(REGCODE)")
        // The second screen: open the session's URL, sign in as alice; the page ends on the service's success page.
        let sessionPage = try #require(sessionURL.value)
        let end = try await withBrowser { browser in
            try await DemoSignIn.signIn(browser: browser, authenticationURL: sessionPage, username: "alice", password: "alice-pass")
        }
        guard case .page(let page) = end else { throw BrowserError("The second screen left the web: \(end)") }
        #expect(page.status == 200)
        await recorder.waitFor("setAuthenticationStatus(1,)")
        #expect(try await enabler.userMetadata("userID").value != nil)
        #expect(try await enabler.authorize("news").isEmpty == false)
    }
}
