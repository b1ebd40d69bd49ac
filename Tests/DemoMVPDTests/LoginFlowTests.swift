import DemoMVPD
import EntitleCore
import Foundation
import Hummingbird
import HummingbirdTesting
import SAML
import Testing

@Suite("DemoMVPD SAML login")
struct LoginFlowTests {
    /// Opens the SSO URL of a fresh signed AuthnRequest and returns the request and the login page.
    static func openLogin(
        _ browser: inout TestBrowser, providerID: String = "DemoCable", relayState: String? = "relay-123",
        forceAuthn: Bool = false
    ) async throws -> (AuthnRequest, TestResponse) {
        let request = Fixture.authnRequest(providerID: providerID, forceAuthn: forceAuthn)
        let url = try request.redirectURL(relayState: relayState, signer: Fixture.spIdentity)
        return (request, try await browser.get(url))
    }

    /// Submits the login form of `page` with the given credentials.
    static func submit(
        _ browser: inout TestBrowser, page: TestResponse, providerID: String = "DemoCable",
        username: String, password: String
    ) async throws -> TestResponse {
        let html = page.text
        let fields = ["SAMLRequest", "RelayState", "csrf"].map { ($0, inputValue($0, in: html) ?? "") }
        return try await browser.postForm(
            "\(Fixture.baseURL)/\(providerID)/saml/login",
            [("username", username), ("password", password)] + fields)
    }

