import EntitleCore
import Foundation
import Testing
@testable import AccessEnabler

/// A scripted platform account: records what the engine asks and answers with a fixed error.
final class ScriptedPlatform: PlatformSingleSignOn {
    let requests = Locked<[PlatformProviderRequest]>([])
    let access: PlatformAccessStatus
    let failure: PlatformSSOError

    init(access: PlatformAccessStatus = .granted, failure: PlatformSSOError = PlatformSSOError(.cancelled)) {
        self.access = access
        self.failure = failure
    }

    func accessStatus(prompt: Bool) async -> PlatformAccessStatus { access }
    func selectProvider(_ request: PlatformProviderRequest, presenter: TVProviderDialogPresenter) async throws(PlatformSSOError)
        -> PlatformProviderInfo
    {
        requests.withLock { $0.append(request) }
        throw failure
    }
    func attributeQuery(_ query: PlatformAttributeQuery) async throws(PlatformSSOError) -> String { throw failure }
}

/// The engine's platform single sign-on decisions with a fake service and a scripted platform account.
@Suite struct EnginePlatformSSOTests {
    static let twoSSOMVPDs =
        FakeService.demoMVPDs + [
            MVPDConfiguration(
                id: "SecondSSO", displayName: "Second SSO", logoUrl: "http://fake/logo/2.png", enablePlatformServices: true,
                boardingStatus: "PICKER", platformMappingId: "second-sso-platform-id", displayInPlatformPicker: true)
        ]

    @Test func tvProvidersOrderIsKeptNonSSOIdsAreDroppedAndPlatformIdsAreUsed() async {
        let platform = ScriptedPlatform()
        let harness = Harness(platformSSO: platform)
        harness.service.update { $0.mvpds = Self.twoSSOMVPDs }
        await harness.configure()
        harness.enabler.getAuthentication([
            TV_PROVIDERS: ["SecondSSO", "DemoCable", "DemoSSO"],
            FEATURED_TV_PROVIDERS: ["DemoSSO", "TempPass"],
        ])
        await harness.recorder.waitFor("status(N005)")
        let request = platform.requests.value.first
        #expect(request?.supportedProviderIDs == ["second-sso-platform-id", "DemoSSO"])
        #expect(request?.featuredProviderIDs == ["DemoSSO"])
        #expect(request?.channelIdentifier == "http://fake/sp/saml/metadata")

        // Without a filter every SSO MVPD, in configuration order.
        harness.enabler.getAuthentication()
        await harness.recorder.waitFor("two requests") { _ in platform.requests.value.count == 2 }
        #expect(platform.requests.value.last?.supportedProviderIDs == ["DemoSSO", "second-sso-platform-id"])
    }

    @Test func aRequestorWithoutSSOMVPDsNeverAsksThePlatform() async {
        let platform = ScriptedPlatform()
        let harness = Harness(platformSSO: platform)
        harness.service.update { $0.mvpds = FakeService.demoMVPDs.filter { !$0.enablePlatformServices } }
        await harness.configure()
        harness.enabler.getAuthentication()
        await harness.recorder.waitFor("picker") { $0.contains { $0.hasPrefix("displayProviderDialog") } }
        #expect(platform.requests.value.isEmpty)
    }

    @Test func everyPlatformErrorHasItsStatusAndOnlyACancelEndsTheFlow() async {
        let cases: [(PlatformSSOError.Code, String, Bool)] = [
            (.otherProvider, "N003", true), (.unsupportedProvider, "N004", true), (.cancelled, "N005", false),
            (.accessDenied, "VSA404", true), (.providerUnavailable, "VSA503", true), (.other, "AAPL", true),
        ]
        for (code, status, fallsBack) in cases {
            let harness = Harness(platformSSO: ScriptedPlatform(failure: PlatformSSOError(code, details: "why")))
            await harness.configure()
            harness.enabler.getAuthentication()
            await harness.recorder.waitFor("status(\(status))")
            if fallsBack {
                await harness.recorder.waitFor("picker") { $0.contains { $0.hasPrefix("displayProviderDialog") } }
            } else {
                await harness.recorder.waitFor("setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))")
                #expect(!harness.recorder.entries.contains { $0.hasPrefix("displayProviderDialog") })
            }
        }
    }

    @Test func deniedPermissionSkipsThePicker() async {
        let platform = ScriptedPlatform(access: .restricted)
        let harness = Harness(platformSSO: platform)
        await harness.configure()
        harness.enabler.getAuthentication()
        await harness.recorder.waitFor("status(VSA404)")
        #expect(platform.requests.value.isEmpty)
    }

    @Test func choosingAProviderFromTheRegularPickerStopsThePlatformFlow() async {
        let harness = Harness(platformSSO: PortablePlatformAccount(catalog: [], accessStatus: .granted))
        await harness.configure()
        harness.enabler.getAuthentication()
        try? await Task.sleep(nanoseconds: 50_000_000)
        await harness.authenticate("DemoCable")
        #expect(!harness.recorder.entries.contains("status(N005)"))
    }

    @Test func thePortableDialogFeaturesProvidersAndTakesOneAnswer() async {
        let url = URL(string: "http://127.0.0.1:1/sso")!
        let dialog = PortableTVProviderDialog(
            providers: [
                PlatformAccountProvider(id: "b", displayName: "Beta", signOnURL: url),
                PlatformAccountProvider(id: "a", displayName: "Alpha", signOnURL: url),
                PlatformAccountProvider(id: "z", displayName: "Zulu", signOnURL: url),
            ],
            supportedProviderIDs: ["a", "z"], featuredProviderIDs: ["z"])
        #expect(dialog.providers.map(\.id) == ["z", "a", "b"])
        dialog.chooseOtherProvider()
        dialog.cancel()
        #expect(await dialog.choice() == .otherProvider)
    }
}

/// `withData:` becomes `AP-TempPass-Identity` as the programmer gave it (protocol notes §9.1: the programmer hashes).
@Suite struct TempPassIdentityHeaderTests {
    @Test func everyValueIsSentAsGivenInSortedJSON() throws {
        let digest = "f7ee5ec7312165148b69fcca1d29075b14b8aef0b5048a332b18b88d09069fb7"
        let data = SendableValues.dictionary(["email": digest, "tier": 2, "trial": true, "ratio": 0.5, "tags": ["a", 1], "nested": ["k": "v"]])
        let header = try #require(EntitlementEngine.tempPassIdentity(data))
        let json = String(decoding: try #require(Data(base64Encoded: header)), as: UTF8.self)
        #expect(json == #"{"email":"\#(digest)","nested":{"k":"v"},"ratio":0.5,"tags":["a",1],"tier":2,"trial":true}"#)
        #expect(EntitlementEngine.tempPassIdentity(nil) == nil && EntitlementEngine.tempPassIdentity([:]) == nil)
        let raw = try #require(EntitlementEngine.tempPassIdentity(["email": "user@domain.com"]))
        #expect(String(decoding: try #require(Data(base64Encoded: raw)), as: UTF8.self) == #"{"email":"user@domain.com"}"#)
    }
}
