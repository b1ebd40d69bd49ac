import Foundation
import Testing

@testable import SAML

/// The SOAP/SAML binding of XACML (notes §1.3(b), §1.4, §1.6): the signed query, checked by the reference XMLDSig
/// implementation (xmlsec1) and by the PDP side; answers signed by xmlsec1 from a template written by hand after Adobe's
/// proxy-MVPD sample, and their signature, issuer and status checks.
@Suite struct XACMLSOAPTests {
    static let queryID = "urn:oasis:names:tc:xacml:2.0:profile:saml2.0:v2:schema:protocol:XACMLAuthzDecisionQuery"
    static let responseID = "urn:oasis:names:tc:SAML:2.0:protocol:Response"

    static func signedQuery(resources: [String] = ["news", "sports"], signer: SigningIdentity = Fixture.sp) throws -> String {
        try XACML.signedSOAPQuery(
            request: XACML.request(userID: "alice", subjectForm: .id, resources: resources, ipAddress: "192.0.2.7"),
            issuer: Fixture.spEntityID, destination: "https://pdp.example/xacml", id: "_q1", issueInstant: "2026-11-19T10:00:00Z",
            signer: signer)
    }

    static func certificates(_ issuer: String) -> [Certificate] { issuer == Fixture.spEntityID ? [Fixture.sp.certificate] : [] }

    @Test(.enabled(if: XMLSec.shouldRun, "xmlsec1 not installed (set CI=true to make this a failure)"))
    func xmlsecVerifiesTheSignedQuery() throws {
        let dir = try TempDir()
        let cert = try dir.write("sp.pem", Fixture.sp.certificatePEM)
        let wrong = try dir.write("other.pem", Fixture.otherKey.certificatePEM)
        let file = try dir.write("query.xml", try Self.signedQuery())
        let verified = try XMLSec.run(["--verify", "--pubkey-cert-pem", cert, "--id-attr:ID", Self.queryID, file])
        #expect(verified.status == 0, "xmlsec1 rejected the signed query: \(verified.output)")
        let refused = try XMLSec.run(["--verify", "--pubkey-cert-pem", wrong, "--id-attr:ID", Self.queryID, file])
        #expect(refused.status != 0, "xmlsec1 accepted the query under another key")
        let tampered = try dir.write("tampered.xml", try Self.signedQuery().replacingOccurrences(of: ">sports<", with: ">movies<"))
        #expect(try XMLSec.run(["--verify", "--pubkey-cert-pem", cert, "--id-attr:ID", Self.queryID, tampered]).status != 0)
    }

    @Test func signedQueryHasTheOLCAShape() throws {
        let xml = try Self.signedQuery()
        let document = try XMLDoc(string: xml)
        let query = try #require(document.root.child(XACML.soapNamespace, "Body")?.child(XACML.queryNamespace, "XACMLAuthzDecisionQuery"))
        // Issuer, then the signature, then the request context (notes §1.4: the signature is placed after Issuer).
        #expect(query.childElements.map(\.localName) == ["Issuer", "Signature", "Request"])
        #expect(query.attribute("ID") == "_q1" && query.attribute("Version") == "2.0")
        #expect(query.attribute("Destination") == "https://pdp.example/xacml")
        #expect(xml.contains("urn:oasis:names:tc:xacml:1.0:subject:subject-id"))
    }

