import AccessEnabler
import EntitleCore
import EntitleHost
import Foundation
import Testing

/// Behaviours of the API reference the SDK once missed, each against the real service.
@Suite struct SDKSpecDeviationTests {
    /// `getSelectedProvider` reports the MVPD selected in a flow under way, not only an authenticated one.
    @Test func getSelectedProviderDuringALogin() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            _ = try await app.openLoginPageByHand("DemoCable")
            app.enabler.getSelectedProvider()
            #expect(try await app.waitFor("selectedProvider") == "selectedProvider(DemoCable)")
        }
    }

    /// `checkAuthorization` is among the triggers of `setAuthenticationStatus`: it reports the authentication status
    /// before the authorization result, signed in or not.
    @Test func checkAuthorizationReportsTheAuthenticationStatus() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            app.enabler.checkAuthorization("news")
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))")
            _ = try await app.waitFor("tokenRequestFailed(news")
            try await app.signIn()
            let before = app.lines("setAuthenticationStatus").count
            app.enabler.checkAuthorization("news")
            #expect(try await app.waitFor("setAuthenticationStatus", count: before + 1) == "setAuthenticationStatus(1,)")
            _ = try await app.waitFor("setToken(news)")
            let order = app.log.filter { $0.hasPrefix("setAuthenticationStatus") || $0.hasPrefix("setToken") }.suffix(2)
            #expect(Array(order) == ["setAuthenticationStatus(1,)", "setToken(news)"])
        }
    }
}
