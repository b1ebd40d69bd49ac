import EntitleCore
import Foundation
import Testing
@testable import AccessEnabler

@Suite struct EngineAuthenticationTests {
    @Test func checkAuthenticationMakesNoNetworkCall() async throws {
        let harness = Harness()
        await harness.configure()
        let before = harness.service.requests.count
        harness.enabler.checkAuthentication()
        await harness.recorder.waitFor("setAuthenticationStatus(0,User Not Authenticated Error)")
        #expect(harness.service.requests.count == before)
    }

    @Test func webViewFlowInTheCookbookOrder() async throws {
        let harness = Harness()
        await harness.configure()
        harness.enabler.getAuthentication()
        await harness.recorder.waitFor("displayProviderDialog(DemoCable,DemoFiber,DemoSSO,TempPass)")
        harness.enabler.setSelectedProvider("DemoCable")
        await harness.recorder.waitFor("navigate") { $0.contains { $0.hasPrefix("navigate(") } }
        let session = try #require(harness.service.requests(matching: "/api/v2/REF/sessions").first)
        let form = String(decoding: session.body ?? Data(), as: UTF8.self)
        #expect(form.contains("mvpd=DemoCable") && form.contains("redirectUrl=adobepass%3A%2F%2Fios.app") && form.contains("domainName=ref.example"))
        let code = try #require(harness.service.state.withLock { $0.lastCode })
        #expect(harness.recorder.entries.contains("navigate(http://fake/api/v2/authenticate/REF/\(code))"))
        // Unrelated URLs are ignored; the redirect completes the flow exactly once.
        harness.enabler.handleExternalURL("https://example.com/somewhere")
        harness.service.completeLogin(code: code)
        harness.enabler.handleExternalURL("adobepass://ios.app/")
        harness.enabler.handleExternalURL("adobepass://ios.app")
        await harness.recorder.waitFor("setAuthenticationStatus(1,)")
        try await Task.sleep(nanoseconds: 50_000_000)
        let log = harness.recorder.entries
        #expect(log.filter { $0.hasPrefix("setAuthenticationStatus") } == ["setAuthenticationStatus(1,)"])
        #expect(log.filter { $0.hasPrefix("sendTrackingData") } == ["sendTrackingData(2,4)", "sendTrackingData(0,7)"])
        #expect(harness.service.requests(matching: "/profiles/DemoCable").count == 1)
        // A valid profile now answers getAuthentication without a picker, and checkAuthentication succeeds.
        harness.recorder.clear()
        harness.enabler.getAuthentication()
        harness.enabler.checkAuthentication()
        await harness.recorder.waitFor("two") { $0.filter { $0 == "setAuthenticationStatus(1,)" }.count == 2 }
        #expect(!harness.recorder.entries.contains { $0.hasPrefix("displayProviderDialog") })
    }

    @Test func forceAuthnShowsThePickerAgain() async throws {
        let harness = Harness()
        await harness.configure()
        await harness.authenticate()
        harness.enabler.getAuthentication(true, withData: nil)
        await harness.recorder.waitFor("displayProviderDialog(DemoCable,DemoFiber,DemoSSO,TempPass)")
    }

    @Test func cancellingReportsProviderNotSelected() async throws {
        let harness = Harness()
        await harness.configure()
        harness.enabler.getAuthentication()
        harness.enabler.setSelectedProvider("DemoCable")
        await harness.recorder.waitFor("navigate") { $0.contains { $0.hasPrefix("navigate(") } }
        harness.enabler.setSelectedProvider(nil)
        await harness.recorder.waitFor("setAuthenticationStatus(0,Provider not Selected Error)")
        // The redirect after a cancel completes nothing.
        harness.enabler.handleExternalURL(ADOBEPASS_REDIRECT_URL)
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(!harness.recorder.entries.contains("setAuthenticationStatus(1,)"))
    }

    @Test func tempPassAuthenticatesWithoutAPage() async throws {
        let harness = Harness()
        await harness.configure()
        harness.enabler.setSelectedProvider("TempPass")
        await harness.recorder.waitFor("setAuthenticationStatus(1,)")
        #expect(harness.recorder.entries.contains("status(N011)"))
        #expect(!harness.recorder.entries.contains { $0.hasPrefix("navigate") })
    }

