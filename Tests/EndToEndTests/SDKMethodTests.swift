import AccessEnabler
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import Synchronization
import Testing

/// The AccessEnabler's methods one by one against the real service and DemoMVPD in process: `setOptions`, the
/// provider selection, `handleExternalURL`, `navigate(toUrl:useSVC:)`, `getAuthentication` variants,
/// `getAuthorization` / `checkAuthorization` with data, `checkPreauthorizedResources` and its cache flag.
@Suite struct SDKMethodTests {
    @Test func setOptionsValuesTravelWithEveryCallAndCanChangeAtAnyTime() async throws {
        try await LocalService.run { service in
            let plain = SDKProbe(service: service)
            try await plain.configure()
            #expect(
                plain.wire.all.allSatisfy { $0.request.header("AP-Application-Profile") == nil && $0.request.header("AP-Visitor-Identifier") == nil })

            let app = SDKProbe(service: service)
            app.enabler.setOptions([OPTION_APPLICATION_PROFILE: "kids-app", OPTION_VISITOR_ID: "ECID-0001"])
            try await app.configure()
            try await app.signIn()
            app.enabler.getAuthorization("news")
            try await app.waitFor("setToken(news)")
            let calls = app.wire.exchanges("/api/v2/")
            #expect(calls.count >= 5)
            for call in calls {
                #expect(call.request.header("AP-Application-Profile") == "kids-app", "\(call.request.method) \(call.path)")
                #expect(call.request.header("AP-Visitor-Identifier") == "ECID-0001", "\(call.request.method) \(call.path)")
            }
            // The registration calls carry the device headers (see the disabled test below for the options).
            #expect(app.wire.exchanges("/o/client/").count >= 2)
            #expect(app.wire.exchanges("/o/client/").allSatisfy { $0.request.header("X-Device-Info") != nil })

            let mark = app.wire.all.count
            app.enabler.setOptions([OPTION_APPLICATION_PROFILE: "sports-app"])
            app.enabler.checkPreauthorizedResources(["news", "sports"], cache: false)
            #expect(try await app.waitFor("preauthorizedResources") == "preauthorizedResources(news,sports)")
            let later = app.wire.all.dropFirst(mark)
            #expect(!later.isEmpty)
            #expect(later.allSatisfy { $0.request.header("AP-Application-Profile") == "sports-app" })
            #expect(later.allSatisfy { $0.request.header("AP-Visitor-Identifier") == "ECID-0001" })

            // A key that is not an option is not sent, and the app is told so (status OPT404), not left guessing.
            app.enabler.setOptions(["favouriteColour": "blue", OPTION_APPLICATION_PROFILE: "sports-app"])
            try await app.waitFor("status(OPT404)")
            let warning = app.statuses.withLock { $0 }.first { $0["errorId"] == "OPT404" }
            #expect(warning?["message"]?.contains("favouriteColour") == true && warning?["level"] == "warning")
            #expect(app.statuses.withLock { $0 }.filter { $0["errorId"] == "OPT404" }.count == 1, "the known key is no warning")
        }
    }

    /// The API reference (setOptions): "The values from the dictionary will be passed to the server along with every
    /// network call that the SDK makes."
    @Test
    func setOptionsValuesTravelWithTheRegistrationCallsToo() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            app.enabler.setOptions([OPTION_APPLICATION_PROFILE: "kids-app", OPTION_VISITOR_ID: "ECID-0001"])
            try await app.configure()
            let registration = app.wire.exchanges("/o/client/")
            #expect(registration.count >= 2)
            #expect(registration.allSatisfy { $0.request.header("AP-Application-Profile") == "kids-app" })
            #expect(registration.allSatisfy { $0.request.header("AP-Visitor-Identifier") == "ECID-0001" })
        }
    }

    @Test func deviceInfoOptionReplacesTheComputedHeader() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            let computed = try #require(app.wire.all.first?.request.header("X-Device-Info"))
            #expect(try DeviceInfo.decode(header: computed).applicationId == "tv.reference.app")

            let custom = DeviceInfo(
                primaryHardwareType: "SetTopBox", model: "AppleTV6,2", osName: "tvOS", osVersion: "17.0",
                applicationId: "tv.reference.app"
            ).headerValue()
            let mark = app.wire.all.count
            app.enabler.setOptions([OPTION_DEVICE_INFO: custom])
            app.enabler.setRequestor("REF")
            try await app.waitFor("setRequestorComplete", count: 2)
            try await app.signIn(mvpd: "TempPass")
            let later = app.wire.all.dropFirst(mark)
            #expect(!later.isEmpty)
            #expect(later.allSatisfy { $0.request.header("X-Device-Info") == custom })
            let configuration = try app.wire.lastBody("/configuration", as: ConfigurationResponse.self)
            #expect([configuration.device, configuration.os] == ["SetTopBox", "tvOS"])
        }
    }

    @Test func handleSVCSendsNavigateUseSVCForDemoFiberOnly() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service, redirectURL: "entitle-demo://callback")
            app.enabler.setOptions([OPTION_HANDLE_SVC: true])
            try await app.configure()
            try await app.signIn(mvpd: "DemoFiber", user: "carol")
            let fiber = try #require(app.navigations.withLock { $0.first })
            #expect(fiber.useSVC)
            #expect(fiber.url.hasPrefix(service.baseURL + "/api/v2/authenticate/REF/"))
            #expect(app.lines("navigate(").isEmpty)
            // The SFSafariViewController login ends on the app's custom scheme, which completes it.
            #expect(app.browserEndings.withLock { $0 }.first?.hasPrefix("entitle-demo://callback") == true)
            let session = try #require(app.wire.exchanges("/sessions", method: "POST").last?.request.body)
            #expect(String(decoding: session, as: UTF8.self).contains("redirectUrl=entitle-demo%3A%2F%2Fcallback"))

            // An MVPD that does not need SFSafariViewController keeps the plain web view.
            app.enabler.getAuthentication(true, withData: nil)
            try await app.waitFor("displayProviderDialog")
            try await app.signIn(mvpd: "DemoCable", user: "alice")
            let cable = try #require(app.navigations.withLock { $0.last })
            #expect(cable.useSVC == false)
            #expect(app.lines("navigate(").count == 1)
            #expect(app.browserEndings.withLock { $0 }.last == ADOBEPASS_REDIRECT_URL)
        }
    }

    @Test func withoutHandleSVCDemoFiberUsesNavigateAndTheCustomSchemeCompletesIt() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service, redirectURL: "entitle-demo://callback")
            app.play.withLock { $0 = .manual }
            try await app.configure()
            app.enabler.setSelectedProvider("DemoFiber")
            let line = try await app.waitFor("navigate")
            #expect(line.hasPrefix("navigate(\(service.baseURL)/api/v2/authenticate/REF/"))
            let url = try #require(app.navigations.withLock { $0.first?.url })
            let ending = try await app.browseLogin(url, user: "carol")
            #expect(ending.hasPrefix("entitle-demo://callback"))
            // The custom scheme with a trailing slash is the same redirect URL.
            app.enabler.handleExternalURL("entitle-demo://callback/")
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(1,)")
            #expect(await app.enabler.authenticatedMVPD() == "DemoFiber")
        }
    }

    @Test func handleExternalURLIgnoresForeignURLsAndAcceptsATrailingSlash() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            let ending = try await app.browseLogin(try await app.openLoginPageByHand())
            #expect(ending == ADOBEPASS_REDIRECT_URL)
            for foreign in ["https://example.com/ios.app", "adobepass://android.app", "entitle-other://callback", "ios.app", ""] {
                app.enabler.handleExternalURL(foreign)
            }
            try await app.settle()
            #expect(app.lines("setAuthenticationStatus").isEmpty)
            #expect(app.wire.exchanges("/profiles/DemoCable").isEmpty)

            app.enabler.handleExternalURL(ending + "/")
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(1,)")
            // The flow completes once: a second redirect changes nothing.
            app.enabler.handleExternalURL(ending)
            try await app.settle()
            #expect(app.lines("setAuthenticationStatus").count == 1)
            #expect(app.wire.exchanges("/profiles/DemoCable").count == 1)
        }
    }

    @Test func theLegacyHTTPRedirectURLCompletesTheLogin() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            _ = try await app.browseLogin(try await app.openLoginPageByHand())
            app.enabler.handleExternalURL("http://adobepass.ios.app/")
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(1,)")
        }
    }

    @Test func anErrorOnTheRedirectURLFailsTheLogin() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            _ = try await app.openLoginPageByHand()
            app.enabler.handleExternalURL(ADOBEPASS_REDIRECT_URL + "?error=access_denied")
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))")
            #expect(app.lines("status(N130)").count == 1)
        }
    }

    @Test func setSelectedProviderNilCancelsAndTheAbandonedLoginIsIgnored() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            app.play.withLock { $0 = .manual }
            try await app.configure()
            app.enabler.getAuthentication()
            try await app.waitFor("displayProviderDialog")
            app.enabler.setSelectedProvider("DemoCable")
            try await app.waitFor("navigate(")
            app.enabler.setSelectedProvider(nil)
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))")

            // The user finished the page anyway: the reset state machine ignores the redirect.
            let ending = try await app.browseLogin(try #require(app.navigations.withLock { $0.first?.url }))
            app.enabler.handleExternalURL(ending)
            try await app.settle()
            #expect(app.lines("setAuthenticationStatus").count == 1)
            #expect(await app.enabler.authenticatedMVPD() == nil)

            // An unknown MVPD fails; a new selection works.
            app.enabler.setSelectedProvider("NoSuchMVPD")
            // (the second status was the answer of authenticatedMVPD()).
            #expect(try await app.waitFor("setAuthenticationStatus", count: 3) == "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))")
            try await app.signIn()
        }
    }

    @Test func cancellingTheAsyncAuthenticateCancelsTheFlow() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            app.play.withLock { $0 = .manual }
            let mvpds = try await app.enabler.configure(requestorID: "REF")
            #expect(try await app.enabler.providers() == mvpds)
            let flow = Task { try await app.enabler.authenticate(mvpd: "DemoCable") }
            try await app.waitFor("navigate(")
            flow.cancel()
            do {
                _ = try await flow.value
                Issue.record("a cancelled flow must not succeed")
            } catch {
                #expect((error as? AccessEnablerError)?.code == AccessEnablerError.Code.cancelled, "\(error)")
            }
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))")
            #expect(await app.enabler.authenticatedMVPD() == nil)
        }
    }

    @Test func getSelectedProviderFollowsTheLogin() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            app.enabler.getSelectedProvider()
            #expect(try await app.waitFor("selectedProvider") == "selectedProvider(nil)")
            try await app.signIn(mvpd: "DemoFiber", user: "carol")
            app.enabler.getSelectedProvider()
            #expect(try await app.waitFor("selectedProvider", count: 2) == "selectedProvider(DemoFiber)")
            let mvpd = try #require(app.selections.withLock { $0.last } ?? nil)
            let configured = try #require(
                try app.wire.lastBody("/configuration", as: ConfigurationResponse.self)
                    .requestor.mvpds.first { $0.id == "DemoFiber" })
            #expect(mvpd == MVPD(configuration: configured))
            #expect(mvpd.displayName == "Demo Fiber" && mvpd.requiresSafariViewController && !mvpd.isTempPass)
            #expect(try await app.enabler.selectedMVPD()?.ID == "DemoFiber")
            try await app.enabler.signOut()
            app.enabler.getSelectedProvider()
            #expect(try await app.waitFor("selectedProvider", count: 4) == "selectedProvider(nil)")
        }
    }

    @Test func displayProviderDialogListsTheConfiguredMVPDsAndNoPlatformPicker() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            app.enabler.getAuthentication([TV_PROVIDERS: ["DemoSSO"], FEATURED_TV_PROVIDERS: ["DemoSSO"]])
            try await app.waitFor("displayProviderDialog")
            let listed = try #require(app.providerLists.withLock { $0.first })
            let configured = try app.wire.lastBody("/configuration", as: ConfigurationResponse.self).requestor.mvpds
            #expect(listed == configured.map(MVPD.init(configuration:)))
            #expect(Set(listed.map(\.ID)) == ["DemoCable", "DemoFiber", "DemoSSO", "DemoStream", "TempPass", "TempPassPromo"])
            let sso = try #require(listed.first { $0.ID == "DemoSSO" })
            #expect(sso.enablePlatformServices && sso.boardingStatus == "SUPPORTED")
            #expect(listed.first { $0.ID == "TempPass" }?.isTempPass == true)
            // No Apple VSA framework here: the classic picker, never the platform one.
            #expect(app.lines("presentTvProviderDialog").isEmpty && app.lines("dismissTvProviderDialog").isEmpty)
        }
    }

    @Test func getAuthorizationAuthenticatesFirstInCookbookOrder() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            app.enabler.getAuthorization("news")
            try await app.waitFor("displayProviderDialog")
            app.enabler.setSelectedProvider("DemoCable")
            try await app.waitFor("setToken(news)")
            let order = app.log.filter { !$0.hasPrefix("status") && !$0.hasPrefix("sendTracking") }
                .map { String($0.prefix { $0 != "(" }) }
            #expect(order == ["setRequestorComplete", "displayProviderDialog", "navigate", "setAuthenticationStatus", "setToken"])
            #expect(app.tokens.withLock { $0["news"] }?.isEmpty == false)

            // Authenticated now: getAuthentication answers at once, forceAuthn shows the picker again.
            app.enabler.getAuthentication()
            #expect(try await app.waitFor("setAuthenticationStatus", count: 2) == "setAuthenticationStatus(1,)")
            app.enabler.getAuthentication(true, withData: nil)
            try await app.waitFor("displayProviderDialog", count: 2)
            app.enabler.setSelectedProvider(nil)
            try await app.waitFor("setAuthenticationStatus(0,")
        }
    }

    @Test func withDataSendsThePromotionalTempPassIdentity() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            // The programmer hashes the identity (sha256("viewer@example.com"), computed with sha256sum) and may add
            // other values, of any type: the SDK sends the dictionary as given (protocol notes §9.1).
            let digest = "0ad80c7f6dff0dceded893acb06a69e86b27b9f978bc164cee272714dc4cac9b"
            let data: [String: any Sendable] = ["email": digest, "campaign": 7, "optIn": true]
            let identity = Data(#"{"campaign":7,"email":"\#(digest)","optIn":true}"#.utf8).base64EncodedString()
            app.enabler.getAuthentication(false, withData: data)
            try await app.waitFor("displayProviderDialog")
            app.enabler.setSelectedProvider("TempPassPromo")
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(1,)")
            #expect(app.lines("navigate").isEmpty)
            #expect(app.lines("status(N011)").count == 1)
            #expect(app.wire.exchanges("/sessions", method: "POST").last?.request.header("AP-TempPass-Identity") == identity)

            app.enabler.getAuthorization("news", withData: data)
            try await app.waitFor("setToken(news)")
            #expect(app.wire.exchanges("/decisions/authorize").last?.request.header("AP-TempPass-Identity") == identity)
            app.enabler.checkAuthorization("sports", withData: data)
            try await app.waitFor("setToken(sports)")
            #expect(app.wire.exchanges("/decisions/authorize").last?.request.header("AP-TempPass-Identity") == identity)
            app.enabler.checkAuthorization("movies")
            try await app.waitFor("setToken(movies)")
            #expect(app.wire.exchanges("/decisions/authorize").last?.request.header("AP-TempPass-Identity") == nil)
            #expect(app.lines("status(Z011)").count == 3)
            // The service keyed the pass on those values: a REST v2 client sending the same header finds it used up.
            let other = try await service.client()
            #expect(
                try await other.send(
                    .POST, "/api/v2/REF/sessions", form: [("mvpd", "TempPassPromo")], headers: [("AP-TempPass-Identity", identity)]
                ).status == 200)
            let profile = try #require(
                try await other.send(.GET, "/api/v2/REF/profiles/TempPassPromo").decode(ProfilesResponse.self).profiles["TempPassPromo"])
            #expect(profile.attributes["remaining_resources"]?.value == .string("0"))
        }
    }

    @Test func checkPreauthorizedResourcesUsesTheCacheUnlessToldNot() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            app.enabler.checkPreauthorizedResources(["news"])
            #expect(try await app.waitFor("preauthorizedResources") == "preauthorizedResources()")
            #expect(app.wire.exchanges("/decisions/preauthorize").isEmpty)

            try await app.signIn(user: "bob")
            func sentResources() throws -> [[String]] {
                try app.wire.exchanges("/decisions/preauthorize").map {
                    try JSONDecoder().decode(DecisionsRequest.self, from: $0.request.body ?? Data()).resources
                }
            }
            app.enabler.checkPreauthorizedResources(["news", "movies", "kids"])
            #expect(try await app.waitFor("preauthorizedResources", count: 2) == "preauthorizedResources(news)")
            #expect(try sentResources() == [["news", "movies", "kids"]])
            // Cached: the same answer, no call; only the resource never asked goes to the service.
            app.enabler.checkPreauthorizedResources(["movies", "news"])
            #expect(try await app.waitFor("preauthorizedResources", count: 3) == "preauthorizedResources(news)")
            app.enabler.checkPreauthorizedResources(["sports", "news"])
            #expect(try await app.waitFor("preauthorizedResources", count: 4) == "preauthorizedResources(sports,news)")
            #expect(try sentResources() == [["news", "movies", "kids"], ["sports"]])
            // cache: false always asks.
            app.enabler.checkPreauthorizedResources(["news", "movies"], cache: false)
            #expect(try await app.waitFor("preauthorizedResources", count: 5) == "preauthorizedResources(news)")
            #expect(try sentResources().last == ["news", "movies"])
            #expect(try await app.enabler.preauthorize(["sports", "movies"], cache: false) == ["sports"])
            #expect(try sentResources().count == 4)
        }
    }
}
