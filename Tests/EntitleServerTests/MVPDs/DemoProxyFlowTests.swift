import AsyncHTTPClient
import DemoMVPD
import EntitleClients
import EntitleCore
import EntitleDomain
import EntitleModel
import EntitleTesting
import Foundation
import SAML
import Testing

/// Demo Proxy, the demo world's proxy MVPD (the DemoMVPD playing Adobe's proxy SAML integration): its two proxied
/// MVPDs are in `REF`'s picker with their own names and logos (the proxy is not); a viewer signs in with one through the
/// proxy's endpoints, whose answer names it; authorization goes to the proxy's XACML endpoint and its answer must name
/// the proxied MVPD; logout ends the proxy's session through its Single Logout endpoint. On SQLite and PostgreSQL.
@Suite(.timeLimit(.minutes(5))) struct DemoProxyFlowTests {
    @Test func aViewerOfAProxiedMVPDSignsInIsAuthorizedAndLogsOutThroughTheDemoProxy() async throws {
        try await LocalService.run(demoProxy: true) { local in
            let base = local.baseURL + "/demo-mvpd"
            let tv = try await local.client(redirectURI: "entitle-demo://callback")

            // The picker: Valley Cable and Hills Fiber with their own names and logos, never the proxy.
            let configuration = try await tv.send(.GET, "/api/v2/REF/configuration")
            #expect(configuration.text.contains("Valley Cable") && configuration.text.contains("Hills Fiber"), "\(configuration.text)")
            #expect(configuration.text.contains(base + "/DemoValley/logo.svg"), "\(configuration.text)")
            #expect(!configuration.text.contains("DemoProxy") && !configuration.text.contains("Demo Proxy"), "\(configuration.text)")
            let valley = try #require(try await local.service.repository.catalogStore.mvpd(id: "DemoValley"))
            #expect(valley.proxyMvpdId == "DemoProxy" && valley.entityId == base + "/DemoValley")

            // The AuthnRequest goes to the proxy's SSO endpoint and names Valley Cable in its Scoping.
            let browser = local.browser()
            let session = try await tv.createSession(mvpd: "DemoValley", redirectURL: "entitle-demo://callback").decode(SessionResponse.self)
            guard case .page(let autoPost) = try await browser.get(local.baseURL + (session.url ?? "")),
                let requestForm = autoPost.forms.first(where: { $0["SAMLRequest"] != nil })
            else { Issue.record("no AuthnRequest form"); return }
            #expect(requestForm.action == base + "/DemoProxy/saml/sso")
            let authnRequest = try AuthnRequest.fromPOST(samlRequest: requestForm["SAMLRequest"] ?? "", verifyWith: [])
            #expect(authnRequest.scoping?.providerID == base + "/DemoValley" && authnRequest.scoping?.requesterID == "REF")

            // The proxy's login page is Valley Cable's; its answer names Valley Cable (Issuer and NameQualifier).
            guard case .page(let loginPage) = try await browser.submit(requestForm, from: autoPost),
                var login = loginPage.forms.first(where: { $0["password"] != nil })
            else { Issue.record("no login page"); return }
            #expect(loginPage.body.contains("Valley Cable"))
            login.set("username", "grace")
            login.set("password", "grace-pass")
            guard case .page(let answerPage) = try await browser.submit(login, from: loginPage),
                let answerForm = answerPage.forms.first(where: { $0["SAMLResponse"] != nil })
            else { Issue.record("no SAML answer"); return }
            let answer = String(decoding: Data(base64Encoded: answerForm["SAMLResponse"] ?? "") ?? Data(), as: UTF8.self)
            #expect(answer.contains("<saml:Issuer>\(base)/DemoValley</saml:Issuer>"), "\(answer)")
            #expect(answer.contains("NameQualifier=\"\(base)/DemoValley\""), "\(answer)")
            guard case .external(let back) = try await browser.submit(answerForm, from: answerPage) else {
                Issue.record("the sign-in did not come back to the app")
                return
            }
            #expect(back == "entitle-demo://callback")
            let profiles = try await tv.send(.GET, "/api/v2/REF/profiles/DemoValley").decode(ProfilesResponse.self).profiles
            #expect(profiles["DemoValley"]?.attributes["userID"]?.value == .string("dv-grace-4b17"), "\(profiles)")

            // Authorization: asked at the proxy's XACML endpoint, decided for Valley Cable's subscriber; the media token
            // names the proxied MVPD and its proxy.
            let demo = try #require(local.host.demo)
            let asked = demo.authorizationRequests.count
            let news = try await tv.decisions("authorize", mvpd: "DemoValley", resources: ["news"]).decode(DecisionsResponse.self).decisions[0]
            #expect(news.authorized && news.mvpd == "DemoValley", "\(news)")
            let token = try #require(news.token?.serializedToken)
            let tokenText = String(decoding: Data(base64Encoded: token) ?? Data(token.utf8), as: UTF8.self)
            #expect(tokenText.contains("<mvpdId>DemoValley</mvpdId><proxyMvpdId>DemoProxy</proxyMvpdId>"), "\(tokenText)")
            let movies = try await tv.decisions("authorize", mvpd: "DemoValley", resources: ["movies"]).decode(DecisionsResponse.self).decisions[0]
            #expect(!movies.authorized && movies.error != nil, "\(movies)")
            #expect(demo.authorizationRequests.count == asked + 2)

            // An answer in another name than the proxied MVPD's is refused: here Valley Cable's pushed ProviderID changes,
            // and the proxy still answers as the DemoMVPD's Valley Cable.
            let moved = try await local.service.proxyMVPDs.listXML(proxy: "DemoProxy")
                .replacingOccurrences(of: "ProviderID=\"\(base)/DemoValley\"", with: "ProviderID=\"urn:demo:elsewhere\"")
            try await local.service.proxyMVPDs.push(proxy: "DemoProxy", xml: moved, pushedBy: "test", actor: "test")
            let refused = try await tv.decisions("authorize", mvpd: "DemoValley", resources: ["sports"]).decode(DecisionsResponse.self).decisions[0]
            #expect(!refused.authorized && refused.error?.code == .networkReceivedError, "\(refused)")
            #expect(refused.error?.details?.contains("urn:demo:elsewhere") == true, "\(refused)")
            let restored = moved.replacingOccurrences(of: "ProviderID=\"urn:demo:elsewhere\"", with: "ProviderID=\"\(base)/DemoValley\"")
            try await local.service.proxyMVPDs.push(proxy: "DemoProxy", xml: restored, pushedBy: "test", actor: "test")
            let sports = try await tv.decisions("authorize", mvpd: "DemoValley", resources: ["sports"]).decode(DecisionsResponse.self).decisions[0]
            #expect(sports.authorized, "\(sports)")

            // The REST form through the proxy too: a proxied MVPD is asked at its proxy's endpoint in its proxy's protocol.
            var rest = MVPDUpdate()
            rest.authorizationURL = base + "/DemoProxy/rest/authz"
            rest.authorizationProtocol = .rest
            try await local.service.mvpds.update(id: "DemoProxy", rest, actor: "test")
            #expect(try await local.service.repository.catalogStore.mvpd(id: "DemoValley")?.authorizationUrl == base + "/DemoProxy/rest/authz")
            let viaREST = try await tv.decisions("authorize", mvpd: "DemoValley", resources: ["news", "movies"]).decode(DecisionsResponse.self)
            #expect(viaREST.decisions.map(\.authorized) == [true, false], "\(viaREST)")
            #expect(demo.authorizationRequests.count == asked + 6)

            // Logout: the LogoutRequest goes to the proxy's SLO endpoint naming Valley Cable as NameQualifier; the proxy's
            // signed answer brings the browser back to the app, and its session for Valley Cable is over.
            let logout = try await tv.send(.GET, "/api/v2/REF/logout/DemoValley?redirectUrl=entitle-demo%3A%2F%2Fcallback")
            let action = try #require(try logout.decode(LogoutsResponse.self).logouts["DemoValley"], "\(logout.text)")
            #expect(action.actionName == "logout")
            let logoutURL = try #require(action.url)
            let sloLocation = try await Self.redirects(local, from: logoutURL, until: base + "/DemoProxy/saml/slo?")
            let query = Dictionary(
                (URLComponents(string: sloLocation)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
            let logoutRequest = try LogoutRequest.fromRedirect(query: query, verifyWith: [])
            #expect(logoutRequest.destination == base + "/DemoProxy/saml/slo")
            #expect(logoutRequest.nameQualifier == base + "/DemoValley" && logoutRequest.nameID == "dv-grace-4b17", "\(logoutRequest)")
            guard case .external(let afterLogout) = try await browser.get(logoutURL) else {
                Issue.record("the logout did not come back to the app")
                return
            }
            #expect(afterLogout == "entitle-demo://callback")
            #expect(try await tv.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self).profiles.isEmpty)
            let again = try await tv.createSession(mvpd: "DemoValley", redirectURL: "entitle-demo://callback").decode(SessionResponse.self)
            guard case .page(let loginAgain) = try await browser.followingAutoPost(try await browser.get(local.baseURL + (again.url ?? ""))) else {
                Issue.record("no page")
                return
            }
            #expect(loginAgain.forms.contains { $0["password"] != nil }, "the proxy's session outlived the logout: \(loginAgain.body)")

            // The other proxied MVPD signs its own subscribers in through the same proxy; not Valley Cable's.
            let other = try await local.client()
            let wrong = try await local.signIn(other, mvpd: "DemoHills", user: "grace")
            guard case .page(let wrongPage) = wrong.outcome else { Issue.record("grace signed in at Hills Fiber"); return }
            #expect(wrongPage.status == 401 && wrongPage.body.contains("Hills Fiber"))
            let heidi = try await local.signIn(other, mvpd: "DemoHills", user: "heidi")
            guard case .external = heidi.outcome else { Issue.record("heidi did not sign in: \(heidi.outcome)"); return }
            let hills = try await other.decisions("authorize", mvpd: "DemoHills", resources: ["movies"]).decode(DecisionsResponse.self).decisions[0]
            #expect(hills.authorized, "\(hills)")
        }
    }

    /// Follows the redirects from `url` without a browser until one goes to a URL starting with `prefix`; returns it.
    static func redirects(_ local: LocalService, from url: String, until prefix: String) async throws -> String {
        var next = url
        for _ in 0..<5 {
            let response = try await local.httpClient.execute(HTTPClientRequest(url: next), timeout: .seconds(30))
            guard let location = response.headers.first(name: "Location") else { break }
            next = location.hasPrefix("/") ? local.baseURL + location : location
            if next.hasPrefix(prefix) { return next }
        }
        throw BrowserError("No redirect to \(prefix) from \(url).")
    }
}
