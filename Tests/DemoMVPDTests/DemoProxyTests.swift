import DemoMVPD
import EntitleCore
import Foundation
import Hummingbird
import HummingbirdTesting
import SAML
import Testing

/// Demo Proxy, the DemoMVPD's proxy MVPD: it signs in the proxied MVPD the AuthnRequest's Scoping names and answers in
/// its name, ends that MVPD's session at Single Logout, and decides authorization for its proxied MVPDs' subscribers.
@Suite("DemoMVPD proxy")
struct DemoProxyTests {
    static let valley = "\(Fixture.baseURL)/DemoValley"

    /// A signed AuthnRequest to Demo Proxy whose Scoping names `providerID` (none when nil), as a redirect URL.
    static func proxyRequest(naming providerID: String?) throws -> (AuthnRequest, String) {
        var request = Fixture.authnRequest(providerID: "DemoProxy")
        if let providerID { request.scoping = .init(providerID: providerID, name: "Valley Cable", requesterID: "REF") }
        return (request, try request.redirectURL(relayState: "relay-proxy", signer: Fixture.spIdentity))
    }

    @Test("the proxy signs in the proxied MVPD its Scoping names, answers in its name, and ends its session at SLO")
    func signInAndLogoutThroughTheProxy() async throws {
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            // Without Scoping, or naming an MVPD the proxy does not sign in: refused; a proxied MVPD has no SSO endpoint.
            let (_, unscoped) = try Self.proxyRequest(naming: nil)
            let refused = try await browser.get(unscoped)
            #expect(refused.status == .badRequest && refused.text.contains("No TV provider chosen"), "\(refused.text)")
            let (_, unknown) = try Self.proxyRequest(naming: "\(Fixture.baseURL)/DemoCable")
            #expect(try await browser.get(unknown).status == .badRequest)
            #expect(try await browser.get("\(Fixture.baseURL)/DemoValley/saml/sso").status == .notFound)
            #expect(try await browser.get("\(Fixture.baseURL)/DemoValley/saml/metadata").status == .notFound)
            #expect(try await browser.get("\(Fixture.baseURL)/DemoValley/logo.svg").text.contains("Valley Cable"))

            let (authn, url) = try Self.proxyRequest(naming: Self.valley)
            let page = try await browser.get(url)
            #expect(page.status == .ok && page.text.contains("Valley Cable") && formAction(in: page.text) == "login")
            // Only Valley Cable's subscribers sign in there.
            let wrong = try await LoginFlowTests.submit(&browser, page: page, providerID: "DemoProxy", username: "heidi", password: "heidi-pass")
            #expect(wrong.status == .unauthorized)
            let posted = try await LoginFlowTests.submit(&browser, page: wrong, providerID: "DemoProxy", username: "grace", password: "grace-pass")
            #expect(posted.status == .ok && formAction(in: posted.text) == Fixture.acsURL)
            let samlResponse = try #require(inputValue("SAMLResponse", in: posted.text))
            let xml = String(decoding: Data(base64Encoded: samlResponse) ?? Data(), as: UTF8.self)
            #expect(xml.contains("NameQualifier=\"\(Self.valley)\""))
            // Issued and signed as Valley Cable with the proxy's key: valid for the validator of Valley Cable.
            let assertion = try Fixture.validator(providerID: "DemoValley")
                .validate(base64Response: samlResponse, expectedInResponseTo: authn.id, now: Fixture.now)
            #expect(assertion.issuer == Self.valley && assertion.nameID == Fixture.subscriber("grace").userID)
            #expect(browser.cookies["demo_mvpd_session_DemoValley"] != nil)
            #expect(browser.cookieAttributes["demo_mvpd_session_DemoValley"]?.contains("path=/demo-mvpd/demoproxy") == true)

            // Single sign-on from that session: the next request naming Valley Cable needs no form.
            let (_, again) = try Self.proxyRequest(naming: Self.valley)
            let signedOn = try await browser.get(again).text
            #expect(inputValue("SAMLResponse", in: signedOn) != nil)

            // SLO at the proxy, the NameID qualified with Valley Cable: answered in Valley Cable's name, session over.
            var logout = LogoutRequest(
                id: AuthnRequest.newID(), issueInstant: Fixture.now, issuer: Fixture.spEntityID,
                destination: "\(Fixture.baseURL)/DemoProxy/saml/slo", nameID: Fixture.subscriber("grace").userID, sessionIndex: nil)
            logout.nameQualifier = Self.valley
            let answered = try await browser.get(try logout.redirectURL(relayState: "after", signer: Fixture.spIdentity))
            #expect(answered.status == .found)
            let location = try #require(answered.headers[.location])
            let logoutResponse = try LogoutResponse.fromRedirect(query: queryItems(of: location), verifyWith: [Fixture.idpIdentity.certificate])
            #expect(logoutResponse.inResponseTo == logout.id && logoutResponse.success && logoutResponse.issuer == Self.valley)
            #expect(browser.cookies["demo_mvpd_session_DemoValley"] == nil)
            let (_, afterLogout) = try Self.proxyRequest(naming: Self.valley)
            #expect(try await browser.get(afterLogout).text.contains("name=\"password\""))
        }
    }

    /// Demo Proxy's JSON decision for `user` and `resource`.
    static func decide(_ client: any TestClientProtocol, _ user: String, _ resource: String) async throws -> String {
        let body = "{\"userID\":\"\(Fixture.subscriber(user).userID)\",\"resource\":\"\(resource)\"}"
        return try await client.executeRequest(
            uri: "/demo-mvpd/DemoProxy/authorize", method: .post,
            headers: [.authorization: "Bearer \(Fixture.apiKey)", .contentType: "application/json"], body: ByteBuffer(string: body)
        ).text
    }

    @Test("the proxy decides for the subscribers of its proxied MVPDs")
    func authorizationAtTheProxy() async throws {
        try await Fixture.application().test(.router) { client in
            let grace = try await Self.decide(client, "grace", "sports")
            let heidiMovies = try await Self.decide(client, "heidi", "movies")
            let heidiSports = try await Self.decide(client, "heidi", "sports")
            // A subscriber of an MVPD the proxy does not proxy is unknown there.
            let alice = try await Self.decide(client, "alice", "news")
            #expect(grace.contains("\"authorized\":true") && heidiMovies.contains("\"authorized\":true"), "\(grace) \(heidiMovies)")
            #expect(heidiSports.contains("not_entitled") && alice.contains("unknown_user"), "\(heidiSports) \(alice)")
        }
    }
}
