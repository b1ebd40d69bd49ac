import ChildProcess
import Foundation
import Testing
@testable import SAML

/// Interoperability with the reference XMLDSig implementation (Debian `xmlsec1`, OpenSSL engine).
/// Skipped locally when xmlsec1 is missing; fails (never skips) when CI=true.
enum XMLSec {
    static let path: String? = ["/usr/bin/xmlsec1", "/usr/local/bin/xmlsec1"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"
    static let shouldRun = path != nil || isCI

    /// Runs xmlsec1; returns exit status and combined output.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        guard let path else { throw SAMLError(SAMLError.Code(rawValue: "xmlsec1Missing"), "xmlsec1 is not installed (apt-get install xmlsec1)") }
        let result = try ChildProcess.run(path, arguments)
        return (result.status, result.output)
    }
}

/// A temporary directory removed when the value is released.
final class TempDir {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("saml-xmlsec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
    func read(_ name: String) throws -> String { try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8) }
    deinit { try? FileManager.default.removeItem(at: url) }
}

@Suite(.enabled(if: XMLSec.shouldRun, "xmlsec1 not installed (set CI=true to make this a failure)"))
struct XMLSecInteropTests {
    private static let assertionID = "urn:oasis:names:tc:SAML:2.0:assertion:Assertion"
    private static let responseID = "urn:oasis:names:tc:SAML:2.0:protocol:Response"

