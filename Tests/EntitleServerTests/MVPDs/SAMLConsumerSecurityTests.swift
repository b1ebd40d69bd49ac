import EntitleClients
import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import SAML
import Testing

/// The Assertion Consumer Service refuses every forged, altered, replayed or unsolicited answer, and a refused
/// answer does not spoil the session: the genuine answer still completes it.
@Suite struct SAMLConsumerSecurityTests {
    /// Signs in up to the MVPD's auto-post page and returns the browser, that page and its form.
    func pendingAssertion(_ host: LocalService, _ tv: RESTClient) async throws -> (BrowserClient, BrowserClient.Page, HTMLForm, String) {
        let session = try await tv.createSession(mvpd: "DemoCable", redirectURL: "adobepass://ios.app").decode(SessionResponse.self)
        let browser = host.browser()
        let (post, samlForm) = try await DemoSignIn.loginUntilAssertion(
            browser: browser, authenticationURL: host.baseURL + session.url!, username: "alice", password: "alice-pass")
        return (browser, post, samlForm, session.code!)
    }

    func isRefused(_ outcome: BrowserClient.Outcome) -> Bool {
        if case .page(let page) = outcome { return page.status == 400 }
        return false
    }

    func profileCount(_ tv: RESTClient) async throws -> Int {
        try await tv.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self).profiles.count
    }

    func idpBuilder(_ host: LocalService, identity: SigningIdentity? = nil) throws -> SAMLResponseBuilder {
        let key = try String(contentsOfFile: host.dataDirectory + "/demo-mvpd/idp-key.pem", encoding: .utf8)
        let cert = try String(contentsOfFile: host.dataDirectory + "/demo-mvpd/idp-cert.pem", encoding: .utf8)
        return SAMLResponseBuilder(
            issuer: host.baseURL + "/demo-mvpd/DemoCable",
            signer: try identity ?? SigningIdentity(privateKeyPEM: key, certificatePEM: cert))
    }

    func inResponseTo(_ samlResponse: String) throws -> String {
        try #require(try peekResponse(base64Response: samlResponse).inResponseTo)
    }

    @Test func replayedResponseIsRefused() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            let (browser, page, form, _) = try await pendingAssertion(host, tv)
            guard case .external = try await browser.submit(form, from: page) else { Issue.record("first post failed"); return }
            #expect(isRefused(try await browser.submit(form, from: page)))
            #expect(isRefused(try await host.browser().submit(form, from: page)))
        }
    }

    @Test func tamperedResponseIsRefusedAndTheGenuineOneStillWorks() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            let (browser, page, form, _) = try await pendingAssertion(host, tv)
            let encoded = try #require(form["SAMLResponse"])
            let xml = String(decoding: try #require(Data(base64Encoded: encoded)), as: UTF8.self)
            #expect(xml.contains("TV-MA"))
            var tampered = form
            tampered.set("SAMLResponse", Data(xml.replacingOccurrences(of: "H-1001", with: "H-9999").utf8).base64EncodedString())
            #expect(isRefused(try await browser.submit(tampered, from: page)))
            #expect(try await profileCount(tv) == 0)
            guard case .external = try await browser.submit(form, from: page) else { Issue.record("genuine post failed"); return }
            #expect(try await profileCount(tv) == 1)
        }
    }

    @Test func responsesSignedByAnotherKeyOrForAnotherAudienceOrOutOfTimeAreRefused() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            let (browser, page, form, _) = try await pendingAssertion(host, tv)
            let original = try #require(form["SAMLResponse"])
            let requestID = try inResponseTo(original)
            let config = host.service.configuration
            let attributes = ["userID": ["evil"], "householdID": ["H-1"], "channelID": ["movies"], "maxRating": ["TV-MA"]]
            let stranger = try SigningIdentity.generate(commonName: "attacker", now: host.clock.now())
            let forged: [String] = [
                try idpBuilder(host, identity: stranger).success(
                    inResponseTo: requestID, destination: config.assertionConsumerServiceURL, audience: config.spEntityID, nameID: "evil",
                    sessionIndex: "s", attributes: attributes, now: host.clock.now(), sessionNotOnOrAfter: nil),
                try idpBuilder(host).success(
                    inResponseTo: requestID, destination: config.assertionConsumerServiceURL, audience: "https://other.example/sp",
                    nameID: "evil", sessionIndex: "s", attributes: attributes, now: host.clock.now(), sessionNotOnOrAfter: nil),
                try idpBuilder(host).success(
                    inResponseTo: requestID, destination: "https://other.example/acs", audience: config.spEntityID,
                    nameID: "evil", sessionIndex: "s", attributes: attributes, now: host.clock.now(), sessionNotOnOrAfter: nil),
                try idpBuilder(host).success(
                    inResponseTo: requestID, destination: config.assertionConsumerServiceURL, audience: config.spEntityID,
                    nameID: "evil", sessionIndex: "s", attributes: attributes, now: host.clock.now().addingTimeInterval(-3600),
                    sessionNotOnOrAfter: nil),
                try idpBuilder(host).success(
                    inResponseTo: requestID, destination: config.assertionConsumerServiceURL, audience: config.spEntityID,
                    nameID: "evil", sessionIndex: "s", attributes: attributes, now: host.clock.now().addingTimeInterval(3600),
                    sessionNotOnOrAfter: nil),
                try idpBuilder(host).success(
                    inResponseTo: "_0123456789abcdef0123456789abcdef", destination: config.assertionConsumerServiceURL,
                    audience: config.spEntityID, nameID: "evil", sessionIndex: "s", attributes: attributes, now: host.clock.now(),
                    sessionNotOnOrAfter: nil),
                try idpBuilder(host).success(
                    inResponseTo: nil, destination: config.assertionConsumerServiceURL, audience: config.spEntityID,
                    nameID: "evil", sessionIndex: "s", attributes: attributes, now: host.clock.now(), sessionNotOnOrAfter: nil),
                "not base64 !!!",
                Data("<samlp:Response xmlns:samlp=\"urn:oasis:names:tc:SAML:2.0:protocol\" InResponseTo=\"\(requestID)\"/>".utf8)
                    .base64EncodedString(),
                Data("<!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><r>&x;</r>".utf8).base64EncodedString(),
            ]
            for (index, response) in forged.enumerated() {
                var bad = form
                bad.set("SAMLResponse", response)
                #expect(isRefused(try await browser.submit(bad, from: page)), "forged response \(index) was accepted")
            }
            #expect(try await profileCount(tv) == 0)
            guard case .external = try await browser.submit(form, from: page) else { Issue.record("genuine post failed"); return }
            let profile = try await tv.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self).profiles["DemoCable"]
            #expect(profile?.attributes["userID"]?.value != .string("evil"))
        }
    }

    @Test func expiredSessionCannotBeCompleted() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            let (browser, page, form, _) = try await pendingAssertion(host, tv)
            host.clock.advance(by: 31 * 60)
            #expect(isRefused(try await browser.submit(form, from: page)))
        }
    }
}
