import AccessEnabler
import EntitleHost
import EntitleTesting
import Foundation
import Testing

/// The cookbook's flows driven through a delegate and call sites written exactly as for Adobe's AccessEnabler,
/// against the real in-process service and DemoMVPD.
@Suite struct AdobeStyleDelegateTests {
    /// The enabler an app creates. Adobe's `AccessEnabler(softwareStatement)` is one line; the test adds an in-memory
    /// token store (tests must not share the user's token file) and names the service in `setRequestor`.
    static func makeApp(_ service: LocalService) -> AdobeStyleApp {
        let app = AdobeStyleApp(browser: service.browser())
        let configuration = AccessEnabler.Configuration(
            transport: URLSessionTransport(timeout: AnswerPatience.seconds), tokenStore: InMemoryTokenStore())
        let accessEnabler = AccessEnabler(softwareStatement: service.softwareStatement, configuration: configuration)
        accessEnabler.delegate = app
        accessEnabler.statusDelegate = app
        app.accessEnabler = accessEnabler
        return app
    }

    @Test func adobeInitializersCompileUnchanged() {
        let statement = "eyJ.statement.sig"
        let first = AccessEnabler(statement)
        let second = AccessEnabler(storageCheck: .INTEGRITY_CHECK_ALL, softwareStatement: statement)
        #expect(first.delegate == nil && second.delegate == nil)
    }

    @Test func cookbookFlowThroughAnAdobeStyleDelegate() async throws {
        try await LocalService.run { service in
            let app = Self.makeApp(service)
            let ae: AccessEnabler = app.accessEnabler

            // Configuration, then the authentication check.
            ae.setRequestor("REF", serviceProviders: [service.baseURL])
            #expect(try await app.waitFor("setRequestorComplete") == "setRequestorComplete(\(ACCESS_ENABLER_STATUS_SUCCESS))")
            ae.checkAuthentication()
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))")

            // The picker: displayProviderDialog([Any]!) carries MVPD objects; the user picks one.
            ae.getAuthentication(false, withData: nil)
            _ = try await app.waitFor("displayProviderDialog")
            let mvpd = try #require(app.read { $0.mvpdList.first { $0.displayName == "Demo Cable" } })
            ae.setSelectedProvider(mvpd.id)
            _ = try await app.waitFor("navigate(toUrl:)")
            #expect(try await app.waitFor("setAuthenticationStatus", count: 2) == "setAuthenticationStatus(1,)")

            // Authorization: a media token.
            ae.getAuthorization("news")
            _ = try await app.waitFor("setToken(news)")
            #expect(app.read { $0.mediaToken }?.isEmpty == false)
            ae.checkAuthorization("movies", withData: nil)
            _ = try await app.waitFor("setToken(movies)")

            // Preauthorization with an [Any]! list and the answer as [Any]!.
            ae.checkPreauthorizedResources(["news", "sports", "movies"] as [Any])
            _ = try await app.waitFor("preauthorizedResources")
            #expect(Set(app.read { $0.authorizedResources }) == ["news", "sports", "movies"])

            // Metadata, with the dictionary literal of Adobe's samples.
            ae.getMetadata([METADATA_OPCODE_KEY: Int(METADATA_USER_META), METADATA_USER_META_KEY: "householdID"])
            #expect(try await app.waitFor("setMetadataStatus") == "setMetadataStatus(\(METADATA_USER_META),householdID,false)")
            #expect(app.read { $0.userMetadata } as? String == "H-1001")

            // The selected provider as MVPD!.
            ae.getSelectedProvider()
            #expect(try await app.waitFor("selectedProvider") == "selectedProvider(Demo Cable)")

            // Logout: the logout page through navigate(toUrl:), then not authenticated (the fourth status: the
            // third was checkAuthorization's, which reports the authentication status it found).
            ae.logout()
            _ = try await app.waitFor("navigate(toUrl:)", count: 2)
            #expect(try await app.waitFor("setAuthenticationStatus", count: 4) == "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))")
            #expect(app.log.contains { $0.hasPrefix("sendTrackingData(\(TRACKING_AUTHENTICATION)") })
        }
    }

    @Test func deniedAuthorizationAndCancelledPickerReachTheAdobeStyleCallbacks() async throws {
        try await LocalService.run { service in
            let app = Self.makeApp(service)
            let ae: AccessEnabler = app.accessEnabler
            app.read { $0.username = "bob" }
            ae.setRequestor("REF", serviceProviders: [service.baseURL])
            _ = try await app.waitFor("setRequestorComplete(1)")

            // The user backs out of the picker: setSelectedProvider(nil).
            ae.getAuthentication()
            _ = try await app.waitFor("displayProviderDialog")
            ae.setSelectedProvider(nil)
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))")

            // getAuthorization authenticates first, then bob is denied movies with the MVPD's message (status Z100).
            ae.getAuthorization("movies")
            _ = try await app.waitFor("displayProviderDialog", count: 2)
            ae.setSelectedProvider("DemoCable")
            #expect(try await app.waitFor("tokenRequestFailed") == "tokenRequestFailed(movies,\(USER_NOT_AUTHORIZED_ERROR))")
            _ = try await app.waitFor("status(Z100)")
            #expect((app.read { $0.lastStatus }[STATUS_MESSAGE_KEY] as? String)?.contains("TV-MA") == true)
        }
    }
}