    @Test("login page, login, signed assertion with the subscriber's attributes")
    func fullRoundTrip() async throws {
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            let (authn, page) = try await Self.openLogin(&browser)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            let html = page.text
            #expect(html.contains("Demo Cable"))
            #expect(html.contains("<label for=\"username\">") && html.contains("<label for=\"password\">"))
            #expect(html.contains("name=\"viewport\""))
            #expect(formAction(in: html) == "login")
            #expect(inputValue("RelayState", in: html) == "relay-123")
            #expect(browser.cookies["demo_mvpd_csrf"] != nil)

            let posted = try await Self.submit(&browser, page: page, username: "alice", password: "alice-pass")
            #expect(posted.status == .ok)
            #expect(formAction(in: posted.text) == Fixture.acsURL)
            #expect(inputValue("RelayState", in: posted.text) == "relay-123")
            let samlResponse = try #require(inputValue("SAMLResponse", in: posted.text))

            let sessionCookie = "demo_mvpd_session_DemoCable"
            #expect(browser.cookies[sessionCookie] != nil)
            let attributes = browser.cookieAttributes[sessionCookie] ?? ""
            #expect(attributes.contains("httponly"))
            #expect(attributes.contains("samesite=lax"))
            #expect(attributes.contains("path=/demo-mvpd/democable"))

            let assertion = try Fixture.validator(providerID: "DemoCable")
                .validate(base64Response: samlResponse, expectedInResponseTo: authn.id, now: Fixture.now)
            let alice = Fixture.subscriber("alice")
            #expect(assertion.nameID == alice.userID)
            #expect(assertion.nameID != "alice")
            #expect(assertion.issuer == "\(Fixture.baseURL)/DemoCable")
            #expect(assertion.attributes["userID"] == [alice.userID])
            #expect(assertion.attributes["householdID"] == ["H-1001"])
            #expect(assertion.attributes["zip"] == ["10001"])
            #expect(assertion.attributes["maxRating"] == ["TV-MA"])
            #expect(Set(assertion.attributes["channelID"] ?? []) == ["news", "sports", "movies"])
            #expect(assertion.attributes["upstreamUserID"] == [alice.userID])
            #expect(assertion.sessionIndex?.isEmpty == false)
            #expect(assertion.sessionNotOnOrAfter != nil)
        }
    }

    @Test("an existing session skips the form; ForceAuthn shows it again")
    func singleSignOnWithSession() async throws {
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            let (_, page) = try await Self.openLogin(&browser)
            _ = try await Self.submit(&browser, page: page, username: "bob", password: "bob-pass")

            let (second, again) = try await Self.openLogin(&browser, relayState: "second")
            #expect(again.status == .ok)
            #expect(inputValue("password", in: again.text) == nil)
            let samlResponse = try #require(inputValue("SAMLResponse", in: again.text))
            let assertion = try Fixture.validator(providerID: "DemoCable")
                .validate(base64Response: samlResponse, expectedInResponseTo: second.id, now: Fixture.now)
            #expect(assertion.nameID == Fixture.subscriber("bob").userID)
            #expect(assertion.attributes["maxRating"] == ["TV-PG"])
            #expect(inputValue("RelayState", in: again.text) == "second")

            let (_, forced) = try await Self.openLogin(&browser, forceAuthn: true)
            #expect(inputValue("SAMLResponse", in: forced.text) == nil)
            #expect(forced.text.contains("name=\"password\""))

            // The DemoCable session is no session at DemoFiber.
            let (_, fiber) = try await Self.openLogin(&browser, providerID: "DemoFiber")
            #expect(inputValue("SAMLResponse", in: fiber.text) == nil)
            #expect(fiber.text.contains("Demo Fiber"))
        }
    }

    @Test("an expired session cookie is not reused")
    func expiredSession() async throws {
        let clock = TestClock(Fixture.now)
        try await Fixture.application(clock: clock).test(.router) { client in
            var browser = TestBrowser(client)
            let (_, page) = try await Self.openLogin(&browser)
            _ = try await Self.submit(&browser, page: page, username: "alice", password: "alice-pass")
            clock.advance(by: 9 * 3600)
            let request = Fixture.authnRequest(at: clock.now())
            let again = try await browser.get(try request.redirectURL(relayState: nil, signer: Fixture.spIdentity))
            #expect(inputValue("SAMLResponse", in: again.text) == nil)
            #expect(again.text.contains("name=\"password\""))
        }
    }

    @Test(
        "wrong password, unknown user and another MVPD's subscriber get the login page again with 401",
        arguments: [("alice", "wrong"), ("mallory", "alice-pass"), ("carol", "carol-pass"), ("ALICE ", "alice-pass ")])
    func wrongCredentials(username: String, password: String) async throws {
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            let (_, page) = try await Self.openLogin(&browser)
            let failed = try await Self.submit(&browser, page: page, username: username, password: password)
            #expect(failed.status == .unauthorized)
            #expect(failed.text.contains("The username or password is incorrect"))
            #expect(failed.text.contains("name=\"password\""))
            #expect(inputValue("SAMLResponse", in: failed.text) == nil)
            #expect(browser.cookies["demo_mvpd_session_DemoCable"] == nil)
            // The page is usable again.
            let retried = try await Self.submit(&browser, page: failed, username: "alice", password: "alice-pass")
            #expect(inputValue("SAMLResponse", in: retried.text) != nil)
        }
    }

    @Test("alice cannot log in at Demo Fiber; carol can")
    func subscribersOnlyAtTheirMVPD() async throws {
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            let (authn, page) = try await Self.openLogin(&browser, providerID: "DemoFiber")
            let alice = try await Self.submit(
                &browser, page: page, providerID: "DemoFiber", username: "alice",
                password: "alice-pass")
            #expect(alice.status == .unauthorized)
            let carol = try await Self.submit(
                &browser, page: alice, providerID: "DemoFiber", username: "carol",
                password: "carol-pass")
            let samlResponse = try #require(inputValue("SAMLResponse", in: carol.text))
            let assertion = try Fixture.validator(providerID: "DemoFiber")
                .validate(base64Response: samlResponse, expectedInResponseTo: authn.id, now: Fixture.now)
            #expect(assertion.attributes["householdID"] == ["H-2001"])
        }
    }

    @Test("a login post without the CSRF cookie, with a forged token or a swapped SAMLRequest is refused")
    func csrfProtection() async throws {
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            let (_, page) = try await Self.openLogin(&browser)
            let html = page.text
            let good = ["SAMLRequest", "RelayState", "csrf"].map { ($0, inputValue($0, in: html) ?? "") }
            let loginURL = "\(Fixture.baseURL)/DemoCable/saml/login"
            let credentials = [("username", "alice"), ("password", "alice-pass")]

            var stranger = TestBrowser(client)
            let noCookie = try await stranger.postForm(loginURL, credentials + good)
            #expect(noCookie.status == .forbidden)

            let forged = good.map { $0.0 == "csrf" ? ($0.0, "9999999999.AAAA") : $0 }
            #expect(try await browser.postForm(loginURL, credentials + forged).status == .forbidden)

            let other = Fixture.authnRequest(acs: Fixture.acsURL)
            let otherSAMLRequest = queryItems(of: try other.redirectURL(relayState: nil, signer: nil))["SAMLRequest"] ?? ""
            let swapped = good.map { $0.0 == "SAMLRequest" ? ($0.0, otherSAMLRequest) : $0 }
            #expect(try await browser.postForm(loginURL, credentials + swapped).status == .forbidden)

            let relaySwapped = good.map { $0.0 == "RelayState" ? ($0.0, "evil") : $0 }
            #expect(try await browser.postForm(loginURL, credentials + relaySwapped).status == .forbidden)

            #expect(try await browser.postForm(loginURL, credentials + good).status == .ok)
        }
    }

    @Test("a login page left open too long expires")
    func expiredLoginForm() async throws {
        let clock = TestClock(Fixture.now)
        try await Fixture.application(clock: clock).test(.router) { client in
            var browser = TestBrowser(client)
            let (_, page) = try await Self.openLogin(&browser)
            clock.advance(by: 31 * 60)
            let late = try await Self.submit(&browser, page: page, username: "alice", password: "alice-pass")
            #expect(late.status == .forbidden)
            #expect(late.text.contains("expired"))
        }
    }

    @Test("the account page shows the package after login and a sign-in link before")
    func accountPage() async throws {
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            let anonymous = try await browser.get("\(Fixture.baseURL)/DemoSSO/account")
            #expect(anonymous.status == .ok)
            #expect(anonymous.text.contains("You are not signed in"))
            #expect(anonymous.text.contains("href=\"login\""))

            let loginPage = try await browser.get("\(Fixture.baseURL)/DemoSSO/login")
            #expect(formAction(in: loginPage.text) == "saml/login")
            let signedIn = try await Self.submit(
                &browser, page: loginPage, providerID: "DemoSSO", username: "dave",
                password: "dave-pass")
            #expect(signedIn.status == .seeOther)
            #expect(signedIn.headers[.location] == "\(Fixture.baseURL)/DemoSSO/account")

            let account = try await browser.get("\(Fixture.baseURL)/DemoSSO/account")
            #expect(account.text.contains("H-3001"))
            #expect(account.text.contains("<li>news</li>") && account.text.contains("<li>movies</li>"))
            #expect(!account.text.contains("<li>sports</li>"))
            #expect(account.text.contains("TV-14"))

            let loggedOut = try await browser.postForm("\(Fixture.baseURL)/DemoSSO/logout", [])
            #expect(loggedOut.status == .seeOther)
            #expect(try await browser.get("\(Fixture.baseURL)/DemoSSO/account").text.contains("You are not signed in"))
        }
    }

    @Test("a tampered session cookie is ignored")
    func tamperedSessionCookie() async throws {
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            let (_, page) = try await Self.openLogin(&browser)
            _ = try await Self.submit(&browser, page: page, username: "bob", password: "bob-pass")
            let cookie = try #require(browser.cookies["demo_mvpd_session_DemoCable"])
            // Swap bob's user id for alice's inside the payload, keeping bob's MAC.
            let parts = cookie.split(separator: ".")
            let payload = String(decoding: try #require(Data(base64URLEncoded: String(parts[0]))), as: UTF8.self)
            let forgedPayload = payload.replacingOccurrences(
                of: Fixture.subscriber("bob").userID,
                with: Fixture.subscriber("alice").userID)
            #expect(forgedPayload != payload)
            let forged = Data(forgedPayload.utf8).base64URLEncodedString()
            browser.cookies["demo_mvpd_session_DemoCable"] = "\(forged).\(parts[1])"
            let account = try await browser.get("\(Fixture.baseURL)/DemoCable/account")
            #expect(account.text.contains("You are not signed in"))
            let (_, again) = try await Self.openLogin(&browser)
            #expect(inputValue("SAMLResponse", in: again.text) == nil)
        }
    }
}
