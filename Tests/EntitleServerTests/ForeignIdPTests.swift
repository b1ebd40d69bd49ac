import EntitleCore
import EntitleHost
import EntitleServer
import Foundation
import SAML
import Testing

/// A foreign SAML IdP (pysaml2-like): its attribute names are mapped to user metadata (per MVPD, with defaults for the
/// common names), and an MVPD without an authorization endpoint authorizes every authenticated subscriber only when
/// the operator says so.
@Suite struct ForeignIdPTests {
    /// Signs in as alice up to the MVPD's auto-post form; returns the browser, the page, the form and the request id.
    func pendingAssertion(_ host: TestHost, _ tv: RESTClient) async throws -> (BrowserClient, BrowserClient.Page, HTMLForm, String) {
        let session = try await tv.createSession(mvpd: "DemoCable", redirectURL: "adobepass://ios.app").decode(SessionResponse.self)
        let browser = host.browser()
        guard case .page(let login) = try await browser.get(host.baseURL + session.url!),
              var form = login.forms.first(where: { $0["password"] != nil }) else { throw BrowserError("no login form") }
        form.set("username", "alice")
        form.set("password", "alice-pass")
        guard case .page(let post) = try await browser.submit(form, from: login),
              let samlForm = post.forms.first(where: { $0["SAMLResponse"] != nil }) else { throw BrowserError("no SAML form") }
        let original = try #require(samlForm["SAMLResponse"])
        let requestID = try #require(try peekResponse(base64Response: original).inResponseTo)
        return (browser, post, samlForm, requestID)
    }

    /// The IdP's own answer builder (the DemoCable key), standing in for a foreign IdP's software.
    func idpBuilder(_ host: TestHost) throws -> SAMLResponseBuilder {
        let key = try String(contentsOfFile: host.dataDirectory + "/demo-mvpd/idp-key.pem", encoding: .utf8)
        let cert = try String(contentsOfFile: host.dataDirectory + "/demo-mvpd/idp-cert.pem", encoding: .utf8)
        return SAMLResponseBuilder(issuer: host.baseURL + "/demo-mvpd/DemoCable", signer: try SigningIdentity(privateKeyPEM: key, certificatePEM: cert))
    }

    /// Re-imports DemoCable as a foreign MVPD: no authorization endpoint, the given mapping and authorize-all setting.
    func configureForeign(_ host: TestHost, mapping: [String: [String]], authorizeAll: Bool) async throws {
        let metadata = try #require(host.host.demo?.metadata(for: "DemoCable")).xml()
        var options = EntitleService.MVPDOptions(displayName: "Foreign Cable", logoURL: "")
        options.attributeMapping = mapping
        options.authorizeAllAuthenticated = authorizeAll
        try await host.service.importSAMLMVPD(id: "DemoCable", metadataXML: metadata, options: options, requestors: ["REF"])
    }

    func signInWithForeignAttributes(_ host: TestHost, _ tv: RESTClient) async throws -> Profile {
        let (browser, page, form, requestID) = try await pendingAssertion(host, tv)
        let config = host.service.configuration
        let answer = try idpBuilder(host).success(
            inResponseTo: requestID, destination: config.assertionConsumerServiceURL, audience: config.spEntityID,
            nameID: "_transient_8f3a", sessionIndex: "S-9",
            attributes: ["urn:mace:dir:attribute-def:userid": ["pysaml-user-7"], "urn:example:household": ["HH-7"],
                         "urn:oid:0.9.2342.19200300.100.1.3": ["u7@example.net"], "urn:example:other": ["kept"]],
            now: host.clock.now(), sessionNotOnOrAfter: host.clock.now().addingTimeInterval(3600))
        var posted = form
        posted.set("SAMLResponse", answer)
        guard case .external = try await browser.submit(posted, from: page) else { throw BrowserError("the foreign answer was refused") }
        let profiles = try await tv.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self).profiles
        return try #require(profiles["DemoCable"])
    }

    @Test func foreignAttributeNamesBecomeUserMetadataAndAuthorizeAllIsExplicit() async throws {
        try await TestHost.run { host in
            try await configureForeign(host, mapping: ["householdID": ["urn:example:household"]], authorizeAll: true)
            let tv = try await host.client()
            let profile = try await signInWithForeignAttributes(host, tv)
            #expect(profile.attributes["userID"]?.value == .string("pysaml-user-7"))   // default name
            #expect(profile.attributes["householdID"]?.value == .string("HH-7"))       // operator's mapping
            #expect(profile.attributes["mail"]?.value == .string("u7@example.net"))    // default name
            #expect(profile.attributes["urn:example:other"]?.value == .string("kept")) // unmapped: kept as sent
            #expect(profile.attributes["urn:mace:dir:attribute-def:userid"] == nil)

            let items = try await tv.decisions("authorize", mvpd: "DemoCable", resources: ["news", "anything"])
                .decode(DecisionsResponse.self).decisions
            #expect(items.allSatisfy { $0.authorized && $0.token != nil }, "\(items)")

            // Without the explicit setting, an MVPD with no authorization endpoint cannot authorize.
            try await configureForeign(host, mapping: [:], authorizeAll: false)
            let denied = try await tv.decisions("authorize", mvpd: "DemoCable", resources: ["news"]).decode(DecisionsResponse.self).decisions
            #expect(denied.first?.authorized == false)
            #expect(denied.first?.error?.code == "invalid_integration")
        }
    }

    @Test func theNameIDCanBeTheUserID() async throws {
        try await TestHost.run { host in
            try await configureForeign(host, mapping: ["userID": ["urn:example:missing", "NameID"]], authorizeAll: true)
            let tv = try await host.client()
            let profile = try await signInWithForeignAttributes(host, tv)
            #expect(profile.attributes["userID"]?.value == .string("_transient_8f3a"))
            // The default name is not consumed when the operator maps userID elsewhere: it is kept as sent.
            #expect(profile.attributes["urn:mace:dir:attribute-def:userid"]?.value == .string("pysaml-user-7"))
        }
    }

    @Test func attributeOptionsAreParsed() throws {
        #expect(try SAMLAttributeMapping.parse(["userID=urn:a", "userID=NameID", "zip=urn:oid:2.5.4.17"])
                == ["userID": ["urn:a", "NameID"], "zip": ["urn:oid:2.5.4.17"]])
        #expect(throws: ConfigurationError.self) { try SAMLAttributeMapping.parse(["userID"]) }
        #expect(throws: ConfigurationError.self) { try SAMLAttributeMapping.parse(["=urn:a"]) }
        #expect(throws: ConfigurationError.self) { try SAMLAttributeMapping.parse(["userID="]) }
    }
}