    @Test func svcProvidersUseNavigateWithSVCAndTheCustomScheme() async throws {
        let harness = Harness()
        harness.enabler.setOptions([OPTION_HANDLE_SVC: true])
        await harness.configure()
        harness.enabler.setSelectedProvider("DemoFiber")
        await harness.recorder.waitFor("navigateSVC") { $0.contains { $0.hasPrefix("navigateSVC(") && $0.hasSuffix(",true)") } }
        let form = String(decoding: harness.service.requests(matching: "/sessions").first?.body ?? Data(), as: UTF8.self)
        #expect(form.contains("redirectUrl=entitle-demo%3A%2F%2Fcallback"))
        let code = try #require(harness.service.state.withLock { $0.lastCode })
        harness.service.completeLogin(code: code)
        harness.enabler.handleExternalURL("entitle-demo://callback")
        await harness.recorder.waitFor("setAuthenticationStatus(1,)")
    }

    @Test func withoutHandleSVCTheSameProviderUsesPlainNavigate() async throws {
        let harness = Harness()
        await harness.configure()
        harness.enabler.setSelectedProvider("DemoFiber")
        await harness.recorder.waitFor("navigate") { $0.contains { $0.hasPrefix("navigate(") } }
    }

    @Test func unknownProviderAndFailedLoginAreGenericErrors() async throws {
        let harness = Harness()
        await harness.configure()
        harness.enabler.setSelectedProvider("NoSuchMVPD")
        await harness.recorder.waitFor("setAuthenticationStatus(0,Generic Authentication Error)")
        harness.recorder.clear()
        harness.enabler.setSelectedProvider("DemoCable")
        await harness.recorder.waitFor("navigate") { $0.contains { $0.hasPrefix("navigate(") } }
        // The user never logged in: the service has no profile.
        harness.enabler.handleExternalURL(ADOBEPASS_REDIRECT_URL)
        await harness.recorder.waitFor("setAuthenticationStatus(0,Generic Authentication Error)")
        #expect(harness.recorder.entries.contains("status(N130)"))
    }

    @Test func profileSurvivesARestart() async throws {
        let store = InMemoryTokenStore()
        let clock = TestClock()
        let service = FakeService(clock: clock)
        do {
            let harness = Harness(store: store, clock: clock, service: service)
            await harness.configure()
            await harness.authenticate()
        }
        let again = Harness(store: store, clock: clock, service: service)
        again.enabler.setRequestor("REF")
        again.enabler.checkAuthentication()
        await again.recorder.waitFor("setAuthenticationStatus(1,)")
        #expect(service.state.withLock { $0.registrations } == 1)
    }

    @Test func asyncAuthenticateReturnsWhenTheRedirectArrives() async throws {
        let harness = Harness()
        try await harness.enabler.configure(requestorID: "REF")
        let service = harness.service
        let enabler = harness.enabler
        let token = enabler.observe { event in
            guard case .navigate(let url, _) = event, let code = url.split(separator: "/").last else { return }
            service.completeLogin(code: String(code))
            enabler.handleExternalURL(ADOBEPASS_REDIRECT_URL)
        }
        defer { token.cancel() }
        #expect(try await enabler.authenticate(mvpd: "DemoCable") == "DemoCable")
        #expect(try await enabler.selectedMVPD()?.displayName == "Demo Cable")
    }

    @Test func registrationKeepsEveryRedirectAndSessionsUseWhatIsRegistered() async throws {
        let harness = Harness()
        harness.service.update { $0.redirectURIs = ["other-app://done"] }
        await harness.configure()
        let registration = try JSONDecoder().decode(
            ClientRegistrationRequest.self,
            from: try #require(harness.service.requests(matching: "/o/client/register").first?.body))
        #expect(registration.redirectURI == nil)
        harness.enabler.setSelectedProvider("DemoCable")
        await harness.recorder.waitFor("navigate") { $0.contains { $0.hasPrefix("navigate(") } }
        let form = String(decoding: harness.service.requests(matching: "/sessions").first?.body ?? Data(), as: UTF8.self)
        #expect(form.contains("redirectUrl=other-app%3A%2F%2Fdone"))
        // The registered custom scheme completes the flow too.
        harness.service.completeLogin(code: try #require(harness.service.state.withLock { $0.lastCode }))
        harness.enabler.handleExternalURL("other-app://done")
        await harness.recorder.waitFor("setAuthenticationStatus(1,)")
    }
}
