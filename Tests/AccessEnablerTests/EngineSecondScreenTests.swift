import EntitleCore
import Foundation
import Testing
@testable import AccessEnabler

@Suite struct EngineSecondScreenTests {
    /// Completes the login of any code once the device has polled it `polls` times.
    func completeAfterPolls(_ harness: Harness, polls: Int) {
        harness.service.update { $0.completeLoginAfterPolls = polls }
    }

    @Test func registrationCodeIsShownAndPolledUntilTheLoginCompletes() async throws {
        let harness = Harness(secondScreen: true)
        await harness.configure()
        completeAfterPolls(harness, polls: 3)
        harness.enabler.getAuthentication()
        await harness.recorder.waitFor("displayProviderDialog(DemoCable,DemoFiber,DemoSSO,TempPass)")
        harness.enabler.setSelectedProvider("DemoCable")
        await harness.recorder.waitFor("setAuthenticationStatus(1,)")
        let log = harness.recorder.entries
        #expect(log.firstIndex(of: "status(REGCODE)")! < log.firstIndex(of: "setAuthenticationStatus(1,)")!)
        #expect(!log.contains { $0.hasPrefix("navigate") })
        let polls = harness.service.requests.filter { $0.url.path.contains("/profiles/code/") }.count
        #expect(polls >= 4)
        #expect(harness.clock.sleeps.allSatisfy { $0 == 3 })
        let form = String(decoding: harness.service.requests(matching: "/sessions").first?.body ?? Data(), as: UTF8.self)
        #expect(!form.contains("redirectUrl"))
    }

    @Test func asyncSecondScreenLoginHandsOutTheCode() async throws {
        let harness = Harness(secondScreen: true)
        try await harness.enabler.configure(requestorID: "REF")
        completeAfterPolls(harness, polls: 1)
        let codes = Locked<[RegistrationCode]>([])
        let mvpd = try await harness.enabler.authenticateWithSecondScreen(mvpd: nil) { code in codes.withLock { $0.append(code) } }
        #expect(mvpd == "DemoCable")
        let code = try #require(codes.value.first)
        #expect(code.activationURL == "http://fake/activate")
        #expect(code.notAfter == harness.clock.now().addingTimeInterval(600 - 3 * Double(harness.clock.sleeps.count)))
        #expect(await harness.enabler.authenticatedMVPD() == "DemoCable")
    }

    @Test func pollingStopsWhenTheCodeExpires() async throws {
        let harness = Harness(secondScreen: true)
        harness.service.update { $0.sessionLifetime = 10 }
        await harness.configure()
        harness.enabler.setSelectedProvider("DemoCable")
        await harness.recorder.waitFor("setAuthenticationStatus(0,Generic Authentication Error)")
        #expect(harness.recorder.entries.contains("status(N130)"))
        #expect(harness.clock.sleeps == [3, 3, 3, 1])
        let polls = harness.service.requests.filter { $0.url.path.contains("/profiles/code/") }.count
        #expect(polls == 4)
    }

    @Test func cancelStopsPolling() async throws {
        let harness = Harness(secondScreen: true)
        await harness.configure()
        let service = harness.service
        let enabler = harness.enabler
        let observation = enabler.observe { event in
            guard case .status(let status) = event, status.errorID == "REGCODE", let code = status.extras["code"] else { return }
            Task {
                while service.requests(matching: "/profiles/code/\(code)").count < 2 { try? await Task.sleep(nanoseconds: 1_000_000) }
                enabler.setSelectedProvider(nil)
            }
        }
        defer { observation.cancel() }
        enabler.setSelectedProvider("DemoCable")
        await harness.recorder.waitFor("setAuthenticationStatus(0,Provider not Selected Error)")
        let polls = harness.service.requests.filter { $0.url.path.contains("/profiles/code/") }.count
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(harness.service.requests.filter { $0.url.path.contains("/profiles/code/") }.count <= polls + 1)
        #expect(!harness.recorder.entries.contains("setAuthenticationStatus(1,)"))
    }

    @Test func aNewCodeSupersedesTheOldPolling() async throws {
        let harness = Harness(secondScreen: true)
        // Virtual time runs 3 s per poll while the test waits in real time: keep the codes valid meanwhile.
        harness.service.update { $0.sessionLifetime = 1e9 }
        await harness.configure()
        harness.enabler.setSelectedProvider("DemoCable")
        await harness.recorder.waitFor("status(REGCODE)")
        let firstCode = try #require(harness.service.state.withLock { $0.lastCode })
        harness.enabler.setSelectedProvider("DemoFiber")
        await harness.recorder.waitFor("second code") { $0.filter { $0 == "status(REGCODE)" }.count == 2 }
        let secondCode = try #require(harness.service.state.withLock { $0.lastCode })
        harness.service.completeLogin(code: firstCode)
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(!harness.recorder.entries.contains("setAuthenticationStatus(1,)"))
        harness.service.completeLogin(code: secondCode)
        await harness.recorder.waitFor("setAuthenticationStatus(1,)")
        #expect(await harness.enabler.authenticatedMVPD() == "DemoFiber")
    }

    @Test func throttledPollingWaitsForRetryAfter() async throws {
        let harness = Harness(secondScreen: true)
        harness.service.update { $0.sessionLifetime = 30 }
        await harness.configure()
        completeAfterPolls(harness, polls: 2)
        harness.service.script("GET /api/v2/REF/profiles/code/CODE5", [.status(429, headers: ["Retry-After": "7"])])
        harness.enabler.setSelectedProvider("DemoCable")
        await harness.recorder.waitFor("setAuthenticationStatus(1,)")
        #expect(harness.clock.sleeps.prefix(2) == [3, 7])
    }

    @Test func logoutOnADeviceOpensNoPage() async throws {
        let harness = Harness(secondScreen: true)
        await harness.configure()
        completeAfterPolls(harness, polls: 1)
        harness.enabler.setSelectedProvider("DemoFiber")
        await harness.recorder.waitFor("setAuthenticationStatus(1,)")
        try await harness.enabler.signOut()
        #expect(!harness.recorder.entries.contains { $0.hasPrefix("navigate") })
    }
}
