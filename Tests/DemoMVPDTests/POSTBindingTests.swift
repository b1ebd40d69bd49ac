import DemoMVPD
import EntitleCore
import Foundation
import Hummingbird
import HummingbirdTesting
import SAML
import Testing

@Suite("DemoMVPD takes AuthnRequests by the HTTP-POST binding")
struct POSTBindingTests {
    static let sso = "\(Fixture.baseURL)/DemoCable/saml/sso"

    /// Posts `samlRequest` (and `RelayState`) to the SSO URL, as an SP's auto-posting page does.
    static func post(_ browser: inout TestBrowser, _ samlRequest: String, relayState: String = "relay-post") async throws -> TestResponse {
        try await browser.postForm(sso, [("SAMLRequest", samlRequest), ("RelayState", relayState)])
    }

    /// Posts `samlRequest` and expects a 400 HTML page containing `message`, with no login form and no assertion.
    static func expectRefused(_ samlRequest: String, containing message: String) async throws {
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            let response = try await Self.post(&browser, samlRequest)
            #expect(response.status == .badRequest)
            #expect(response.text.contains(message), "page: \(response.text)")
            #expect(!response.text.contains("name=\"password\""))
            #expect(inputValue("SAMLResponse", in: response.text) == nil)
        }
    }

    @Test("the metadata lists an HTTP-POST SingleSignOnService beside the HTTP-Redirect one")
    func metadataOffersBothBindings() async throws {
        try await Fixture.application().test(.router) { client in
            let xml = try await client.executeRequest(uri: "/demo-mvpd/DemoCable/saml/metadata", method: .get, headers: [:], body: nil).text
            #expect(xml.contains("Binding=\"\(SAMLBinding.httpRedirect)\" Location=\"\(Self.sso)\""))
            #expect(xml.contains("Binding=\"\(SAMLBinding.httpPOST)\" Location=\"\(Self.sso)\""))
            let parsed = try IdentityProviderMetadata.parse(xml: xml)
            #expect(parsed.singleSignOnRedirectURL == Self.sso && parsed.singleSignOnPostURL == Self.sso)
        }
    }

    @Test("a signed request posted: login page, login, the assertion answers that request")
    func signedRequestSignsIn() async throws {
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            let request = Fixture.authnRequest()
            let page = try await Self.post(&browser, try request.postBindingValue(signer: Fixture.spIdentity))
            #expect(page.status == .ok)
            #expect(page.text.contains("name=\"password\""))
            #expect(inputValue("RelayState", in: page.text) == "relay-post")
            let posted = try await LoginFlowTests.submit(&browser, page: page, username: "alice", password: "alice-pass")
            #expect(posted.status == .ok)
            #expect(formAction(in: posted.text) == Fixture.acsURL)
            #expect(inputValue("RelayState", in: posted.text) == "relay-post")
            let samlResponse = try #require(inputValue("SAMLResponse", in: posted.text))
            let assertion = try Fixture.validator(providerID: "DemoCable")
                .validate(base64Response: samlResponse, expectedInResponseTo: request.id, now: Fixture.now)
            #expect(assertion.nameID == Fixture.subscriber("alice").userID)

            // With the IdP session, the next posted request is answered at once.
            let next = Fixture.authnRequest()
            let again = try await Self.post(&browser, try next.postBindingValue(signer: Fixture.spIdentity))
            let second = try #require(inputValue("SAMLResponse", in: again.text))
            _ = try Fixture.validator(providerID: "DemoCable").validate(base64Response: second, expectedInResponseTo: next.id, now: Fixture.now)
        }
    }

    @Test("an unsigned request is refused when the SP has a certificate")
    func unsignedRefused() async throws {
        try await Self.expectRefused(try Fixture.authnRequest().postBindingValue(signer: nil), containing: "is not correctly signed")
    }

    @Test("a request signed by another key, or changed after signing, is refused")
    func forgedRefused() async throws {
        try await Self.expectRefused(
            try Fixture.authnRequest().postBindingValue(signer: Fixture.otherIdentity), containing: "is not correctly signed")
        let signed = try Fixture.authnRequest().postBindingValue(signer: Fixture.spIdentity)
        let xml = String(decoding: try #require(Data(base64Encoded: signed)), as: UTF8.self)
        #expect(xml.contains("AllowCreate=\"true\""))
        let tampered = Data(xml.replacingOccurrences(of: "AllowCreate=\"true\"", with: "AllowCreate=\"false\"").utf8).base64EncodedString()
        try await Self.expectRefused(tampered, containing: "is not correctly signed")
    }

    @Test("a request posted a second time (replay) or too old is refused")
    func replayedRefused() async throws {
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            let value = try Fixture.authnRequest().postBindingValue(signer: Fixture.spIdentity)
            #expect(try await Self.post(&browser, value).status == .ok)
            let replay = try await Self.post(&browser, value)
            #expect(replay.status == .badRequest)
            #expect(replay.text.contains("already received"), "page: \(replay.text)")
            #expect(!replay.text.contains("name=\"password\""))
        }
        let stale = Fixture.authnRequest(at: Fixture.now.addingTimeInterval(-3600))
        try await Self.expectRefused(try stale.postBindingValue(signer: Fixture.spIdentity), containing: "too old")
    }

    @Test("missing and undecodable requests, and a request for another IdP")
    func malformedRefused() async throws {
        try await Self.expectRefused("", containing: "needs a SAML AuthnRequest")
        try await Self.expectRefused("not-base64!!", containing: "could not be read")
        try await Self.expectRefused(Data("<xml/>".utf8).base64EncodedString(), containing: "could not be read")
        let fiber = Fixture.authnRequest(providerID: "DemoFiber")
        try await Self.expectRefused(try fiber.postBindingValue(signer: Fixture.spIdentity), containing: "is addressed to")
    }
}