    @Test func pdpVerifiesTheSignatureAndRefusesForgedOrUnsignedQueries() throws {
        let parsed = try XACML.parseSOAPQuery(try Self.signedQuery(), certificates: Self.certificates, requireSignature: true)
        #expect(parsed.signed && parsed.issuer == Fixture.spEntityID && parsed.id == "_q1")
        #expect(parsed.question == XACML.Question(subject: "alice", resources: ["news", "sports"], ipAddress: "192.0.2.7"))

        func refusal(_ xml: String, require: Bool = true) -> String? {
            do {
                _ = try XACML.parseSOAPQuery(xml, certificates: Self.certificates, requireSignature: require)
                return nil
            } catch { return error.reason }
        }
        // Signed with a key that is not the SP's.
        #expect(refusal(try Self.signedQuery(signer: Fixture.otherKey))?.contains("does not verify") == true)
        // Changed after signing.
        #expect(refusal(try Self.signedQuery().replacingOccurrences(of: ">sports<", with: ">movies<"))?.contains("digest") == true)
        // Unsigned: refused when required, read otherwise.
        let unsigned = XACML.soapQuery(
            request: XACML.request(userID: "alice", subjectForm: .id, resources: ["news"], ipAddress: nil), issuer: Fixture.spEntityID,
            destination: "https://pdp.example/xacml", id: "_q2", issueInstant: "2026-11-19T10:00:00Z")
        #expect(refusal(unsigned)?.contains("must be signed") == true)
        #expect(refusal(unsigned, require: false) == nil)
        // Signed, but by an issuer the PDP does not know.
        let stranger = try Self.signedQuery().replacingOccurrences(of: Fixture.spEntityID, with: "https://stranger.example")
        #expect(refusal(stranger)?.contains("unknown issuer") == true)
        // Not the SOAP form, not XML, a DOCTYPE.
        #expect(refusal(XACML.request(userID: "a", resources: ["news"], ipAddress: nil))?.contains("SOAP") == true)
        #expect(refusal("not xml") != nil)
        #expect(refusal("<!DOCTYPE x []><x/>") != nil)
    }

    /// Adobe's proxy-MVPD answer (notes §1.6) written by hand — the signature after Status as in Adobe's sample, the
    /// `xacml-samlp` prefix bound to the assertion namespace — signed by xmlsec1 with RSA-SHA1 and exc-c14n with an
    /// InclusiveNamespaces PrefixList (the profile of notes §1.4).
    static let handwrittenAnswer = """
        <soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Body>
        <samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" \
        ID="_r1" IssueInstant="2026-11-19T10:00:01Z" Version="2.0">
          <saml:Issuer>https://idp.example.com/saml</saml:Issuer>
          <samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>
          <ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo>
            <ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>
            <ds:SignatureMethod Algorithm="http://www.w3.org/2000/09/xmldsig#rsa-sha1"/>
            <ds:Reference URI="#_r1"><ds:Transforms>
              <ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>
              <ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#">
                <ec:InclusiveNamespaces xmlns:ec="http://www.w3.org/2001/10/xml-exc-c14n#" PrefixList="ds saml xacml-context xacml-samlp"/>
              </ds:Transform></ds:Transforms>
              <ds:DigestMethod Algorithm="http://www.w3.org/2000/09/xmldsig#sha1"/><ds:DigestValue/></ds:Reference>
          </ds:SignedInfo><ds:SignatureValue/><ds:KeyInfo><ds:X509Data/></ds:KeyInfo></ds:Signature>
          <saml:Assertion ID="_a1" IssueInstant="2026-11-19T10:00:01Z" Version="2.0"><saml:Issuer>https://idp.example.com/saml</saml:Issuer>
            <saml:Conditions NotBefore="2026-11-19T10:00:01Z" NotOnOrAfter="2026-11-20T10:00:01Z">
              <saml:AudienceRestriction><saml:Audience>https://entitle.example.com/sp</saml:Audience></saml:AudienceRestriction>
            </saml:Conditions>
            <xacml-samlp:XACMLAuthzDecisionStatement xmlns:xacml-samlp="urn:oasis:names:tc:xacml:2.0:profile:saml2.0:v2:schema:assertion">
              <xacml-context:Response xmlns:xacml-context="urn:oasis:names:tc:xacml:2.0:context:schema:os">
                <xacml-context:Result ResourceId="news"><xacml-context:Decision>Permit</xacml-context:Decision></xacml-context:Result>
                <xacml-context:Result ResourceId="NOT_Authorized_Resouce"><xacml-context:Decision>Deny</xacml-context:Decision>
                </xacml-context:Result>
              </xacml-context:Response>
            </xacml-samlp:XACMLAuthzDecisionStatement>
          </saml:Assertion>
        </samlp:Response></soap-env:Body></soap-env:Envelope>
        """

