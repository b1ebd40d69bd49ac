import AccessEnabler
import EntitleClients
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import Synchronization
import Testing

/// `logout` (with and without a logout page) and the other ways to receive the callbacks: closure observers and the
/// `events` stream, against the real service and DemoMVPD.
@Suite struct SDKLogoutAndEventTests {
    /// The profiles the service holds for the app's registration and device, asked with the SDK's own credentials.
    static func serviceProfiles(_ app: SDKProbe) async throws -> ProfilesResponse {
        let headers = try app.lastAPIHeaders().filter {
            ["authorization", "ap-device-identifier", "x-device-info", "user-agent"].contains($0.key.lowercased())
        }
        let request = HTTPRequest(method: "GET", url: URL(string: app.service.baseURL + "/api/v2/REF/profiles")!, headers: headers)
        return try JSONDecoder().decode(ProfilesResponse.self, from: try await URLSessionTransport().send(request).body)
    }

    /// The API reference (logout): the iOS AccessEnabler always drives the logout through `navigate(toUrl:)`, also
    /// for an MVPD without Single Logout, and "in the end" — when the page's redirect comes back through
    /// `handleExternalURL` — calls `setAuthenticationStatus(0)`.
    @Test func logoutOfAnMVPDWithoutSingleLogoutStillNavigatesToTheLogoutPage() async throws {
        try await LocalService.run { service in
            let manual = SDKProbe(service: service)
            try await manual.configure()
            try await manual.signIn()
            manual.play.withLock { $0 = .manual }
            manual.enabler.logout()
            try await manual.waitFor("navigate", count: 2)
            try await manual.settle()
            #expect(manual.lines("setAuthenticationStatus").count == 1, "no status before the logout page comes back")
            let page = try #require(manual.navigations.withLock { $0.last?.url })
            manual.enabler.handleExternalURL(try await manual.browseLogout(page))
            #expect(try await manual.waitFor("setAuthenticationStatus", count: 2) == "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))")

            let app = SDKProbe(service: service)
            try await app.configure()
            try await app.signIn()
            #expect(try await Self.serviceProfiles(app).profiles.keys.sorted() == ["DemoCable"])
            app.enabler.logout()
            #expect(try await app.waitFor("setAuthenticationStatus", count: 2) == "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))")
            #expect(app.navigations.withLock { $0.count } == 2)  // the login page, then the logout page
            #expect(app.navigations.withLock { $0.last?.url }?.hasPrefix(service.baseURL + "/adobe-services/logout?") == true)
            #expect(app.wire.exchanges("/api/v2/REF/logout/DemoCable").first?.response?.status == 200)
            #expect(try await Self.serviceProfiles(app).profiles.isEmpty)
            app.enabler.checkAuthorization("news")
            #expect(try await app.waitFor("tokenRequestFailed") == "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR),)")
        }
    }

