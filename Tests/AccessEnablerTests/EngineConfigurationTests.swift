import EntitleCore
import Foundation
import Testing
@testable import AccessEnabler

@Suite struct EngineConfigurationTests {
    @Test func setRequestorRegistersLazilyAndCompletes() async throws {
        let harness = Harness()
        #expect(harness.service.requests.isEmpty)
        let mvpds = try await harness.enabler.configure(requestorID: "REF")
        #expect(mvpds.map(\.ID) == ["DemoCable", "DemoFiber", "DemoSSO", "TempPass"])
        await harness.recorder.waitFor("setRequestorComplete(1)")
        let configuration = try #require(harness.service.requests(matching: "/api/v2/REF/configuration").first)
        #expect(configuration.header("Authorization") == "Bearer token-1")
        #expect(configuration.header("AP-Device-Identifier") == DeviceIdentifier(rawValue: "device-1")!.headerValue)
        let info = try DeviceInfo.decode(header: try #require(configuration.header("X-Device-Info")))
        #expect(info.osName != nil)
    }

    @Test func callsMadeBeforeCompletionAreQueuedInOrder() async throws {
        let harness = Harness()
        harness.service.update { $0.configurationDelay = 0.05 }
        harness.enabler.checkAuthentication()
        harness.enabler.setRequestor("REF")
        harness.enabler.getSelectedProvider()
        harness.enabler.checkAuthentication()
        await harness.recorder.waitFor("two answers") { $0.filter { $0.hasPrefix("setAuthenticationStatus") }.count == 2 }
        let log = harness.recorder.entries.filter { !$0.hasPrefix("sendTrackingData") }
        #expect(
            log == [
                "setRequestorComplete(1)", "setAuthenticationStatus(0,User Not Authenticated Error)",
                "selectedProvider(nil)", "setAuthenticationStatus(0,User Not Authenticated Error)",
            ])
    }

    @Test func failedConfigurationReportsCFGStatus() async throws {
        let harness = Harness()
        harness.service.script("GET /api/v2/REF/configuration", [.status(503, body: "down")])
        do { try await harness.enabler.configure(requestorID: "REF"); Issue.record("expected failure") } catch {
            #expect(error.statusID == "CFG503")
        }
        await harness.recorder.waitFor("status(CFG503)")
        #expect(harness.recorder.entries.contains("setRequestorComplete(0)"))
    }