    @Test(.enabled(if: XMLSec.shouldRun, "xmlsec1 not installed (set CI=true to make this a failure)"))
    func answerSignedByXMLSecIsCheckedForSignatureIssuerAndStatus() throws {
        let dir = try TempDir()
        let key = try dir.write("key.pem", Fixture.idp.privateKeyPEM)
        let cert = try dir.write("cert.pem", Fixture.idp.certificatePEM)
        let input = try dir.write("answer.xml", Self.handwrittenAnswer)
        let signing = try XMLSec.run([
            "--sign", "--privkey-pem", "\(key),\(cert)", "--id-attr:ID", Self.responseID,
            "--output", dir.url.appendingPathComponent("signed.xml").path, input,
        ])
        #expect(signing.status == 0, "xmlsec1 --sign failed: \(signing.output)")
        let signed = try dir.read("signed.xml")
        let trust = XACML.AnswerTrust(certificates: [Fixture.idp.certificate], issuer: Fixture.idpEntityID, allowSHA1: true)
        let results = try XACML.parseResponse(signed, trust: trust)
        #expect(results.map(\.resourceID) == ["news", "NOT_Authorized_Resouce"])
        #expect(results.map(\.decision) == ["Permit", "Deny"])

        func refusal(_ xml: String, _ trust: XACML.AnswerTrust) -> String? {
            do {
                _ = try XACML.parseResponse(xml, trust: trust)
                return nil
            } catch { return error.reason }
        }
        // RSA-SHA1 only where the operator allowed it.
        #expect(refusal(signed, XACML.AnswerTrust(certificates: [Fixture.idp.certificate], issuer: Fixture.idpEntityID))?.contains("sha1") == true)
        // Another MVPD's certificate, another issuer, a changed decision.
        #expect(
            refusal(signed, XACML.AnswerTrust(certificates: [Fixture.otherKey.certificate], issuer: Fixture.idpEntityID, allowSHA1: true))?
                .contains("does not verify") == true)
        #expect(
            refusal(signed, XACML.AnswerTrust(certificates: [Fixture.idp.certificate], issuer: "https://other.example", allowSHA1: true))?.contains(
                "issued by") == true)
        #expect(refusal(signed.replacingOccurrences(of: ">Deny<", with: ">Permit<"), trust)?.contains("digest") == true)
        // Signed, but no certificate of the MVPD is known.
        #expect(refusal(signed, XACML.AnswerTrust(certificates: [], issuer: nil))?.contains("no certificate") == true)
    }

    @Test func builtAnswerRoundTripsAndWrappedResultsAreIgnored() throws {
        let inner = XACML.response([("news", true, nil, nil), ("movies", false, XACML.upgrade, "Not in your package.")])
        let signed = try XACML.soapResponse(
            response: inner, issuer: Fixture.idpEntityID, audience: Fixture.spEntityID, inResponseTo: "_q1", signer: Fixture.idp, now: Fixture.now)
        let trust = XACML.AnswerTrust(certificates: [Fixture.idp.certificate], issuer: Fixture.idpEntityID)
        let results = try XACML.parseResponse(signed, trust: trust)
        #expect(results.map(\.decision) == ["Permit", "Deny"])
        #expect(results[1].statusMessage == "Not in your package.")

        // A Result added outside the signed Response (signature wrapping) is not read.
        let wrapped = signed.replacingOccurrences(
            of: "</soap11:Body>",
            with:
                "<Response xmlns=\"urn:oasis:names:tc:xacml:2.0:context:schema:os\"><Result ResourceId=\"movies\"><Decision>Permit</Decision></Result></Response></soap11:Body>"
        )
        #expect(try XACML.parseResponse(wrapped, trust: trust).map(\.decision) == ["Permit", "Deny"])

        // A SAML status other than Success is not an answer.
        let failed = XACML.handwrittenStatus("urn:oasis:names:tc:SAML:2.0:status:Responder")
        #expect(throws: XACML.MalformedResponse.self) { try XACML.parseResponse(failed, trust: trust) }
        // An unsigned SOAP answer is read as the bare form is (where the MVPD does not sign).
        #expect(try XACML.parseResponse(XACML.handwrittenStatus(SAMLStatus.success), trust: trust).map(\.decision) == ["Permit"])
    }
}

extension XACML {
    /// An unsigned SOAP answer with one Permit under the given SAML status, written by hand.
    static func handwrittenStatus(_ status: String) -> String {
        """
        <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>
        <p:Response xmlns:p="urn:oasis:names:tc:SAML:2.0:protocol" ID="_x" Version="2.0" IssueInstant="2026-11-19T10:00:00Z">
        <p:Status><p:StatusCode Value="\(status)"/></p:Status>
        <c:Response xmlns:c="urn:oasis:names:tc:xacml:2.0:context:schema:os"><c:Result><c:Decision>Permit</c:Decision></c:Result></c:Response>
        </p:Response></s:Body></s:Envelope>
        """
    }
}
