import DemoMVPD
import Foundation
import Hummingbird
import HummingbirdTesting
import SAML
import Testing

@Suite("DemoMVPD Single Logout")
struct SingleLogoutTests {
    static func logoutURL(
        providerID: String = "DemoFiber", nameID: String, signer: SigningIdentity? = Fixture.spIdentity,
        issuer: String = Fixture.spEntityID, relayState: String? = "after-logout"
    ) throws -> (LogoutRequest, String) {
        let request = LogoutRequest(
            id: AuthnRequest.newID(), issueInstant: Fixture.now, issuer: issuer,
            destination: "\(Fixture.baseURL)/\(providerID)/saml/slo", nameID: nameID,
            sessionIndex: nil)
        return (request, try request.redirectURL(relayState: relayState, signer: signer))
    }

    @Test("SLO ends the DemoFiber session and answers with a signed LogoutResponse to the SP")
    func roundTrip() async throws {
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            let (_, page) = try await LoginFlowTests.openLogin(&browser, providerID: "DemoFiber")
            _ = try await LoginFlowTests.submit(
                &browser, page: page, providerID: "DemoFiber", username: "carol",
                password: "carol-pass")
            #expect(browser.cookies["demo_mvpd_session_DemoFiber"] != nil)
            #expect(try await browser.get("\(Fixture.baseURL)/DemoFiber/account").text.contains("H-2001"))

            let carol = Fixture.subscriber("carol").userID
            let (logoutRequest, url) = try Self.logoutURL(nameID: carol)
            let response = try await browser.get(url)
            #expect(response.status == .found)
            let location = try #require(response.headers[.location])
            #expect(location.hasPrefix(Fixture.sloURL + "?"))
            let query = queryItems(of: location)
            #expect(query["RelayState"] == "after-logout")
            #expect(query["Signature"] != nil)
            let logoutResponse = try LogoutResponse.fromRedirect(query: query, verifyWith: [Fixture.idpIdentity.certificate])
            #expect(logoutResponse.inResponseTo == logoutRequest.id)
            #expect(logoutResponse.success)
            #expect(logoutResponse.issuer == "\(Fixture.baseURL)/DemoFiber")
            #expect(logoutResponse.destination == Fixture.sloURL)
            #expect(throws: SAMLError.self) {
                try LogoutResponse.fromRedirect(query: query, verifyWith: [Fixture.otherIdentity.certificate])
            }

            #expect(browser.cookies["demo_mvpd_session_DemoFiber"] == nil)
            #expect(try await browser.get("\(Fixture.baseURL)/DemoFiber/account").text.contains("You are not signed in"))
            // The next login needs the form again.
            let (_, again) = try await LoginFlowTests.openLogin(&browser, providerID: "DemoFiber")
            #expect(again.text.contains("name=\"password\""))
        }
    }

    @Test("SLO refuses untrusted or badly signed requests and is 404 where the MVPD has no SLO")
    func rejections() async throws {
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            let carol = Fixture.subscriber("carol").userID
            let untrusted = try Self.logoutURL(nameID: carol, issuer: "https://evil.example/saml").1
            #expect(try await browser.get(untrusted).status == .badRequest)
            let unsigned = try Self.logoutURL(nameID: carol, signer: nil).1
            #expect(try await browser.get(unsigned).status == .badRequest)
            let wrongKey = try Self.logoutURL(nameID: carol, signer: Fixture.otherIdentity).1
            #expect(try await browser.get(wrongKey).status == .badRequest)
            #expect(try await browser.get("\(Fixture.baseURL)/DemoFiber/saml/slo").status == .badRequest)
            let cable = try Self.logoutURL(providerID: "DemoCable", nameID: Fixture.subscriber("alice").userID).1
            #expect(try await browser.get(cable).status == .notFound)
        }
    }
}