    @Test func unreachableServiceIsCFG404AndUnknownRequestorCFG400() async throws {
        let harness = Harness()
        harness.service.script("GET /api/v2/REF/configuration", [.networkError])
        do { try await harness.enabler.configure(requestorID: "REF") } catch { #expect(error.statusID == "CFG404") }
        do { try await harness.enabler.configure(requestorID: "NOPE") } catch { #expect(error.statusID == "CFG400") }
        harness.service.script("GET /api/v2/REF/configuration", [.status(429, headers: ["Retry-After": "2"])])
        do { try await harness.enabler.configure(requestorID: "REF") } catch { #expect(error.statusID == "CFG429") }
    }

    @Test func rejectedStatementReportsR400() async throws {
        let harness = Harness()
        harness.service.update { $0.rejectRegistration = true }
        harness.enabler.setRequestor("REF")
        await harness.recorder.waitFor("status(R400)")
        #expect(harness.recorder.entries.contains("setRequestorComplete(0)"))
    }

    @Test func a401IsRetriedOnceWithAFreshToken() async throws {
        let harness = Harness()
        try await harness.enabler.configure(requestorID: "REF")
        harness.service.update { $0.validTokens = [] }
        try await harness.enabler.configure(requestorID: "REF")
        #expect(harness.service.state.withLock { ($0.registrations, $0.tokenRequests) } == (1, 2))
    }

    @Test func persistent401ReportsR401() async throws {
        let harness = Harness()
        try await harness.enabler.configure(requestorID: "REF")
        let unauthorized = Scripted.status(
            401, body: String(decoding: try JSONEncoder().encode(EnhancedError.invalidAccessTokenServiceProvider), as: UTF8.self))
        harness.service.script("GET /api/v2/REF/configuration", [unauthorized, unauthorized])
        do { try await harness.enabler.configure(requestorID: "REF"); Issue.record("expected failure") } catch {
            #expect(error.statusID == "R401")
        }
        #expect(harness.service.state.withLock { $0.tokenRequests } == 2)
    }

    @Test func multipleProvidersAreQueriedInParallelAndTheFastestWins() async throws {
        let clock = TestClock()
        let fast = FakeService(clock: clock)
        let slow = FakeService(clock: clock)
        let other = FakeService(clock: clock)
        // The slow provider answers only once the other two have been asked (or after 30 s): queried one after the
        // other, they would be asked only after it answered. No wall-clock margin, so a loaded machine cannot fail it.
        let othersAsked = Locked(false)
        slow.update { state in
            state.configurationHold = { [fast, other] in
                for _ in 0..<1500 {
                    let asked =
                        fast.state.withLock { !$0.configurationArrivals.isEmpty }
                        && other.state.withLock { !$0.configurationArrivals.isEmpty }
                    if asked {
                        othersAsked.withLock { $0 = true }
                        return
                    }
                    try? await Task.sleep(nanoseconds: 20_000_000)
                }
            }
        }
        other.update {
            $0.configurationDelay = 0.1; $0.mvpds = [MVPDConfiguration(id: "OtherTV", displayName: "Other", logoUrl: "")]
        }
        fast.update { $0.mvpds = Array(FakeService.demoMVPDs.prefix(1)) }
        let harness = Harness(clock: clock, transport: RoutingTransport(services: ["fast": fast, "slow": slow, "other": other]))
        let mvpds = try await harness.enabler.configure(requestorID: "REF", serviceProviders: ["http://slow", "http://fast", "http://other"])
        // Parallel, not serial: the others were asked while the slow one had not answered yet.
        let arrivals = [fast, slow, other].flatMap { $0.state.withLock { $0.configurationArrivals } }
        #expect(arrivals.count == 3)
        #expect(othersAsked.withLock { $0 }, "the other providers were asked while the slow one was still answering")
        #expect(mvpds.first?.ID == "DemoCable")
        #expect(Set(mvpds.map(\.ID)) == ["DemoCable", "OtherTV", "DemoFiber", "DemoSSO", "TempPass"])
        #expect(mvpds.count == 5)
        // Calls for an MVPD go to the provider that listed it first.
        harness.enabler.setSelectedProvider("DemoCable")
        await harness.recorder.waitFor("first page") { $0.filter { $0.hasPrefix("navigate") }.count == 1 }
        harness.enabler.setSelectedProvider("DemoFiber")
        await harness.recorder.waitFor("second page") { $0.filter { $0.hasPrefix("navigate") }.count == 2 }
        #expect(fast.requests(matching: "/sessions").count == 1)
        #expect(slow.requests(matching: "/sessions").count == 1)
        #expect(harness.recorder.entries.contains { $0.hasPrefix("navigate(http://fast/api/v2/authenticate/REF/") })
        #expect(harness.recorder.entries.contains { $0.hasPrefix("navigate(http://slow/api/v2/authenticate/REF/") })
    }

    @Test func setRequestorAgainResynchronisesProfiles() async throws {
        let harness = Harness()
        await harness.configure()
        await harness.authenticate()
        // Logged out elsewhere: the service no longer has the profile.
        harness.service.update { $0.profiles = [:] }
        try await harness.enabler.configure(requestorID: "REF")
        #expect(await harness.enabler.authenticatedMVPD() == nil)
        // Signed in elsewhere (SSO): the service has a profile the device did not make.
        let now = harness.clock.now()
        harness.service.update { $0.profiles["DemoFiber"] = FakeService.profile(mvpd: "DemoFiber", now: now) }
        try await harness.enabler.configure(requestorID: "REF")
        #expect(await harness.enabler.authenticatedMVPD() == "DemoFiber")
    }

    @Test func optionsTravelWithEveryRequest() async throws {
        let harness = Harness()
        let override = DeviceInfo(primaryHardwareType: "TV", model: "Box", osName: "tvOS").headerValue()
        harness.enabler.setOptions([OPTION_VISITOR_ID: "visitor-9", OPTION_APPLICATION_PROFILE: "tv", OPTION_DEVICE_INFO: override])
        try await harness.enabler.configure(requestorID: "REF")
        for request in harness.service.requests where request.url.path.hasPrefix("/api/") {
            #expect(request.header("AP-Visitor-Identifier") == "visitor-9")
            #expect(request.header("AP-Application-Profile") == "tv")
            #expect(request.header("X-Device-Info") == override)
        }
        #expect(harness.service.requests(matching: "/o/client/register").first?.header("X-Device-Info") == override)
    }
}
