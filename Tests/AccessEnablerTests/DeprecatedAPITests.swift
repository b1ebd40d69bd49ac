import Foundation
import Testing
@testable import AccessEnabler

/// The deprecated methods still work, as their replacements.
@Suite struct DeprecatedAPITests {
    @available(*, deprecated)
    @Test func signedRequestorAndGetAuthenticationTokenBehaveAsTheirReplacements() async throws {
        let harness = Harness()
        harness.enabler.setRequestor("REF", signedRequestorID: "ignored-signature")
        await harness.recorder.waitFor("setRequestorComplete(1)")
        harness.enabler.setRequestor("REF", signedRequestorID: "sig", serviceProviders: ["http://fake"], secret: "s", publicKey: "k")
        await harness.recorder.waitFor("second") { $0.filter { $0 == "setRequestorComplete(1)" }.count == 2 }
        harness.enabler.getAuthentication(["DemoSSO"])
        await harness.recorder.waitFor("displayProviderDialog(DemoCable,DemoFiber,DemoSSO,TempPass)")
        harness.enabler.setSelectedProvider("DemoCable")
        await harness.recorder.waitFor("navigate") { $0.contains { $0.hasPrefix("navigate(") } }
        harness.service.completeLogin(code: try #require(harness.service.state.withLock { $0.lastCode }))
        harness.enabler.getAuthenticationToken()
        await harness.recorder.waitFor("setAuthenticationStatus(1,)")
    }

}
