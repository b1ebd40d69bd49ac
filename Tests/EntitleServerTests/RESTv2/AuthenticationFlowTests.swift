import _CryptoExtras
import EntitleClients
import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import MediaTokenVerifier
import Testing

/// The whole chain over real sockets: DCR, configuration, session, the browser leg through the DemoMVPD's login form
/// and the SAML POST, profiles, decisions with media tokens, preauthorization and logout.
@Suite struct AuthenticationFlowTests {
    @Test func aliceSignsInAndWatches() async throws {
        try await LocalService.run { host in
            let tv = try await host.client(redirectURI: "adobepass://ios.app")

            let configuration = try await tv.send(.GET, "/api/v2/REF/configuration").decode(ConfigurationResponse.self)
            let ids = configuration.requestor.mvpds.map(\.id)
            #expect(Set(ids) == ["DemoCable", "DemoFiber", "DemoSSO", "DemoStream", "TempPass", "TempPassPromo"])
            #expect(configuration.requestor.mvpds.first { $0.id == "DemoSSO" }?.enablePlatformServices == true)
            #expect(configuration.requestor.mvpds.first { $0.id == "DemoSSO" }?.boardingStatus == "SUPPORTED")
            #expect(configuration.requestor.mvpds.first { $0.id == "TempPass" }?.isTempPass == true)

            let (code, outcome) = try await host.signIn(tv, user: "alice")
            guard case .external(let redirect) = outcome else { Issue.record("browser did not reach the app: \(outcome)"); return }
            #expect(redirect == "adobepass://ios.app")

            let byCode = try await tv.send(.GET, "/api/v2/REF/profiles/code/\(code.lowercased())")
            #expect(byCode.status == 200)
            let profile = try #require(try byCode.decode(ProfilesResponse.self).profiles["DemoCable"])
            #expect(profile.type == "regular")
            #expect(profile.issuer == "DemoCable")
            #expect(profile.attributes["householdID"]?.value == .string("H-1001"))
            #expect(profile.attributes["maxRating"]?.value == .string("TV-MA"))
            let zip = try #require(profile.attributes["zip"])
            #expect(zip.state == "enc")
            let programmerKey = try String(contentsOfFile: host.dataDirectory + "/demo/programmer-key.pem", encoding: .utf8)
            let privateKey = try _RSA.Encryption.PrivateKey(pemRepresentation: programmerKey)
            let cipherText = try #require(zip.value.stringValue)
            let cipher = try #require(Data(base64Encoded: cipherText))
            #expect(String(decoding: try privateKey.decrypt(cipher, padding: .PKCS1_OAEP_SHA256), as: UTF8.self) == "10001")

            let all = try await tv.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self)
            #expect(all.profiles.keys.sorted() == ["DemoCable"])

            // A new session for an authenticated MVPD goes straight to authorization.
            let again = try await tv.createSession(mvpd: "DemoCable", redirectURL: "adobepass://ios.app").decode(SessionResponse.self)
            #expect(again.actionName == "authorize")
            #expect(again.reasonType == "authenticated")

            let decisions = try await tv.decisions("authorize", mvpd: "DemoCable", resources: ["news", "movies"])
            #expect(decisions.status == 200)
            let items = try decisions.decode(DecisionsResponse.self).decisions
            #expect(items.map(\.resource) == ["news", "movies"])
            #expect(items.allSatisfy { $0.authorized && $0.source == "mvpd" && $0.token != nil })

            // The media token verifies with the published certificates, for its resource only.
            let pem = try await tv.send(.GET, "/keys/media-token", authorized: false).text
            let verifier = MediaTokenVerifier(keys: try VerificationKeySet(pem: pem))
            let token = try #require(items[0].token?.serializedToken)
            let result = await verifier.verify(token, requestor: "REF", resource: "news", now: host.clock.now())
            #expect(result.status == .valid)
            #expect(result.mvpdID == "DemoCable")
            #expect(await verifier.verify(token, requestor: "REF", resource: "sports", now: host.clock.now()).status == .invalidResource)
            #expect(items[0].token!.notAfter - items[0].token!.notBefore == 7 * 60_000)

            let mrss =
                "<rss version=\"2.0\" xmlns:media=\"http://search.yahoo.com/mrss/\"><channel><title>sports</title><item><title>Final</title><guid>g-1</guid><media:rating scheme=\"urn:v-chip\">TV-PG</media:rating></item></channel></rss>"
            let pre = try await tv.decisions("preauthorize", mvpd: "DemoCable", resources: ["news", "sports", "movies", mrss, "<rss><channel>"])
            let preItems = try pre.decode(DecisionsResponse.self).decisions
            #expect(preItems.map(\.authorized) == [true, true, true, true, false])
            #expect(preItems.allSatisfy { $0.token == nil })
            #expect(preItems[4].error?.code == "invalid_parameter_resources")

            let logout = try await tv.send(.GET, "/api/v2/REF/logout/DemoCable?redirectUrl=adobepass%3A%2F%2Fios.app")
            #expect(try logout.decode(LogoutsResponse.self).logouts["DemoCable"]?.actionName == "complete")
            #expect(try await tv.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self).profiles.isEmpty)
            let afterLogout = try await tv.decisions("authorize", mvpd: "DemoCable", resources: ["news"])
            #expect(afterLogout.status == 403)
            #expect(try afterLogout.decode(EnhancedError.self).code == "authenticated_profile_missing")
        }
    }

    @Test func bobIsDeniedMoviesByParentalControls() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            _ = try await host.signIn(tv, user: "bob")
            let items = try await tv.decisions("authorize", mvpd: "DemoCable", resources: ["sports", "movies"]).decode(DecisionsResponse.self)
                .decisions
            #expect(items[0].authorized)
            #expect(!items[1].authorized)
            #expect(items[1].token == nil)
            #expect(items[1].error?.code == "authorization_denied_by_parental_controls")
            #expect(items[1].error?.status == 403)
            #expect(items[1].error?.details?.contains("TV-MA") == true)
        }
    }

    @Test func carolAtDemoFiberIsDeniedAnUnsubscribedChannelWithTheUpsellText() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            _ = try await host.signIn(tv, mvpd: "DemoFiber", user: "carol")
            let items = try await tv.decisions("authorize", mvpd: "DemoFiber", resources: ["news", "sports"]).decode(DecisionsResponse.self).decisions
            #expect(items[0].authorized)
            #expect(items[1].error?.code == "authorization_denied_by_mvpd")
            #expect(items[1].error?.details == "Your Demo Fiber package does not include sports.")
        }
    }

    @Test func secondScreenPollingByCode() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            let session = try await tv.createSession(mvpd: nil, redirectURL: nil).decode(SessionResponse.self)
            #expect(session.actionName == "resume")
            #expect(session.missingParameters == ["mvpd", "redirectUrl"])
            let code = try #require(session.code)
            #expect(code.count == 8)
            let pending = try await tv.send(.GET, "/api/v2/REF/profiles/code/\(code)")
            #expect(pending.status == 404)

            // Another device cannot read the profile by guessing or knowing the code.
            let other = try await host.client()
            #expect(try await other.send(.GET, "/api/v2/REF/profiles/code/\(code)").status == 400)

            // The person picks Demo Cable on the activation link and signs in on a second screen.
            let browser = host.browser()
            let outcome = try await DemoSignIn.signIn(
                browser: browser, authenticationURL: host.baseURL + "/api/v2/authenticate/REF/\(code)?mvpd=DemoCable",
                username: "alice", password: "alice-pass")
            guard case .page(let page) = outcome else { Issue.record("expected the success page"); return }
            #expect(page.url.hasSuffix("/authenticated?mvpd=DemoCable"))
            let done = try await tv.send(.GET, "/api/v2/REF/profiles/code/\(code)")
            #expect(done.status == 200)
            #expect(try done.decode(ProfilesResponse.self).profiles["DemoCable"] != nil)
        }
    }

    @Test func tempPassAuthenticatesWithoutLoginAndExpires() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            let session = try await tv.createSession(mvpd: "TempPass", redirectURL: nil).decode(SessionResponse.self)
            #expect(session.actionName == "authorize")
            #expect(session.reasonType == "temporary")
            let profile = try #require(try await tv.send(.GET, "/api/v2/REF/profiles/TempPass").decode(ProfilesResponse.self).profiles["TempPass"])
            #expect(profile.type == "temporary")
            #expect(profile.notAfter - profile.notBefore == 10 * 60_000)
            let items = try await tv.decisions("authorize", mvpd: "TempPass", resources: ["movies"]).decode(DecisionsResponse.self).decisions
            #expect(items[0].authorized && items[0].source == "temppass" && items[0].token != nil)

            host.clock.advance(by: 11 * 60)
            let expired = try await tv.decisions("authorize", mvpd: "TempPass", resources: ["movies"])
            #expect(expired.status == 403)
            #expect(try expired.decode(EnhancedError.self).code == "temporary_access_duration_limit_exceeded")
            let retry = try await tv.createSession(mvpd: "TempPass", redirectURL: nil)
            #expect(retry.status == 403)
            #expect(try retry.decode(EnhancedError.self).code == "temporary_access_duration_limit_exceeded")
        }
    }

    @Test func singleLogoutAtDemoFiberGoesThroughTheMVPD() async throws {
        try await LocalService.run { host in
            let tv = try await host.client(redirectURI: "entitle-demo://callback")
            let browser = host.browser()
            let session = try await tv.createSession(mvpd: "DemoFiber", redirectURL: "entitle-demo://callback").decode(SessionResponse.self)
            _ = try await DemoSignIn.signIn(
                browser: browser, authenticationURL: host.baseURL + session.url!, username: "carol", password: "carol-pass")
            let logout = try await tv.send(.GET, "/api/v2/REF/logout/DemoFiber?redirectUrl=entitle-demo%3A%2F%2Fcallback")
            let action = try #require(try logout.decode(LogoutsResponse.self).logouts["DemoFiber"])
            #expect(action.actionName == "logout")
            #expect(action.actionType == "interactive")
            let end = try await browser.get(try #require(action.url))
            guard case .external(let redirect) = end else { Issue.record("logout did not come back to the app: \(end)"); return }
            #expect(redirect == "entitle-demo://callback")
            #expect(try await tv.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self).profiles.isEmpty)
        }
    }
}
