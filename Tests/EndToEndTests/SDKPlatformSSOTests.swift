import AccessEnabler
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import Testing

/// Apple-style single sign-on through the SDK against the real service and DemoMVPD: the portable platform account
/// plays the system's TV-provider account (picker, permission, SAML relayed to the DemoMVPD's platform endpoint).
@Suite(.timeLimit(.minutes(10))) struct SDKPlatformSSOTests {
    /// The platform's provider catalog: Demo SSO TV (boarded for SSO) and a provider REF does not offer.
    static func account(
        _ service: LocalService, access: PlatformAccessStatus = .notDetermined, answer: PlatformAccessStatus = .granted,
        ssoEndpoint: String? = nil
    ) -> PortablePlatformAccount {
        PortablePlatformAccount(
            catalog: [
                PlatformAccountProvider(
                    id: "DemoSSO", displayName: "Demo SSO TV",
                    signOnURL: URL(string: ssoEndpoint ?? service.baseURL + "/demo-mvpd/DemoSSO/platform/sso")!),
                PlatformAccountProvider(
                    id: "ElsewhereTV", displayName: "Elsewhere TV",
                    signOnURL: URL(string: service.baseURL + "/demo-mvpd/ElsewhereTV/platform/sso")!),
            ], accessStatus: access, promptAnswer: answer, transport: URLSessionTransport(timeout: 60))
    }

    @Test func daveSignsInThroughThePlatformPickerAndTheSecondAppNeedsNoPicker() async throws {
        try await LocalService.run { service in
            let account = Self.account(service)
            let app = TestApp(service: service, platformSSO: account)
            try await app.enabler.configure(requestorID: "REF")
            app.enabler.getAuthentication()
            let dialog = try await app.waitForDialog()
            #expect(dialog.supportedProviderIDs == ["DemoSSO"])
            #expect(dialog.providers.map(\.id).contains("DemoSSO"))
            dialog.signIn(providerID: "DemoSSO", username: "dave", password: "dave-pass")
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(1,)")
            #expect(
                app.flow.filter { !$0.hasPrefix("status") } == ["presentTvProviderDialog", "dismissTvProviderDialog", "setAuthenticationStatus(1,)"])
            #expect(account.signedInProviderID == "DemoSSO")
            #expect(await app.enabler.authenticatedMVPD() == "DemoSSO")
            #expect("\(try await app.enabler.userMetadata("tokenSource").value as Any)".contains("Apple"))
            #expect("\(try await app.enabler.userMetadata("userID").value as Any)".contains("ds-dave-b604"))
            #expect(try await app.enabler.authorize("news").isEmpty == false)

            // Another app on the device: the system account is signed in, so no picker is shown.
            let second = TestApp(service: service, platformSSO: account)
            try await second.enabler.configure(requestorID: "REF")
            #expect(try await second.enabler.authenticate() == "DemoSSO")
            #expect(!second.log.contains("presentTvProviderDialog"))
            #expect(!second.log.contains { $0.hasPrefix("displayProviderDialog") })

            // Logout of an SSO profile: VSA203 (sign out in the system settings too), then not authenticated.
            second.enabler.logout()
            _ = try await second.waitFor("status(VSA203)")
            #expect(try await second.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))")
            #expect(!second.log.contains("navigate"))
        }
    }

    @Test func otherProviderGivesN003ThenTheRegularPicker() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service, platformSSO: Self.account(service, access: .granted))
            try await app.enabler.configure(requestorID: "REF")
            app.enabler.getAuthentication()
            try await app.waitForDialog().chooseOtherProvider()
            _ = try await app.waitFor("displayProviderDialog")
            #expect(
                app.flow == [
                    "presentTvProviderDialog", "dismissTvProviderDialog", "status(N003)",
                    try await app.waitFor("displayProviderDialog"),
                ])
            app.enabler.setSelectedProvider("DemoCable")
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(1,)")
            #expect(await app.enabler.authenticatedMVPD() == "DemoCable")
        }
    }

    /// The tvOS cookbook with Apple SSO: after "other TV provider" a second-screen device shows a registration code
    /// (the user picks the MVPD on the activation page), not the app's picker.
    @Test func otherProviderOnASecondScreenDeviceGoesOnToTheRegistrationCode() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service, secondScreen: true, platformSSO: Self.account(service, access: .granted))
            try await app.enabler.configure(requestorID: "REF")
            app.enabler.getAuthentication()
            try await app.waitForDialog().chooseOtherProvider()
            _ = try await app.waitFor("status(REGCODE)")
            #expect(app.flow == ["presentTvProviderDialog", "dismissTvProviderDialog", "status(N003)", "status(REGCODE)"])
            let code = try #require(app.statuses.withLock { $0.last?["code"] })
            #expect(!code.isEmpty)
        }
    }

    @Test func unsupportedProviderGivesN004ThenTheRegularPicker() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service, platformSSO: Self.account(service, access: .granted))
            try await app.enabler.configure(requestorID: "REF")
            app.enabler.getAuthentication()
            try await app.waitForDialog().signIn(providerID: "ElsewhereTV", username: "erin", password: "erin-pass")
            _ = try await app.waitFor("displayProviderDialog")
            #expect(app.flow.contains("status(N004)"))
            #expect(app.flow.firstIndex(of: "status(N004)")! < app.flow.firstIndex { $0.hasPrefix("displayProviderDialog") }!)

            // A system account already signed in to that provider: N004 without showing the picker.
            let account = Self.account(service, access: .granted)
            account.signIn(providerID: "ElsewhereTV", username: "erin", password: "erin-pass")
            let other = TestApp(service: service, platformSSO: account)
            try await other.enabler.configure(requestorID: "REF")
            other.enabler.getAuthentication()
            _ = try await other.waitFor("displayProviderDialog")
            #expect(other.flow.first == "status(N004)")
            #expect(!other.log.contains("presentTvProviderDialog"))
        }
    }

    @Test func cancelledPickerGivesN005AndNoRegularPicker() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service, platformSSO: Self.account(service, access: .granted))
            try await app.enabler.configure(requestorID: "REF")
            let flow = Task { try await app.enabler.authenticate() }
            try await app.waitForDialog().cancel()
            await #expect(throws: AccessEnablerError.self) { try await flow.value }
            _ = try await app.waitFor("setAuthenticationStatus")  // the reply can come before the callbacks are delivered
            #expect(
                app.flow == [
                    "presentTvProviderDialog", "dismissTvProviderDialog", "status(N005)",
                    "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))",
                ])
        }
    }

    @Test func deniedPermissionGivesVSA404AndTheRegularFlow() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service, platformSSO: Self.account(service, answer: .denied))
            try await app.enabler.configure(requestorID: "REF")
            app.enabler.getAuthentication()
            let picker = try await app.waitFor("displayProviderDialog")
            #expect(app.flow == ["status(VSA404)", picker])
            app.enabler.setSelectedProvider("DemoCable")
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(1,)")
        }
    }

    @Test func unreachableProviderGivesVSA503AndTheRegularFlow() async throws {
        try await LocalService.run { service in
            let closed = "http://127.0.0.1:\(try freePort())/platform/sso"
            let account = Self.account(service, access: .granted, ssoEndpoint: closed)
            account.signIn(providerID: "DemoSSO", username: "dave", password: "dave-pass")
            let app = TestApp(service: service, platformSSO: account)
            try await app.enabler.configure(requestorID: "REF")
            app.enabler.getAuthentication()
            let picker = try await app.waitFor("displayProviderDialog")
            #expect(app.flow == ["status(VSA503)", picker])
            #expect(await app.enabler.authenticatedMVPD() == nil)
        }
    }

    @Test func refusedSystemCredentialsGiveAAPLWithTheProvidersReason() async throws {
        try await LocalService.run { service in
            let account = Self.account(service, access: .granted)
            account.signIn(providerID: "DemoSSO", username: "dave", password: "wrong")
            let app = TestApp(service: service, platformSSO: account)
            try await app.enabler.configure(requestorID: "REF")
            app.enabler.getAuthentication()
            _ = try await app.waitFor("displayProviderDialog")
            let status = try #require(app.statuses.withLock { $0.first })
            #expect(status[STATUS_ERROR_ID_KEY] == "AAPL")
            #expect(status[STATUS_DETAILS_KEY]?.contains("access_denied") == true)
        }
    }

    @Test func filterNarrowsThePickerToSSOMVPDsAndWithoutThemTheClassicFlowRuns() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service, platformSSO: Self.account(service, access: .granted))
            try await app.enabler.configure(requestorID: "REF")
            app.enabler.getAuthentication([TV_PROVIDERS: ["DemoCable", "DemoSSO"], FEATURED_TV_PROVIDERS: ["DemoSSO", "DemoFiber"]])
            let dialog = try await app.waitForDialog()
            #expect(dialog.supportedProviderIDs == ["DemoSSO"])
            #expect(dialog.featuredProviderIDs == ["DemoSSO"])
            #expect(dialog.providers.first?.id == "DemoSSO")
            dialog.cancel()
            _ = try await app.waitFor("setAuthenticationStatus")

            // A filter that names no SSO MVPD: the classic picker, no platform dialog.
            let classic = TestApp(service: service, platformSSO: Self.account(service, access: .granted))
            try await classic.enabler.configure(requestorID: "REF")
            classic.enabler.getAuthentication(false, withData: nil, andFilter: [TV_PROVIDERS: ["DemoCable"]])
            let picker = try await classic.waitFor("displayProviderDialog")
            #expect(classic.flow == [picker])
        }
    }

    @Test func withoutAPlatformAccountGetAuthenticationShowsTheRegularPicker() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service)
            try await app.enabler.configure(requestorID: "REF")
            app.enabler.getAuthentication()
            let picker = try await app.waitFor("displayProviderDialog")
            #expect(picker.contains("DemoSSO"))
            #expect(app.flow == [picker])
        }
    }
}
