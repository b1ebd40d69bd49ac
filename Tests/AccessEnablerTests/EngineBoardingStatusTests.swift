import EntitleCore
import Foundation
import Testing
@testable import AccessEnabler

/// A platform account whose user picks `providerID` in the platform's picker; it never relays SAML.
final class PickingPlatform: PlatformSingleSignOn {
    let providerID: String
    let attributeQueries = Locked(0)
    init(providerID: String) { self.providerID = providerID }
    func accessStatus(prompt: Bool) async -> PlatformAccessStatus { .granted }
    func selectProvider(_ request: PlatformProviderRequest, presenter: TVProviderDialogPresenter) async throws(PlatformSSOError)
        -> PlatformProviderInfo
    {
        PlatformProviderInfo(providerID: providerID, expirationDate: nil)
    }
    func attributeQuery(_ query: PlatformAttributeQuery) async throws(PlatformSSOError) -> String {
        attributeQueries.withLock { $0 += 1 }
        throw PlatformSSOError(.other, details: "not expected")
    }
}

/// `boardingStatus` (protocol notes §8.5, MVPD model): `PICKER` MVPDs appear in the platform picker but log in through
/// the service's own flow; `SUPPORTED` ones use the platform's SSO token.
@Suite struct EngineBoardingStatusTests {
    @Test func aPickerBoardedMVPDLogsInThroughTheServicesPage() async throws {
        let platform = PickingPlatform(providerID: "second-sso-platform-id")
        let harness = Harness(platformSSO: platform)
        harness.service.update { $0.mvpds = EnginePlatformSSOTests.twoSSOMVPDs }
        await harness.configure()
        harness.enabler.getAuthentication()
        await harness.recorder.waitFor("login page") { $0.contains { $0.hasPrefix("navigate(") } }
        #expect(platform.attributeQueries.value == 0)
        #expect(harness.service.requests(matching: "/sessions/sso/Apple").isEmpty)
        #expect(!harness.recorder.entries.contains { $0.hasPrefix("displayProviderDialog") })
        #expect(try await harness.enabler.selectedMVPD()?.ID == "SecondSSO")
    }

    @Test func aSupportedMVPDUsesThePlatformToken() async {
        let platform = PickingPlatform(providerID: "DemoSSO")
        let harness = Harness(platformSSO: platform)
        harness.service.update { $0.mvpds = EnginePlatformSSOTests.twoSSOMVPDs }
        await harness.configure()
        harness.enabler.getAuthentication()
        let service = harness.service
        await harness.recorder.waitFor("partner session") { _ in !service.requests(matching: "/sessions/sso/Apple").isEmpty }
        #expect(!harness.recorder.entries.contains { $0.hasPrefix("navigate(") })
    }
}
