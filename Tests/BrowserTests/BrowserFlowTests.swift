import AccessEnabler
import EntitleClients
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import Testing

/// The browser legs in real headless Chromium (Debian `chromium` + `chromium-driver`), against the real service.
/// `scripts/test.sh` starts chromedriver and sets `CHROMEDRIVER_URL`; in CI (CI=true) a missing Chromium fails these
/// tests instead of skipping them.
@Suite(.serialized, .enabled(if: WebDriver.enabled))
struct BrowserFlowTests {
    /// Runs `body` with a service, a Chromium session and an SDK instance; stops everything afterwards.
    func withBrowser(secondScreen: Bool = false, _ body: (LocalService, WebDriver, AccessEnabler) async throws -> Void) async throws {
        try await LocalService.run { service in
            let driver = try await WebDriver.start(http: service.httpClient)
            let enabler = AccessEnabler(
                softwareStatement: service.softwareStatement, serviceBaseURL: URL(string: service.baseURL)!,
                configuration: .init(
                    tokenStore: InMemoryTokenStore(), secondScreen: secondScreen,
                    redirectURL: "adobepass://ios.app", pollInterval: 0.3,
                    deviceID: "chromium-" + UUID().uuidString))
            do {
                try await body(service, driver, enabler)
                await driver.quit()
            } catch {
                await driver.screenshot("failure-\(UUID().uuidString.prefix(8))")
                await driver.quit()
                throw error
            }
        }
    }

    /// Starts `flow`, waits for the SDK's `navigate(toUrl:)` and returns the URL and the running flow.
    func navigation<T: Sendable>(_ enabler: AccessEnabler, _ flow: @escaping @Sendable () async throws -> T) async throws -> (
        String, Task<T, any Error>
    ) {
        let events = enabler.events
        let task = Task { try await flow() }
        let watchdog = Task {
            try await Task.sleep(for: .seconds(30))
            task.cancel()
        }
        defer { watchdog.cancel() }
        for await event in events {
            if case .navigate(let url, _) = event { return (url, task) }
            if task.isCancelled { break }
        }
        throw BrowserError("the SDK never asked to navigate")
    }

    func signInAtDemoMVPD(_ driver: WebDriver, user: String, password: String) async throws {
        try await driver.waitForText("id=\"username\"")
        try await driver.type("#username", user)
        try await driver.type("#password", password)
        try await driver.click("#sign-in")
    }

    @Test func inAppFlowEndsInHandleExternalURLAndAToken() async throws {
        try await withBrowser { service, driver, enabler in
            try await enabler.configure(requestorID: "REF")
            let (url, flow) = try await navigation(enabler) { try await enabler.authenticate(mvpd: "DemoCable") }
            try await driver.open(url)
            try await signInAtDemoMVPD(driver, user: "alice", password: "alice-pass")
            let redirect = try await driver.waitForRequest(prefix: "adobepass://ios.app")
            await driver.screenshot("in-app-flow")
            enabler.handleExternalURL(redirect)
            #expect(try await flow.value == "DemoCable")
            #expect(try await enabler.authorize("news").isEmpty == false)
        }
    }

    @Test func secondScreenActivationInChromium() async throws {
        try await withBrowser(secondScreen: true) { service, driver, enabler in
            try await enabler.configure(requestorID: "REF")
            let codes = AsyncStream<String>.makeStream()
            let login = Task { try await enabler.authenticateWithSecondScreen { codes.continuation.yield($0.code) } }
            var iterator = codes.stream.makeAsyncIterator()
            let code = try #require(await iterator.next())
            try await driver.open(service.baseURL + "/activate")
            try await driver.waitForText("Activation code")
            try await driver.type("#code", code.lowercased())
            try await driver.click("button[type=submit]")
            try await driver.waitForText("Choose your TV provider")
            try await driver.type("#q", "cable")
            try await driver.click("button[aria-label=\"Sign in with Demo Cable\"]")
            try await signInAtDemoMVPD(driver, user: "alice", password: "alice-pass")
            try await driver.waitForText("You are signed in")
            await driver.screenshot("second-screen-success")
            #expect(try await login.value == "DemoCable")
            #expect(try await enabler.authorize("news").isEmpty == false)
        }
    }

    @Test func logoutThroughTheBrowserWithSingleLogout() async throws {
        try await withBrowser { service, driver, enabler in
            try await enabler.configure(requestorID: "REF")
            let (url, flow) = try await navigation(enabler) { try await enabler.authenticate(mvpd: "DemoFiber") }
            try await driver.open(url)
            try await signInAtDemoMVPD(driver, user: "carol", password: "carol-pass")
            enabler.handleExternalURL(try await driver.waitForRequest(prefix: "adobepass://ios.app"))
            #expect(try await flow.value == "DemoFiber")

            let (logoutURL, logout) = try await navigation(enabler) { try await enabler.signOut() }
            try await driver.open(logoutURL)
            let back = try await driver.waitForRequest(prefix: "adobepass://ios.app", timeout: 20)
            await driver.screenshot("logout")
            enabler.handleExternalURL(back)
            try await logout.value
            #expect(await enabler.authenticatedMVPD() == nil)
        }
    }

    @Test func wrongPasswordAndExpiredCodeShowClearPages() async throws {
        try await withBrowser { service, driver, enabler in
            try await enabler.configure(requestorID: "REF")
            let (url, flow) = try await navigation(enabler) { try await enabler.authenticate(mvpd: "DemoCable") }
            try await driver.open(url)
            try await signInAtDemoMVPD(driver, user: "alice", password: "wrong")
            try await driver.waitForText("incorrect")
            await driver.screenshot("wrong-password")
            flow.cancel()

            let tv = try await service.client()
            let code = try #require(try await tv.createSession(mvpd: nil, redirectURL: nil).decode(SessionResponse.self).code)
            service.clock.advance(by: 31 * 60)
            try await driver.open(service.baseURL + "/activate?code=\(code)")
            try await driver.waitForText("Activation code")
            try await driver.click("button[type=submit]")
            try await driver.waitForText("This code has expired")
            await driver.screenshot("expired-code")
        }
    }
}
