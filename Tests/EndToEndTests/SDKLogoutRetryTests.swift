import AccessEnabler
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import Testing

/// A logout whose call to the service fails must not come back: the next `setRequestor` does not restore the
/// profile the user logged out of; it retries the logout, and the app hears `LGO503` meanwhile.
@Suite struct SDKLogoutRetryTests {
    @Test func aFailedServerLogoutIsRetriedAndDoesNotComeBack() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            try await app.signIn()
            app.wire.unreachable.withLock { $0 = ["/logout/"] }
            app.enabler.logout()
            #expect(try await app.waitFor("setAuthenticationStatus", count: 2) == "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))")
            _ = try await app.waitFor("status(\(AccessEnablerStatus.ID.logoutPending))")
            #expect(app.statuses.withLock { $0.last?["mvpd"] } == "DemoCable")

            // The connection is back; the app comes to the foreground and calls setRequestor again.
            app.wire.unreachable.withLock { $0 = [] }
            app.enabler.setRequestor("REF")
            #expect(try await app.waitFor("setRequestorComplete", count: 2) == "setRequestorComplete(1)")
            app.enabler.checkAuthentication()
            #expect(try await app.waitFor("setAuthenticationStatus", count: 3) == "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))")
            #expect(app.wire.exchanges("/api/v2/REF/logout/DemoCable").contains { $0.response?.status == 200 })
            #expect(await app.enabler.authenticatedMVPD() == nil)
        }
    }
}