    @Test func logoutOfDemoFiberGoesThroughTheLogoutPageAndHandleExternalURL() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service, redirectURL: "entitle-demo://callback")
            try await app.configure()
            try await app.signIn(mvpd: "DemoFiber", user: "carol")
            app.play.withLock { $0 = .manual }
            app.enabler.logout()
            try await app.waitFor("navigate", count: 2)
            let page = try #require(app.navigations.withLock { $0.last?.url })
            #expect(page.hasPrefix(service.baseURL + "/adobe-services/logout?"))
            // Local state is gone at once, but the flow ends only with the redirect.
            try await app.settle()
            #expect(app.lines("setAuthenticationStatus").count == 1)
            #expect(try await Self.serviceProfiles(app).profiles.isEmpty)

            // The browser follows the SAML Single Logout at DemoFiber; the service sends it on to the app's custom
            // scheme only after checking DemoFiber's signed LogoutResponse.
            let ending = try await app.browseLogout(page)
            #expect(ending.hasPrefix("entitle-demo://callback"))
            app.enabler.handleExternalURL(ending)
            #expect(try await app.waitFor("setAuthenticationStatus", count: 2) == "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))")
            let order = app.log.filter { !$0.hasPrefix("status") && !$0.hasPrefix("sendTracking") }.suffix(2).map { String($0.prefix { $0 != "(" }) }
            #expect(order == ["navigate", "setAuthenticationStatus"])
            #expect(await app.enabler.authenticatedMVPD() == nil)
        }
    }

    /// The API reference (logout): "The iOS AccessEnabler triggers the navigateToUrl: callback or the
    /// navigateToUrl:useSVC:" — with `handleSVC` true an MVPD that needs SFSafariViewController gets useSVC for its
    /// logout page too (the page ends on the app's custom scheme, which only an SFSafariViewController reaches).
    @Test
    func logoutOfDemoFiberWithHandleSVCUsesTheSafariViewController() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service, redirectURL: "entitle-demo://callback")
            app.enabler.setOptions([OPTION_HANDLE_SVC: true])
            try await app.configure()
            try await app.signIn(mvpd: "DemoFiber", user: "carol")
            app.enabler.logout()
            try await app.waitFor("setAuthenticationStatus", count: 2)
            #expect(app.navigations.withLock { $0.map(\.useSVC) } == [true, true])
        }
    }

    @Test func observersAndTheEventStreamSeeWhatTheDelegateSees() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            let observed = Mutex<[String]>([])
            let token = app.enabler.observe { event in observed.withLock { $0.append(event.name) } }
            let stream = app.enabler.events
            let collector = Task {
                var names: [String] = []
                for await event in stream {
                    names.append(event.name)
                    if case .setToken(let token, let resource) = event {
                        #expect(resource == "news" && !token.isEmpty)
                        break
                    }
                }
                return names
            }
            try await app.configure()
            try await app.signIn()
            app.enabler.getAuthorization("news")
            try await app.waitFor("sendTrackingData(\(TRACKING_AUTHORIZATION)")
            try await app.settle(200)
            let delegate = app.log.map(Self.eventName)
            #expect(
                delegate == [
                    "setRequestorComplete", "sendTrackingData", "navigate", "setAuthenticationStatus", "sendTrackingData",
                    "setToken", "sendTrackingData",
                ])
            #expect(observed.withLock { $0 } == delegate)
            let streamed = await collector.value
            #expect(streamed == Array(delegate.prefix(streamed.count)))
            #expect(streamed.last == "setToken")

            // A cancelled observer hears nothing more; the delegate still does.
            token.cancel()
            let before = observed.withLock { $0.count }
            app.enabler.checkAuthentication()
            try await app.waitFor("setAuthenticationStatus", count: 2)
            try await app.settle(200)
            #expect(observed.withLock { $0.count } == before)
        }
    }

    @Test func theAsyncStreamEndsWhenTheEnablerIsReleased() async throws {
        try await LocalService.run { service in
            var app: SDKProbe? = SDKProbe(service: service)
            let stream = try #require(app).enabler.events
            let collector = Task {
                var names: [String] = []
                for await event in stream { names.append(event.name) }
                return names
            }
            try await app?.configure()
            app = nil
            let names = try await withThrowingTaskGroup(of: [String].self) { group in
                group.addTask { await collector.value }
                group.addTask {
                    try await Task.sleep(for: .seconds(10))
                    throw BrowserError("the stream did not end")
                }
                defer { group.cancelAll() }
                return try await group.next() ?? []
            }
            #expect(names.first == "setRequestorComplete")
        }
    }

    /// `AccessEnablerEvent.name` of a delegate log line (`navigate(…)` → `navigate`, `status(Z100)` → `status:Z100`).
    static func eventName(_ line: String) -> String {
        let head = String(line.prefix { $0 != "(" })
        switch head {
        case "status": return "status:" + line.dropFirst("status(".count).dropLast()
        case "navigateSVC": return "navigateUseSVC"
        default: return head
        }
    }
}