    /// An Okta/ADFS-style pretty-printed Response (saml2 prefixes, xs:type values, InclusiveNamespaces) with
    /// signature templates as xmlsec1 expects them.
    private func template(signResponse: Bool, sha1: Bool) -> String {
        let xml = template(signResponse: signResponse)
        guard sha1 else { return xml }
        return xml.replacingOccurrences(of: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256", with: "http://www.w3.org/2000/09/xmldsig#rsa-sha1")
            .replacingOccurrences(of: "http://www.w3.org/2001/04/xmlenc#sha256", with: "http://www.w3.org/2000/09/xmldsig#sha1")
    }

    private func template(signResponse: Bool) -> String {
        let instant = SAMLTime.format(Fixture.now)
        let end = SAMLTime.format(Fixture.now.addingTimeInterval(300))
        func signature(_ id: String) -> String {
            """
                <ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#">
                  <ds:SignedInfo>
                    <ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>
                    <ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>
                    <ds:Reference URI="#\(id)">
                      <ds:Transforms>
                        <ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>
                        <ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"><ec:InclusiveNamespaces xmlns:ec="http://www.w3.org/2001/10/xml-exc-c14n#" PrefixList="xs"/></ds:Transform>
                      </ds:Transforms>
                      <ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>
                      <ds:DigestValue/>
                    </ds:Reference>
                  </ds:SignedInfo>
                  <ds:SignatureValue/>
                  <ds:KeyInfo><ds:X509Data/></ds:KeyInfo>
                </ds:Signature>
            """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <saml2p:Response xmlns:saml2p="urn:oasis:names:tc:SAML:2.0:protocol" Destination="\(Fixture.acsURL)" ID="id9876543210" InResponseTo="\(Fixture.requestID)" IssueInstant="\(instant)" Version="2.0">
                <saml2:Issuer xmlns:saml2="urn:oasis:names:tc:SAML:2.0:assertion" Format="urn:oasis:names:tc:SAML:2.0:nameid-format:entity">\(Fixture.idpEntityID)</saml2:Issuer>
            \(signResponse ? signature("id9876543210") : "")
                <saml2p:Status>
                    <saml2p:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/>
                </saml2p:Status>
                <saml2:Assertion xmlns:saml2="urn:oasis:names:tc:SAML:2.0:assertion" xmlns:xs="http://www.w3.org/2001/XMLSchema" ID="id1234567890" IssueInstant="\(instant)" Version="2.0">
                    <saml2:Issuer Format="urn:oasis:names:tc:SAML:2.0:nameid-format:entity">\(Fixture.idpEntityID)</saml2:Issuer>
            \(signature("id1234567890"))
                    <saml2:Subject>
                        <saml2:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">alice@cable.example.net</saml2:NameID>
                        <saml2:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">
                            <saml2:SubjectConfirmationData InResponseTo="\(Fixture.requestID)" NotOnOrAfter="\(end)" Recipient="\(Fixture.acsURL)"/>
                        </saml2:SubjectConfirmation>
                    </saml2:Subject>
                    <saml2:Conditions NotBefore="\(instant)" NotOnOrAfter="\(end)">
                        <saml2:AudienceRestriction>
                            <saml2:Audience>\(Fixture.spEntityID)</saml2:Audience>
                        </saml2:AudienceRestriction>
                    </saml2:Conditions>
                    <saml2:AuthnStatement AuthnInstant="\(instant)" SessionIndex="id55555">
                        <saml2:AuthnContext>
                            <saml2:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml2:AuthnContextClassRef>
                        </saml2:AuthnContext>
                    </saml2:AuthnStatement>
                    <saml2:AttributeStatement>
                        <saml2:Attribute Name="household" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:unspecified">
                            <saml2:AttributeValue xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">H-1001</saml2:AttributeValue>
                        </saml2:Attribute>
                    </saml2:AttributeStatement>
                </saml2:Assertion>
            </saml2p:Response>
            """
    }

    private func keyFiles(_ dir: TempDir, _ identity: SigningIdentity) throws -> (key: String, cert: String) {
        (try dir.write("key.pem", identity.privateKeyPEM), try dir.write("cert.pem", identity.certificatePEM))
    }

    @Test func validatorAcceptsAssertionSignedByXMLSec() throws {
        let dir = try TempDir()
        let (key, cert) = try keyFiles(dir, Fixture.idp)
        let input = try dir.write("template.xml", template(signResponse: false))
        let signed = try XMLSec.run([
            "--sign", "--privkey-pem", "\(key),\(cert)", "--id-attr:ID", Self.assertionID,
            "--output", dir.url.appendingPathComponent("signed.xml").path, input,
        ])
        #expect(signed.status == 0, "xmlsec1 --sign failed: \(signed.output)")
        let xml = try dir.read("signed.xml")
        #expect(xml.contains("<ds:X509Certificate>"))
        let result = try Fixture.validator().validate(xml: xml, expectedInResponseTo: Fixture.requestID, now: Fixture.now)
        #expect(result.nameID == "alice@cable.example.net")
        #expect(result.assertionID == "id1234567890")
        #expect(result.sessionIndex == "id55555")
        #expect(result.attributes == ["household": ["H-1001"]])
        // The same document with a changed value must fail: proves the digest was really checked.
        let tampered = xml.replacingOccurrences(of: ">H-1001<", with: ">H-9999<")
        #expect(Fixture.rejection(tampered) == SAMLError.Code.badDigest)
        #expect(Fixture.rejection(xml, validator: Fixture.validator(certificates: [Fixture.otherKey.certificate])) == SAMLError.Code.badSignature)
    }

    /// A legacy IdP (stock pysaml2) signs with RSA-SHA1: refused unless the validator is told to allow it for that IdP.
    @Test func rsaSHA1SignaturesAreAcceptedOnlyWhenAllowed() throws {
        let dir = try TempDir()
        let (key, cert) = try keyFiles(dir, Fixture.idp)
        let input = try dir.write("template.xml", template(signResponse: false, sha1: true))
        let signed = try XMLSec.run([
            "--sign", "--privkey-pem", "\(key),\(cert)", "--id-attr:ID", Self.assertionID,
            "--output", dir.url.appendingPathComponent("signed.xml").path, input,
        ])
        #expect(signed.status == 0, "xmlsec1 --sign failed: \(signed.output)")
        let xml = try dir.read("signed.xml")
        #expect(xml.contains("xmldsig#rsa-sha1"))
        #expect(Fixture.rejection(xml) == SAMLError.Code.unsupportedAlgorithm)
        var legacy = Fixture.validator()
        legacy.allowRSASHA1 = true
        let result = try legacy.validate(xml: xml, expectedInResponseTo: Fixture.requestID, now: Fixture.now)
        #expect(result.signedWithSHA1)
        #expect(result.nameID == "alice@cable.example.net")
        // Still a real check: altered content, a foreign key and a bad value are refused.
        #expect(Fixture.rejection(xml.replacingOccurrences(of: ">H-1001<", with: ">H-9999<"), validator: legacy) == SAMLError.Code.badDigest)
        var stranger = Fixture.validator(certificates: [Fixture.otherKey.certificate])
        stranger.allowRSASHA1 = true
        #expect(Fixture.rejection(xml, validator: stranger) == SAMLError.Code.badSignature)
        // SHA-256 responses do not report SHA-1.
        let modern = try Fixture.builder.success(
            inResponseTo: Fixture.requestID, destination: Fixture.acsURL, audience: Fixture.spEntityID,
            nameID: "alice", sessionIndex: "S", attributes: [:], now: Fixture.now,
            assertionLifetime: 300, sessionNotOnOrAfter: nil)
        #expect(try legacy.validate(base64Response: modern, expectedInResponseTo: Fixture.requestID, now: Fixture.now).signedWithSHA1 == false)
    }

    @Test func validatorAcceptsResponseAndAssertionSignedByXMLSec() throws {
        let dir = try TempDir()
        let (key, cert) = try keyFiles(dir, Fixture.idp)
        let input = try dir.write("template.xml", template(signResponse: true))
        let inner = dir.url.appendingPathComponent("inner.xml").path
        let first = try XMLSec.run([
            "--sign", "--privkey-pem", "\(key),\(cert)", "--id-attr:ID", Self.assertionID,
            "--node-xpath", "//*[local-name()='Assertion']/*[local-name()='Signature']",
            "--output", inner, input,
        ])
        #expect(first.status == 0, "xmlsec1 --sign (assertion) failed: \(first.output)")
        let second = try XMLSec.run([
            "--sign", "--privkey-pem", "\(key),\(cert)", "--id-attr:ID", Self.responseID,
            "--id-attr:ID", Self.assertionID,
            "--node-xpath", "/*[local-name()='Response']/*[local-name()='Signature']",
            "--output", dir.url.appendingPathComponent("signed.xml").path, inner,
        ])
        #expect(second.status == 0, "xmlsec1 --sign (response) failed: \(second.output)")
        let xml = try dir.read("signed.xml")
        let result = try Fixture.validator().validate(xml: xml, expectedInResponseTo: Fixture.requestID, now: Fixture.now)
        #expect(result.nameID == "alice@cable.example.net")
    }

    /// ADFS style: unprefixed Assertion in the default namespace; SimpleSAMLphp style: the `saml` prefix is
    /// declared only on the Response, so exc-c14n must render it on the Assertion apex.
    /// "withcomments" is the ADFS shape with exc-c14n#WithComments identifiers and a comment in the Subject.
    @Test(arguments: ["adfs", "simplesamlphp", "withcomments"])
    func validatorAcceptsOtherNamespaceStylesSignedByXMLSec(style: String) throws {
        let instant = SAMLTime.format(Fixture.now)
        let end = SAMLTime.format(Fixture.now.addingTimeInterval(300))
        let c14n = style == "withcomments" ? "http://www.w3.org/2001/10/xml-exc-c14n#WithComments" : "http://www.w3.org/2001/10/xml-exc-c14n#"
        let signature = """
            <ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="\(c14n)"/>\
            <ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/><ds:Reference URI="#_a77"><ds:Transforms>\
            <ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/><ds:Transform Algorithm="\(c14n)"/>\
            </ds:Transforms><ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue/></ds:Reference></ds:SignedInfo>\
            <ds:SignatureValue/><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data/></KeyInfo></ds:Signature>
            """
        let body = """
            <Issuer>\(Fixture.idpEntityID)</Issuer>\(signature)<Subject><!-- signed note --><NameID>alice</NameID>\
            <SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><SubjectConfirmationData InResponseTo="\(Fixture.requestID)" NotOnOrAfter="\(end)" Recipient="\(Fixture.acsURL)"/></SubjectConfirmation></Subject>\
            <Conditions NotBefore="\(instant)" NotOnOrAfter="\(end)"><AudienceRestriction><Audience>\(Fixture.spEntityID)</Audience></AudienceRestriction></Conditions>\
            <AttributeStatement><Attribute Name="household"><AttributeValue>H-1001</AttributeValue></Attribute></AttributeStatement>\
            <AuthnStatement AuthnInstant="\(instant)" SessionIndex="_s1"><AuthnContext><AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</AuthnContextClassRef></AuthnContext></AuthnStatement>
            """
        let assertion: String
        let rootNamespaces: String
        if style != "simplesamlphp" {
            rootNamespaces = ""
            assertion =
                "<Assertion ID=\"_a77\" IssueInstant=\"\(instant)\" Version=\"2.0\" xmlns=\"urn:oasis:names:tc:SAML:2.0:assertion\">\(body)</Assertion>"
        } else {
            rootNamespaces = " xmlns:saml=\"urn:oasis:names:tc:SAML:2.0:assertion\""
            let prefixed = body.replacingOccurrences(of: #"<(/?)([A-Z])"#, with: "<$1saml:$2", options: .regularExpression)
                .replacingOccurrences(of: "<saml:KeyInfo", with: "<KeyInfo").replacingOccurrences(of: "</saml:KeyInfo", with: "</KeyInfo")
                .replacingOccurrences(of: "<saml:X509Data", with: "<X509Data")
            assertion =
                "<saml:Assertion xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" ID=\"_a77\" Version=\"2.0\" IssueInstant=\"\(instant)\">\(prefixed)</saml:Assertion>"
        }
        let issuer =
            style != "simplesamlphp"
            ? "<Issuer xmlns=\"urn:oasis:names:tc:SAML:2.0:assertion\">\(Fixture.idpEntityID)</Issuer>"
            : "<saml:Issuer>\(Fixture.idpEntityID)</saml:Issuer>"
        let xmlTemplate = """
            <samlp:Response ID="_r77" Version="2.0" IssueInstant="\(instant)" Destination="\(Fixture.acsURL)" Consent="urn:oasis:names:tc:SAML:2.0:consent:unspecified" \
            InResponseTo="\(Fixture.requestID)" xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"\(rootNamespaces)>\(issuer)\
            <samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>\(assertion)</samlp:Response>
            """
        let dir = try TempDir()
        let (key, cert) = try keyFiles(dir, Fixture.idp)
        let input = try dir.write("template.xml", xmlTemplate)
        let signed = try XMLSec.run([
            "--sign", "--privkey-pem", "\(key),\(cert)", "--id-attr:ID", Self.assertionID,
            "--output", dir.url.appendingPathComponent("signed.xml").path, input,
        ])
        #expect(signed.status == 0, "xmlsec1 --sign failed: \(signed.output)")
        let xml = try dir.read("signed.xml")
        let result = try Fixture.validator().validate(xml: xml, expectedInResponseTo: Fixture.requestID, now: Fixture.now)
        #expect(result.nameID == "alice")
        #expect(result.attributes == ["household": ["H-1001"]])
        #expect(Fixture.rejection(xml.replacingOccurrences(of: ">alice<", with: ">bob<")) == SAMLError.Code.badDigest)
        let uncommented = xml.replacingOccurrences(of: "<!-- signed note -->", with: "")
        #expect(uncommented != xml)
        // Bare-name references drop comments before canonicalisation, even with #WithComments (XMLDSig 4.3.3.3).
        #expect(Fixture.rejection(uncommented) == nil)
    }

    @Test func xmlsecVerifiesBuilderOutput() throws {
        let dir = try TempDir()
        let cert = try dir.write("cert.pem", Fixture.idp.certificatePEM)
        let wrongCert = try dir.write("wrong.pem", Fixture.otherKey.certificatePEM)
        let file = try dir.write("response.xml", try Fixture.responseXML())
        let ids = ["--id-attr:ID", Self.assertionID, "--id-attr:ID", Self.responseID]
        let responseSignature = try XMLSec.run(["--verify", "--pubkey-cert-pem", cert] + ids + [file])
        #expect(responseSignature.status == 0, "xmlsec1 rejected the Response signature: \(responseSignature.output)")
        let assertionSignature = try XMLSec.run(
            ["--verify", "--pubkey-cert-pem", cert] + ids
                + ["--node-xpath", "//*[local-name()='Assertion']/*[local-name()='Signature']", file])
        #expect(assertionSignature.status == 0, "xmlsec1 rejected the Assertion signature: \(assertionSignature.output)")
        let wrong = try XMLSec.run(["--verify", "--pubkey-cert-pem", wrongCert] + ids + [file])
        #expect(wrong.status != 0, "xmlsec1 accepted a signature under the wrong key")
    }

    @Test func xmlsecVerifiesFailureResponse() throws {
        let dir = try TempDir()
        let cert = try dir.write("cert.pem", Fixture.idp.certificatePEM)
        let base64 = try Fixture.builder.failure(
            inResponseTo: nil, destination: Fixture.acsURL,
            statusCode: SAMLStatus.authnFailed, message: "nope", now: Fixture.now)
        let file = try dir.write("failure.xml", String(decoding: Data(base64Encoded: base64)!, as: UTF8.self))
        let result = try XMLSec.run(["--verify", "--pubkey-cert-pem", cert, "--id-attr:ID", Self.responseID, file])
        #expect(result.status == 0, "xmlsec1 rejected the failure Response: \(result.output)")
    }
}
