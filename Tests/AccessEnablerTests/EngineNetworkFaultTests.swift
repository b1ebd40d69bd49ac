import EntitleCore
import Foundation
import Testing
@testable import AccessEnabler

/// Network faults each give the documented callback — never a hang.
@Suite struct EngineNetworkFaultTests {
    @Test(arguments: [Scripted.networkError, .status(500, body: "oops"), .status(502)])
    func authorizationFaultsGiveGenericAuthorizationError(_ fault: Scripted) async throws {
        let harness = Harness()
        await harness.configure()
        await harness.authenticate()
        harness.service.script("POST /api/v2/REF/decisions/authorize/DemoCable", [fault])
        harness.enabler.checkAuthorization("news")
        await harness.recorder.waitFor("tokenRequestFailed") { $0.contains { $0.hasPrefix("tokenRequestFailed(news,Generic Authorization Error,") } }
    }

    /// An answer the SDK cannot read is Adobe's "Internal Authorization Error" (status Z500), not a network failure.
    @Test func anUnreadableAuthorizationAnswerIsAnInternalAuthorizationError() async throws {
        let harness = Harness()
        await harness.configure()
        await harness.authenticate()
        harness.service.script("POST /api/v2/REF/decisions/authorize/DemoCable", [.status(200, body: "{not json")])
        harness.enabler.checkAuthorization("news")
        await harness.recorder.waitFor("tokenRequestFailed") {
            $0.contains { $0.hasPrefix("tokenRequestFailed(news,\(INTERNAL_AUTHORIZATION_ERROR),") }
        }
    }

    @Test func throttledAuthorizationIsZ100() async throws {
        let harness = Harness()
        await harness.configure()
        await harness.authenticate()
        harness.service.script("POST /api/v2/REF/decisions/authorize/DemoCable", [.status(429, headers: ["Retry-After": "1"])])
        do { _ = try await harness.enabler.authorize("news"); Issue.record("expected failure") } catch {
            #expect(error.statusID == "Z100")
        }
    }

    @Test(arguments: [Scripted.networkError, .status(503), .status(429)])
    func sessionFaultsGiveGenericAuthenticationError(_ fault: Scripted) async throws {
        let harness = Harness()
        await harness.configure()
        harness.service.script("POST /api/v2/REF/sessions", [fault])
        harness.enabler.setSelectedProvider("DemoCable")
        await harness.recorder.waitFor("setAuthenticationStatus(0,Generic Authentication Error)")
    }

    @Test func profileFaultAfterRedirectGivesGenericAuthenticationError() async throws {
        let harness = Harness()
        await harness.configure()
        harness.enabler.setSelectedProvider("DemoCable")
        await harness.recorder.waitFor("navigate") { $0.contains { $0.hasPrefix("navigate(") } }
        harness.service.script("GET /api/v2/REF/profiles/DemoCable", [.networkError])
        harness.enabler.handleExternalURL(ADOBEPASS_REDIRECT_URL)
        await harness.recorder.waitFor("setAuthenticationStatus(0,Generic Authentication Error)")
    }

    @Test func preauthorizationFaultIsP100AndAnEmptyList() async throws {
        let harness = Harness()
        await harness.configure()
        await harness.authenticate()
        harness.service.script(
            "POST /api/v2/REF/decisions/preauthorize/DemoCable",
            [.status(403, body: String(decoding: try JSONEncoder().encode(EnhancedError.tooManyResources), as: UTF8.self))])
        harness.enabler.checkPreauthorizedResources(["news"], cache: false)
        await harness.recorder.waitFor("preauthorizedResources()")
        #expect(harness.recorder.entries.contains("status(P100)"))
    }

    @Test func secondScreenSurvivesTransientFaults() async throws {
        let harness = Harness(secondScreen: true)
        await harness.configure()
        harness.enabler.setSelectedProvider("DemoCable")
        await harness.recorder.waitFor("status(REGCODE)")
        let code = try #require(harness.service.state.withLock { $0.lastCode })
        harness.service.script("GET /api/v2/REF/profiles/code/\(code)", [.networkError, .status(503), .status(200, body: "garbage")])
        harness.service.completeLogin(code: code)
        await harness.recorder.waitFor("setAuthenticationStatus(1,)")
    }

    @Test func realTransportTimeoutIsANetworkError() async throws {
        // A TCP listener that accepts nothing useful: URLSession times out; the SDK reports a failed configuration.
        let transport = URLSessionTransport(timeout: 0.5)
        let harness = Harness(transport: transport)
        harness.enabler.setRequestor("REF", serviceProviders: ["http://127.0.0.1:9"])
        await harness.recorder.waitFor("setRequestorComplete(0)")
        #expect(harness.recorder.entries.contains("status(CFG404)"))
    }
}
