import EntitleCore
import Foundation
import Testing
@testable import AccessEnabler

@Suite struct EngineAuthorizationTests {
    @Test func checkAuthorizationWithoutAuthenticationFailsWithoutAPicker() async throws {
        let harness = Harness()
        await harness.configure()
        harness.enabler.checkAuthorization("news")
        await harness.recorder.waitFor("tokenRequestFailed(news,User Not Authenticated Error,)")
        #expect(!harness.recorder.entries.contains { $0.hasPrefix("displayProviderDialog") })
        #expect(harness.service.requests(matching: "/decisions/authorize/DemoCable").isEmpty)
        await #expect(throws: AccessEnablerError.self) { try await harness.enabler.authorize("news") }
    }

    @Test func grantedAuthorizationDeliversAFreshMediaTokenEachTime() async throws {
        let harness = Harness()
        await harness.configure()
        await harness.authenticate()
        let first = try await harness.enabler.authorize("news")
        let second = try await harness.enabler.authorize("news")
        #expect(first.hasPrefix("media-news-") && second.hasPrefix("media-news-") && first != second)
        #expect(harness.service.requests(matching: "/decisions/authorize/DemoCable").count == 2)
        let body = try JSONDecoder().decode(
            DecisionsRequest.self, from: try #require(harness.service.requests(matching: "/decisions/authorize/DemoCable").first?.body))
        #expect(body.resources == ["news"])
        harness.enabler.checkAuthorization("sports")
        await harness.recorder.waitFor("setToken(sports)")
        #expect(harness.recorder.entries.contains("sendTrackingData(1,9)"))
    }

    @Test func denialCarriesTheMVPDMessageAndZ100() async throws {
        let harness = Harness()
        await harness.configure()
        await harness.authenticate()
        harness.enabler.getAuthorization("movies")
        await harness.recorder.waitFor("tokenRequestFailed(movies,User not Authorized Error,Your Demo Cable package does not include movies.)")
        #expect(harness.recorder.entries.contains("status(Z100)"))
        do { _ = try await harness.enabler.authorize("movies"); Issue.record("expected denial") } catch {
            #expect(error.code == .notAuthorized && error.details == "Your Demo Cable package does not include movies.")
        }
    }

    @Test func getAuthorizationAuthenticatesFirstThenContinues() async throws {
        let harness = Harness()
        await harness.configure()
        harness.enabler.getAuthorization("news")
        await harness.recorder.waitFor("displayProviderDialog(DemoCable,DemoFiber,DemoSSO,TempPass)")
        await harness.authenticate()
        await harness.recorder.waitFor("setToken(news)")
        let log = harness.recorder.entries
        #expect(log.firstIndex(of: "setAuthenticationStatus(1,)")! < log.firstIndex(of: "setToken(news)")!)
    }

    @Test func getAuthorizationFailsWhenTheUserCancels() async throws {
        let harness = Harness()
        await harness.configure()
        harness.enabler.getAuthorization("news")
        await harness.recorder.waitFor("displayProviderDialog(DemoCable,DemoFiber,DemoSSO,TempPass)")
        harness.enabler.setSelectedProvider(nil)
        await harness.recorder.waitFor("tokenRequestFailed(news,User Not Authenticated Error,)")
    }

    @Test func expiredProfileOnTheServerForgetsTheLocalOne() async throws {
        let harness = Harness()
        await harness.configure()
        await harness.authenticate()
        harness.service.update { $0.profiles = [:] }
        harness.enabler.checkAuthorization("news")
        await harness.recorder.waitFor("tokenRequestFailed(news,User Not Authenticated Error,The authenticated profile is missing.)")
        #expect(await harness.enabler.authenticatedMVPD() == nil)
    }

    @Test func tempPassAuthorizationReportsZ011() async throws {
        let harness = Harness()
        await harness.configure()
        harness.enabler.setSelectedProvider("TempPass")
        await harness.recorder.waitFor("setAuthenticationStatus(1,)")
        harness.enabler.checkAuthorization("movies")
        await harness.recorder.waitFor("setToken(movies)")
        #expect(harness.recorder.entries.contains("status(Z011)"))
    }

    @Test func preauthorizationReturnsTheAuthorizedSubsetAndHonoursTheCacheFlag() async throws {
        let harness = Harness()
        await harness.configure()
        #expect(try await harness.enabler.preauthorize(["news", "movies"]) == [])
        await harness.authenticate()
        harness.enabler.checkPreauthorizedResources(["movies", "news", "sports"])
        await harness.recorder.waitFor("preauthorizedResources(news,sports)")
        #expect(try await harness.enabler.preauthorize(["sports", "movies"], cache: true) == ["sports"])
        #expect(harness.service.requests(matching: "/decisions/preauthorize/DemoCable").count == 1)
        #expect(try await harness.enabler.preauthorize(["sports", "movies"], cache: false) == ["sports"])
        #expect(harness.service.requests(matching: "/decisions/preauthorize/DemoCable").count == 2)
    }

    @Test func metadataFromTheProfileAndDecisions() async throws {
        let harness = Harness()
        await harness.configure()
        #expect(try await harness.enabler.metadata([METADATA_OPCODE_KEY: METADATA_AUTHENTICATION]).value == nil)
        await harness.authenticate()
        _ = try await harness.enabler.authorize("news")
        let nowMs = Int64(harness.clock.now().timeIntervalSince1970 * 1000)
        #expect(try await harness.enabler.metadata([METADATA_OPCODE_KEY: METADATA_AUTHENTICATION]).value == .string(String(nowMs + 86_400_000)))
        #expect(
            try await harness.enabler.metadata([METADATA_OPCODE_KEY: METADATA_AUTHORIZATION, METADATA_RESOURCE_ID_KEY: "news"]).value
                == .string(String(nowMs + 3_600_000)))
        #expect(
            try await harness.enabler.metadata([METADATA_OPCODE_KEY: Int(METADATA_AUTHORIZATION), METADATA_RESOURCE_ID_KEY: "movies"]).value == nil)
        #expect(try await harness.enabler.metadata([METADATA_OPCODE_KEY: METADATA_DEVICE_ID]).value == nil)  // not enabled
        #expect(try await harness.enabler.userMetadata("householdID") == MetadataResult(value: .string("H-1001"), encrypted: false))
        #expect(try await harness.enabler.userMetadata("zip") == MetadataResult(value: .string("Q0lQSEVSVEVYVA=="), encrypted: true))
        #expect(try await harness.enabler.userMetadata("channelID").value == .array([.string("news"), .string("sports")]))
        harness.enabler.getMetadata([METADATA_OPCODE_KEY: Int(METADATA_USER_META), METADATA_USER_META_KEY: "zip"])
        await harness.recorder.waitFor("setMetadataStatus(Q0lQSEVSVEVYVA==,true,3)")
        harness.enabler.getMetadata(["bogus": 1])
        await harness.recorder.waitFor("setMetadataStatus(nil,false,255)")
    }

    @Test func getSelectedProviderAndLogout() async throws {
        let harness = Harness()
        await harness.configure()
        await harness.authenticate()
        harness.enabler.getSelectedProvider()
        await harness.recorder.waitFor("selectedProvider(DemoCable)")
        harness.recorder.clear()
        try await harness.enabler.signOut()
        // iOS-style: the logout page goes through navigate(toUrl:) even without Single Logout, and the status follows
        // its redirect through handleExternalURL (the async signOut returned already: the sign-in is gone).
        await harness.recorder.waitFor("navigate") { $0.contains { $0.hasPrefix("navigate(") && $0.contains("/adobe-services/logout?") } }
        #expect(await harness.enabler.authenticatedMVPD() == nil)
        harness.enabler.handleExternalURL(ADOBEPASS_REDIRECT_URL)
        await harness.recorder.waitFor("setAuthenticationStatus(0,User Not Authenticated Error)")
        #expect(harness.service.requests(matching: "/logout/DemoCable").first?.url.query == "redirectUrl=adobepass%3A%2F%2Fios.app")
    }

    @Test func logoutWithAPageWipesFirstAndCompletesOnRedirect() async throws {
        let harness = Harness()
        await harness.configure()
        await harness.authenticate("DemoFiber")
        harness.recorder.clear()
        harness.enabler.logout()
        harness.enabler.checkAuthentication()
        await harness.recorder.waitFor("navigate(http://fake/adobe-services/logout?mso_id=DemoFiber)")
        #expect(harness.recorder.entries.first == "setAuthenticationStatus(0,User Not Authenticated Error)")
        harness.enabler.handleExternalURL(ADOBEPASS_REDIRECT_URL)
        await harness.recorder.waitFor("second") { $0.filter { $0 == "setAuthenticationStatus(0,User Not Authenticated Error)" }.count == 2 }
    }

    @Test func platformSSOLogoutReportsVSA203() async throws {
        let harness = Harness()
        await harness.configure()
        await harness.authenticate("DemoSSO")
        harness.enabler.logout()
        await harness.recorder.waitFor("status(VSA203)")
    }
}
