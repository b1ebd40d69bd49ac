import ChildProcess
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

/// A foreign SAML IdP (pysaml2-like): its attribute names are mapped to user metadata (per MVPD, with defaults for the
/// common names), and an MVPD without an authorization endpoint authorizes every authenticated subscriber only when
/// the operator says so.
@Suite struct ForeignIdPTests {
    /// Signs in as alice up to the MVPD's auto-post form; returns the browser, the page, the form and the request id.
    func pendingAssertion(_ host: LocalService, _ tv: RESTClient) async throws -> (BrowserClient, BrowserClient.Page, HTMLForm, String) {
        let session = try await tv.createSession(mvpd: "DemoCable", redirectURL: "adobepass://ios.app").decode(SessionResponse.self)
        let browser = host.browser()
        let (post, samlForm) = try await DemoSignIn.loginUntilAssertion(
            browser: browser, authenticationURL: host.baseURL + session.url!, username: "alice", password: "alice-pass")
        let original = try #require(samlForm["SAMLResponse"])
        let requestID = try #require(try peekResponse(base64Response: original).inResponseTo)
        return (browser, post, samlForm, requestID)
    }

    /// The IdP's own answer builder (the DemoCable key), standing in for a foreign IdP's software.
    func idpBuilder(_ host: LocalService) throws -> SAMLResponseBuilder {
        let key = try String(contentsOfFile: host.dataDirectory + "/demo-mvpd/idp-key.pem", encoding: .utf8)
        let cert = try String(contentsOfFile: host.dataDirectory + "/demo-mvpd/idp-cert.pem", encoding: .utf8)
        return SAMLResponseBuilder(
            issuer: host.baseURL + "/demo-mvpd/DemoCable", signer: try SigningIdentity(privateKeyPEM: key, certificatePEM: cert))
    }

    /// Re-imports DemoCable as a foreign MVPD: no authorization endpoint, the given mapping and authorize-all setting.
    func configureForeign(_ host: LocalService, mapping: [String: [String]], authorizeAll: Bool) async throws {
        let metadata = try #require(host.host.demo?.metadata(for: "DemoCable")).xml()
        var options = MVPDOptions(displayName: "Foreign Cable", logoURL: "")
        options.attributeMapping = mapping
        options.authorizeAllAuthenticated = authorizeAll
        try await host.service.mvpds.importSAML(id: "DemoCable", metadataXML: metadata, options: options, requestors: ["REF"])
    }

    func signInWithForeignAttributes(_ host: LocalService, _ tv: RESTClient) async throws -> Profile {
        let (browser, page, form, requestID) = try await pendingAssertion(host, tv)
        let config = host.service.configuration
        let answer = try idpBuilder(host).success(
            inResponseTo: requestID, destination: config.assertionConsumerServiceURL, audience: config.spEntityID,
            nameID: "_transient_8f3a", sessionIndex: "S-9",
            attributes: [
                "urn:mace:dir:attribute-def:userid": ["pysaml-user-7"], "urn:example:household": ["HH-7"],
                "urn:oid:0.9.2342.19200300.100.1.3": ["u7@example.net"], "urn:example:other": ["kept"],
                "MaxMovieRating": ["nc-17"], "MaxTVRating": ["tv-ma"],
            ],
            now: host.clock.now(), sessionNotOnOrAfter: host.clock.now().addingTimeInterval(3600))
        var posted = form
        posted.set("SAMLResponse", answer)
        guard case .external = try await browser.submit(posted, from: page) else { throw BrowserError("the foreign answer was refused") }
        let profiles = try await tv.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self).profiles
        return try #require(profiles["DemoCable"])
    }

    @Test func foreignAttributeNamesBecomeUserMetadataAndAuthorizeAllIsExplicit() async throws {
        try await LocalService.run { host in
            try await configureForeign(host, mapping: ["householdID": ["urn:example:household"]], authorizeAll: true)
            let tv = try await host.client()
            let profile = try await signInWithForeignAttributes(host, tv)
            #expect(profile.attributes["userID"]?.value == .string("pysaml-user-7"))  // default name
            #expect(profile.attributes["householdID"]?.value == .string("HH-7"))  // operator's mapping
            #expect(profile.attributes["mail"]?.value == .string("u7@example.net"))  // default name
            #expect(profile.attributes["urn:example:other"]?.value == .string("kept"))  // unmapped: kept as sent
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
        try await LocalService.run { host in
            try await configureForeign(host, mapping: ["userID": ["urn:example:missing", "NameID"]], authorizeAll: true)
            let tv = try await host.client()
            let profile = try await signInWithForeignAttributes(host, tv)
            #expect(profile.attributes["userID"]?.value == .string("_transient_8f3a"))
            // The default name is not consumed when the operator maps userID elsewhere: it is kept as sent.
            #expect(profile.attributes["urn:mace:dir:attribute-def:userid"]?.value == .string("pysaml-user-7"))
        }
    }

    /// The notes' `MaxTVRating` / `MaxMovieRating` attributes become the SDK's object-valued `maxRating`.
    @Test func twoRatingAttributesBecomeOneObjectValuedMaxRating() async throws {
        try await LocalService.run { host in
            try await configureForeign(
                host, mapping: ["maxRating.MPAA": ["MaxMovieRating"], "maxRating.VCHIP": ["MaxTVRating"]], authorizeAll: true)
            let tv = try await host.client()
            let profile = try await signInWithForeignAttributes(host, tv)
            #expect(profile.attributes["maxRating"]?.value == .object(["MPAA": .string("nc-17"), "VCHIP": .string("tv-ma")]))
            #expect(profile.attributes["MaxMovieRating"] == nil && profile.attributes["maxRating.MPAA"] == nil)
            #expect(profile.attributes["userID"]?.value == .string("pysaml-user-7"))
        }
    }

    @Test func attributeOptionsAreParsed() throws {
        #expect(
            try SAMLAttributeMapping.parse(["userID=urn:a", "userID=NameID", "zip=urn:oid:2.5.4.17"])
                == ["userID": ["urn:a", "NameID"], "zip": ["urn:oid:2.5.4.17"]])
        #expect(throws: ConfigurationError.self) { try SAMLAttributeMapping.parse(["userID"]) }
        #expect(throws: ConfigurationError.self) { try SAMLAttributeMapping.parse(["=urn:a"]) }
        #expect(throws: ConfigurationError.self) { try SAMLAttributeMapping.parse(["userID="]) }
    }
}

