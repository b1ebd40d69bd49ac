import DemoMVPD
import EntitleCore
import Foundation
import Hummingbird
import HummingbirdTesting
import SAML
import Testing

@Suite("DemoMVPD refuses bad AuthnRequests")
struct AuthnRequestRejectionTests {
    /// GETs the SSO URL and expects a 400 HTML page containing `message`, with no login form and no assertion.
    static func expectRefused(_ url: String, containing message: String, signedRequests: Bool = true) async throws {
        try await Fixture.application(signedRequests: signedRequests).test(.router) { client in
            var browser = TestBrowser(client)
            let response = try await browser.get(url)
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(response.text.contains(message), "page: \(response.text)")
            #expect(!response.text.contains("name=\"password\""))
            #expect(inputValue("SAMLResponse", in: response.text) == nil)
        }
    }

    @Test("an SP that is not trusted")
    func untrustedServiceProvider() async throws {
        let request = Fixture.authnRequest(issuer: "https://evil.example/saml")
        try await Self.expectRefused(
            try request.redirectURL(relayState: nil, signer: Fixture.spIdentity),
            containing: "is not allowed to sign in with Demo Cable")
    }

    @Test("an ACS URL that is not the SP's registered one")
    func wrongAssertionConsumerService() async throws {
        let request = Fixture.authnRequest(acs: "https://evil.example/steal")
        try await Self.expectRefused(
            try request.redirectURL(relayState: nil, signer: Fixture.spIdentity),
            containing: "which is not the registered address")
        let lookalike = Fixture.authnRequest(acs: Fixture.acsURL + "/")
        try await Self.expectRefused(
            try lookalike.redirectURL(relayState: nil, signer: Fixture.spIdentity),
            containing: "which is not the registered address")
    }

    @Test("an unsigned request when the SP has a certificate, or one signed by another key")
    func badSignatures() async throws {
        let request = Fixture.authnRequest()
        try await Self.expectRefused(
            try request.redirectURL(relayState: "x", signer: nil),
            containing: "is not correctly signed")
        try await Self.expectRefused(
            try request.redirectURL(relayState: "x", signer: Fixture.otherIdentity),
            containing: "is not correctly signed")
        // Tampered RelayState after signing.
        let signed = try request.redirectURL(relayState: "x", signer: Fixture.spIdentity)
        try await Self.expectRefused(
            signed.replacingOccurrences(of: "RelayState=x", with: "RelayState=y"),
            containing: "is not correctly signed")
    }

    @Test("an unsigned request is accepted when the SP has no certificates")
    func unsignedAllowed() async throws {
        try await Fixture.application(signedRequests: false).test(.router) { client in
            var browser = TestBrowser(client)
            let url = try Fixture.authnRequest().redirectURL(relayState: nil, signer: nil)
            let page = try await browser.get(url)
            #expect(page.status == .ok)
            #expect(page.text.contains("name=\"password\""))
        }
    }

    @Test("missing, undecodable and stale requests")
    func malformedRequests() async throws {
        let sso = "\(Fixture.baseURL)/DemoCable/saml/sso"
        try await Self.expectRefused(sso, containing: "needs a SAML AuthnRequest")
        try await Self.expectRefused(sso + "?SAMLRequest=not-base64!!", containing: "could not be read")
        try await Self.expectRefused(
            sso + "?SAMLRequest=" + FormURLEncoding.escape(Data("<xml/>".utf8).base64EncodedString()),
            containing: "could not be read")
        let stale = Fixture.authnRequest(at: Fixture.now.addingTimeInterval(-3600))
        try await Self.expectRefused(
            try stale.redirectURL(relayState: nil, signer: Fixture.spIdentity),
            containing: "too old")
    }

    @Test("a request addressed to another MVPD")
    func wrongDestination() async throws {
        let request = Fixture.authnRequest(providerID: "DemoFiber")
        let url = try request.redirectURL(relayState: nil, signer: Fixture.spIdentity)
            .replacingOccurrences(of: "/DemoFiber/", with: "/DemoCable/")
        try await Self.expectRefused(url, containing: "not to Demo Cable")
    }

    @Test("unknown MVPD ids are 404")
    func unknownProvider() async throws {
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            let url = try Fixture.authnRequest(providerID: "NoSuchTV").redirectURL(relayState: nil, signer: Fixture.spIdentity)
            #expect(try await browser.get(url).status == .notFound)
            #expect(try await browser.get("\(Fixture.baseURL)/NoSuchTV/saml/metadata").status == .notFound)
        }
    }
}
