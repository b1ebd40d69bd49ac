import EntitleClients
import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// DemoStream, the demo world's OAuth 2.0 MVPD: the DemoMVPD's authorization-code provider, through the real service
/// over REST v2 and REST v1's browser leg, with REST authorization on the user's behalf.
@Suite struct DemoStreamFlowTests {
    @Test func erinSignsInWithOAuth2AndWatches() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            let (_, outcome) = try await host.signIn(tv, mvpd: "DemoStream", user: "erin")
            guard case .external(let redirect) = outcome else { throw BrowserError("no return to the app: \(outcome)") }
            #expect(redirect == "adobepass://ios.app")
            let profile = try #require(try await tv.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self).profiles["DemoStream"])
            #expect(profile.attributes["userID"]?.value == .string("dst-erin-93c1"))
            #expect(profile.attributes["householdID"]?.value == .string("H-4001"))
            #expect(profile.attributes["maxRating"]?.value == .object(["VCHIP": .string("TV-MA")]))
            #expect(profile.attributes["zip"]?.state == .encrypted)
            let decisions = try await tv.decisions("authorize", mvpd: "DemoStream", resources: ["movies"]).decode(DecisionsResponse.self)
            #expect(decisions.decisions.first?.authorized == true && decisions.decisions.first?.token != nil, "\(decisions)")
        }
    }

    @Test func restV1SecondScreenSignInWithTheOAuth2MVPD() async throws {
        try await LocalService.run { host in
            let rest = try await host.client(device: "stb-erin")
            let tv = LegacyV1Client(host: host, identity: .bearer(rest), deviceID: "stb-erin")
            let created = try await tv.call(
                .POST, "/reggie/v1/REF/regcode", [("deviceId", "stb-erin"), ("registrationURL", "http://127.0.0.1/activate")])
            let code = try #require(created.json?["code"] as? String)
            guard case .page(let landed) = try await tv.login(code: code, mvpd: "DemoStream", user: "erin") else {
                throw BrowserError("the browser did not land")
            }
            #expect(landed.url == host.baseURL + "/authenticated?mvpd=DemoStream")
            #expect(try await tv.device(.GET, "/api/v1/tokens/authn").json?["mvpd"] as? String == "DemoStream")
            let authorized = try await tv.device(.GET, "/api/v1/authorize", [("resource", "movies")])
            #expect(authorized.status == 200, "\(authorized.text)")
            #expect(try await tv.device(.GET, "/api/v1/tokens/media", [("resource", "movies")]).status == 200)
            let metadata = try await tv.device(.GET, "/api/v1/tokens/usermetadata")
            #expect(metadata.status == 200 && metadata.text.contains("TV-MA"), "\(metadata.text)")
            #expect(try await tv.device(.DELETE, "/api/v1/logout").status == 204)
        }
    }

    @Test func degradationRulesApplyToTheOAuth2MVPD() async throws {
        try await LocalService.run { host in
            let now = host.clock.now()
            let signedIn = try await host.client()
            _ = try await host.signIn(signedIn, mvpd: "DemoStream", user: "frank")
            try await host.service.support.setDegradation(
                requestor: "REF", mvpd: "DemoStream", rule: "authn-all", start: now.addingTimeInterval(-1), end: now.addingTimeInterval(600))
            let tv = try await host.client()
            let session = try await tv.createSession(mvpd: "DemoStream", redirectURL: nil).decode(SessionResponse.self)
            #expect(session.actionName == "authorize" && session.reasonType == "degraded")
            try await host.service.support.setDegradation(
                requestor: "REF", mvpd: "DemoStream", rule: "authz-none", start: now.addingTimeInterval(-1), end: now.addingTimeInterval(600))
            let denied = try await signedIn.decisions("authorize", mvpd: "DemoStream", resources: ["sports"]).decode(DecisionsResponse.self)
                .decisions[0]
            #expect(!denied.authorized && denied.error?.code == "authorization_denied_by_degradation_rule")
        }
    }

    @Test func franksPackageIsAskedOnHisBehalf() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            _ = try await host.signIn(tv, mvpd: "DemoStream", user: "frank")
            let items = try await tv.decisions("authorize", mvpd: "DemoStream", resources: ["sports", "news"]).decode(DecisionsResponse.self)
                .decisions
            #expect(items.first { $0.resource == "sports" }?.authorized == true)
            let news = try #require(items.first { $0.resource == "news" })
            #expect(!news.authorized)
            #expect(news.error?.code == "authorization_denied_by_mvpd", "\(items)")
        }
    }

    @Test func aWrongPasswordStaysAtTheProviderAndASubscriberOfAnotherMVPDCannotSignIn() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            let (_, wrong) = try await host.signIn(tv, mvpd: "DemoStream", user: "erin", password: "nope")
            guard case .page(let page) = wrong else { throw BrowserError("a wrong password signed in") }
            #expect(page.status == 401 && page.body.contains("Wrong username or password"))
            let (_, other) = try await host.signIn(tv, mvpd: "DemoStream", user: "alice")
            guard case .page = other else { throw BrowserError("alice signed in at DemoStream") }
        }
    }

    @Test func theProviderRefusesAForeignRedirectURIAndAMissingPKCEChallenge() async throws {
        try await LocalService.run { host in
            let base = host.baseURL + "/demo-mvpd/DemoStream/oauth2/authorize?response_type=code&client_id=entitle-demo"
            guard case .page(let foreign) = try await host.browser().get(base + "&redirect_uri=https%3A%2F%2Fevil.example%2Fcb") else {
                throw BrowserError("redirected to a foreign URI")
            }
            #expect(foreign.status == 400)
            let callback = FormURLEncoding.escape(host.service.oauth2MVPDs.redirectURI)
            guard case .page(let noPKCE) = try await host.browser().get(base + "&redirect_uri=\(callback)&state=s") else {
                throw BrowserError("no page")
            }
            // Back to Entitle's callback with error=invalid_request: a state that is not Entitle's is refused there.
            #expect(noPKCE.url.hasPrefix(host.service.oauth2MVPDs.redirectURI) && noPKCE.status == 400, "\(noPKCE.url)")
        }
    }
}