/// A legacy IdP signing with RSA-SHA1 (as stock pysaml2 does), signed here by the reference implementation xmlsec1.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/xmlsec1") || ProcessInfo.processInfo.environment["CI"] == "true",
        "xmlsec1 not installed"))
struct LegacySHA1IdPTests {
    /// A Response with an RSA-SHA1-signed Assertion for `requestID`, signed by xmlsec1 with the DemoCable key.
    static func sha1Response(_ host: LocalService, requestID: String) throws -> String {
        let config = host.service.configuration
        let instant = host.clock.now().ISO8601Format(), end = host.clock.now().addingTimeInterval(300).ISO8601Format()
        let issuer = host.baseURL + "/demo-mvpd/DemoCable"
        let template = """
            <samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" \
            ID="_r1" Version="2.0" IssueInstant="\(instant)" Destination="\(config.assertionConsumerServiceURL)" InResponseTo="\(requestID)">\
            <saml:Issuer>\(issuer)</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>\
            <saml:Assertion ID="_a1" Version="2.0" IssueInstant="\(instant)"><saml:Issuer>\(issuer)</saml:Issuer>\
            <ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo>\
            <ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>\
            <ds:SignatureMethod Algorithm="http://www.w3.org/2000/09/xmldsig#rsa-sha1"/><ds:Reference URI="#_a1"><ds:Transforms>\
            <ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>\
            <ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/></ds:Transforms>\
            <ds:DigestMethod Algorithm="http://www.w3.org/2000/09/xmldsig#sha1"/><ds:DigestValue/></ds:Reference></ds:SignedInfo>\
            <ds:SignatureValue/></ds:Signature>\
            <saml:Subject><saml:NameID>legacy-42</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">\
            <saml:SubjectConfirmationData InResponseTo="\(requestID)" NotOnOrAfter="\(end)" Recipient="\(config.assertionConsumerServiceURL)"/>\
            </saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="\(instant)" NotOnOrAfter="\(end)"><saml:AudienceRestriction>\
            <saml:Audience>\(config.spEntityID)</saml:Audience></saml:AudienceRestriction></saml:Conditions>\
            <saml:AuthnStatement AuthnInstant="\(instant)" SessionIndex="S-1"><saml:AuthnContext><saml:AuthnContextClassRef>\
            urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>\
            <saml:AttributeStatement><saml:Attribute Name="urn:oid:0.9.2342.19200300.100.1.1"><saml:AttributeValue>legacy-user</saml:AttributeValue>\
            </saml:Attribute></saml:AttributeStatement></saml:Assertion></samlp:Response>
            """
        let folder = NSTemporaryDirectory() + "entitle-sha1-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try template.write(toFile: folder + "/t.xml", atomically: true, encoding: .utf8)
        let result = try ChildProcess.run(
            "/usr/bin/xmlsec1",
            [
                "--sign", "--privkey-pem", host.dataDirectory + "/demo-mvpd/idp-key.pem," + host.dataDirectory + "/demo-mvpd/idp-cert.pem",
                "--id-attr:ID", "urn:oasis:names:tc:SAML:2.0:assertion:Assertion", "--output", folder + "/s.xml", folder + "/t.xml",
            ])
        #expect(result.status == 0, "\(result.output)")
        return Data(try String(contentsOfFile: folder + "/s.xml", encoding: .utf8).utf8).base64EncodedString()
    }

    @Test func rsaSHA1IsAcceptedOnlyForAnMVPDThatAllowsIt() async throws {
        try await LocalService.run { host in
            let metadata = try #require(host.host.demo?.metadata(for: "DemoCable")).xml()
            var options = MVPDOptions(displayName: "Legacy Cable", logoURL: "")
            options.authorizeAllAuthenticated = true
            try await host.service.mvpds.importSAML(id: "DemoCable", metadataXML: metadata, options: options, requestors: ["REF"])
            let tv = try await host.client()
            let (browser, page, form, requestID) = try await ForeignIdPTests().pendingAssertion(host, tv)
            var legacy = form
            legacy.set("SAMLResponse", try Self.sha1Response(host, requestID: requestID))
            guard case .page(let refused) = try await browser.submit(legacy, from: page) else { Issue.record("SHA-1 accepted by default"); return }
            #expect(refused.status == 400)

            options.allowRSASHA1 = true
            try await host.service.mvpds.importSAML(id: "DemoCable", metadataXML: metadata, options: options, requestors: ["REF"])
            guard case .external = try await browser.submit(legacy, from: page) else { Issue.record("SHA-1 refused although allowed"); return }
            let profile = try #require(try await tv.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self).profiles["DemoCable"])
            #expect(profile.attributes["userID"]?.value == .string("legacy-user"))
        }
    }
}
