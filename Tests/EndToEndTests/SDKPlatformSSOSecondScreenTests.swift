import AccessEnabler
import EntitleClients
import EntitleCore
import EntitleHost
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// The tvOS cookbook with Apple SSO ("Authentication Flow with Apple SSO on tvOS"): on a second-screen device, after
/// the user picks a provider in the platform's picker, `status()` carries a registration code, the SDK polls, and the
/// login on the second screen ends in `setAuthenticationStatus`. Against the real service and DemoMVPD, for an MVPD
/// boarded `PICKER` (shown in the platform picker, signs in through the service) and one boarded `SUPPORTED` (the
/// platform's own sign-in, with the code when the platform cannot complete it).
@Suite(.timeLimit(.minutes(10))) struct SDKPlatformSSOSecondScreenTests {
    /// The platform's catalog: Demo SSO TV (SUPPORTED) and Demo Cable, which the test boards as PICKER.
    static func account(_ service: LocalService) -> PortablePlatformAccount {
        PortablePlatformAccount(
            catalog: [
                PlatformAccountProvider(
                    id: "DemoSSO", displayName: "Demo SSO TV", signOnURL: URL(string: service.baseURL + "/demo-mvpd/DemoSSO/platform/sso")!),
                PlatformAccountProvider(
                    id: "DemoCable", displayName: "Demo Cable", signOnURL: URL(string: service.baseURL + "/demo-mvpd/DemoCable/platform/sso")!),
            ], accessStatus: .granted, transport: URLSessionTransport(timeout: 60))
    }

    /// Boards DemoCable as `PICKER`: in the platform's picker, but its login is the service's own.
    static func boardDemoCableAsPicker(_ service: LocalService) async throws {
        let demo = try #require(service.host.demo)
        var options = MVPDOptions(
            displayName: "Demo Cable", logoURL: service.baseURL + "/demo-mvpd/DemoCable/logo.svg",
            authorizationURL: service.baseURL + "/demo-mvpd/DemoCable/authorize", authorizationKey: demo.configuration.authorizationAPIKey)
        options.enablePlatformServices = true
        options.boardingStatus = BoardingStatus.picker.rawValue
        options.displayInPlatformPicker = true
        try await service.service.mvpds.importSAML(
            id: "DemoCable", metadataXML: try #require(demo.metadata(for: "DemoCable")).xml(), options: options, requestors: ["REF"])
    }

    /// The registration code of the last `REGCODE` status.
    static func registrationCode(_ app: TestApp) throws -> String {
        try #require(app.statuses.withLock { $0.last { $0[STATUS_ERROR_ID_KEY] == "REGCODE" }?["code"] })
    }

    /// The person on the phone: the code's login page, which goes straight to `mvpd` (no provider list).
    static func secondScreenLogin(_ service: LocalService, code: String, mvpd: String, user: String) async throws {
        let outcome = try await DemoSignIn.signIn(
            browser: service.browser(), authenticationURL: service.baseURL + "/api/v2/authenticate/REF/\(code)", username: user,
            password: user + "-pass")
        guard case .page(let page) = outcome else { throw BrowserError("the second screen did not end on a page: \(outcome)") }
        #expect(page.body.contains("You are signed in"), "\(page.url) \(page.body.prefix(300))")
        #expect(page.url.contains("mvpd=\(mvpd)"), "\(page.url)")
    }

    @Test func aPickerMVPDChosenInThePlatformPickerGoesOnToItsRegistrationCode() async throws {
        try await LocalService.run { service in
            try await Self.boardDemoCableAsPicker(service)
            let account = Self.account(service)
            let app = TestApp(service: service, secondScreen: true, platformSSO: account)
            try await app.enabler.configure(requestorID: "REF")
            app.enabler.getAuthentication()
            let dialog = try await app.waitForDialog()
            #expect(Set(dialog.supportedProviderIDs) == ["DemoSSO", "DemoCable"])
            dialog.signIn(providerID: "DemoCable", username: "alice", password: "alice-pass")
            _ = try await app.waitFor("status(REGCODE)")
            #expect(app.flow == ["presentTvProviderDialog", "dismissTvProviderDialog", "status(REGCODE)"])
            let code = try Self.registrationCode(app)
            // The code is bound to Demo Cable: the second screen shows its login at once.
            try await Self.secondScreenLogin(service, code: code, mvpd: "DemoCable", user: "alice")
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(1,)")
            #expect(!app.log.contains { $0.hasPrefix("navigate") || $0.hasPrefix("displayProviderDialog") })
            #expect(await app.enabler.authenticatedMVPD() == "DemoCable")
            #expect(!"\(try await app.enabler.userMetadata("tokenSource").value as Any)".contains("Apple"))
            #expect(try await app.enabler.authorize("news").isEmpty == false)
        }
    }

    @Test func aSupportedMVPDChosenInThePlatformPickerSignsInThroughThePlatformWithoutACode() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service, secondScreen: true, platformSSO: Self.account(service))
            try await app.enabler.configure(requestorID: "REF")
            app.enabler.getAuthentication()
            try await app.waitForDialog().signIn(providerID: "DemoSSO", username: "dave", password: "dave-pass")
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(1,)")
            #expect(!app.log.contains("status(REGCODE)"))
            #expect(
                app.flow.filter { !$0.hasPrefix("status") } == ["presentTvProviderDialog", "dismissTvProviderDialog", "setAuthenticationStatus(1,)"])
            #expect("\(try await app.enabler.userMetadata("tokenSource").value as Any)".contains("Apple"))
            #expect(try await app.enabler.authorize("news").isEmpty == false)
        }
    }

    @Test func aSupportedMVPDThePlatformCannotSignInToGoesOnToItsRegistrationCode() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service, secondScreen: true, platformSSO: Self.account(service))
            try await app.enabler.configure(requestorID: "REF")
            app.enabler.getAuthentication()
            // The system's sign-in is refused by the provider (AAPL): the code for Demo SSO TV, not the app's picker.
            try await app.waitForDialog().signIn(providerID: "DemoSSO", username: "dave", password: "wrong")
            _ = try await app.waitFor("status(REGCODE)")
            #expect(app.flow == ["presentTvProviderDialog", "dismissTvProviderDialog", "status(AAPL)", "status(REGCODE)"])
            try await Self.secondScreenLogin(service, code: try Self.registrationCode(app), mvpd: "DemoSSO", user: "dave")
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(1,)")
            #expect(await app.enabler.authenticatedMVPD() == "DemoSSO")
            #expect(!app.log.contains { $0.hasPrefix("displayProviderDialog") })
        }
    }
}
