import AccessEnabler
import EntitleCore
import EntitleHost
import EntitleTesting
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

    /// `TRACKING_AUTHORIZATION` field 3, "token already in cache": false for the first authorization of a resource,
    /// true while its decision is still valid on the device.
    @Test func authorizationTrackingTellsWhetherTheDecisionWasCached() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            try await app.signIn()
            app.enabler.checkAuthorization("news")
            _ = try await app.waitFor("setToken(news)")
            app.enabler.checkAuthorization("news")
            try await app.waitFor("sendTrackingData(\(TRACKING_AUTHORIZATION)", count: 2)
            let cachedFlags = app.tracking.withLock { $0 }.filter { $0.event == TRACKING_AUTHORIZATION }.map { $0.data[3] }
            #expect(cachedFlags == ["false", "true"])
        }
    }
}
