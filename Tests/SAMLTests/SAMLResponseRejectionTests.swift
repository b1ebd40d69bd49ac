import Foundation
import Testing
@testable import SAML

@Suite struct SAMLResponseRejectionTests {
    @Test func unsignedResponseIsRejected() throws {
        let xml = Fixture.responseXML(inner: Fixture.assertionXML(id: "_a1", signed: false))
        #expect(Fixture.rejection(xml) == SAMLError.Code.unsigned)
    }

    @Test func signatureRemovedFromBuilderOutputIsRejected() throws {
        let xml = try Fixture.responseXML()
        let stripped = xml.replacingOccurrences(of: #"<ds:Signature[\s\S]*?</ds:Signature>"#, with: "", options: .regularExpression)
        #expect(!stripped.contains("Signature"))
        #expect(Fixture.rejection(stripped) == SAMLError.Code.unsigned)
    }

    @Test func wrongKeyIsRejected() throws {
        let xml = try Fixture.responseXML(signer: Fixture.otherKey)
        #expect(Fixture.rejection(xml) == SAMLError.Code.badSignature)
    }

    @Test func tamperedAttributeValueIsRejected() throws {
        let xml = try Fixture.responseXML()
        let tampered = xml.replacingOccurrences(of: ">sports<", with: ">movies<")
        #expect(tampered != xml)
        #expect(Fixture.rejection(tampered) == SAMLError.Code.badDigest)
    }

    @Test func tamperedNameIDInAssertionOnlySignedResponseIsRejected() throws {
        let xml = try Fixture.sign(Fixture.responseXML(inner: Fixture.assertionXML(id: "_a1", signed: true)))
        let tampered = xml.replacingOccurrences(of: "<saml:NameID>alice<", with: "<saml:NameID>admin<")
        #expect(tampered != xml)
        #expect(Fixture.rejection(tampered) == SAMLError.Code.badDigest)
    }

    @Test func tamperedSignatureValueIsRejected() throws {
        let xml = try Fixture.responseXML()
        guard let range = xml.range(of: "<ds:SignatureValue>") else { Issue.record("no SignatureValue"); return }
        var tampered = xml
        let index = range.upperBound
        let original = tampered[index]
        tampered.replaceSubrange(index...index, with: original == "A" ? "B" : "A")
        #expect(Fixture.rejection(tampered) == SAMLError.Code.badSignature)
    }

    @Test func wrongAudienceIsRejected() throws {
        #expect(Fixture.rejection(try Fixture.responseXML(audience: "https://other-sp.example.com")) == SAMLError.Code.wrongAudience)
    }

    @Test func wrongDestinationIsRejected() throws {
        #expect(Fixture.rejection(try Fixture.responseXML(destination: "https://evil.example.com/acs")) == SAMLError.Code.wrongDestination)
    }

    @Test func wrongIssuerIsRejected() throws {
        #expect(Fixture.rejection(try Fixture.responseXML(issuer: "https://other-idp.example.com")) == SAMLError.Code.wrongIssuer)
    }

    @Test func expiredAssertionIsRejected() throws {
        let xml = try Fixture.responseXML()
        #expect(Fixture.rejection(xml, at: Fixture.now.addingTimeInterval(300 + 121)) == SAMLError.Code.expired)
    }

    @Test func notYetValidAssertionIsRejected() throws {
        let xml = try Fixture.responseXML()
        #expect(Fixture.rejection(xml, at: Fixture.now.addingTimeInterval(-121)) == SAMLError.Code.notYetValid)
    }

    @Test func inResponseToMismatchIsRejected() throws {
        let xml = try Fixture.responseXML()
        #expect(Fixture.rejection(xml, expected: "_ffffffffffffffffffffffffffffffff") == SAMLError.Code.inResponseToMismatch)
    }

    @Test func unsolicitedIsRejectedByDefault() throws {
        #expect(Fixture.rejection(try Fixture.responseXML(inResponseTo: nil), expected: nil) == SAMLError.Code.unsolicited)
        // A solicited response presented where none was expected is also refused.
        #expect(Fixture.rejection(try Fixture.responseXML(), expected: nil) == SAMLError.Code.unsolicited)
        // An unsolicited response where a request is pending does not match it.
        #expect(Fixture.rejection(try Fixture.responseXML(inResponseTo: nil)) == SAMLError.Code.inResponseToMismatch)
    }

    @Test func nonSuccessStatusIsRejected() throws {
        let base64 = try Fixture.builder.failure(
            inResponseTo: Fixture.requestID, destination: Fixture.acsURL,
            statusCode: SAMLStatus.requester, message: nil, now: Fixture.now)
        #expect(throws: SAMLError(.statusNotSuccess, SAMLStatus.requester)) {
            try Fixture.validator().validate(base64Response: base64, expectedInResponseTo: Fixture.requestID, now: Fixture.now)
        }
    }

    @Test func malformedXMLIsRejected() {
        #expect(Fixture.rejection("<samlp:Response xmlns:samlp=\"urn:oasis:names:tc:SAML:2.0:protocol\"><unclosed>") == SAMLError.Code.malformedXML)
        #expect(Fixture.rejection("not xml at all") == SAMLError.Code.malformedXML)
        #expect(Fixture.rejection("<Response/>") == SAMLError.Code.malformedXML)
    }

    @Test func xxeDoctypeIsRejected() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("saml-xxe-\(UUID().uuidString).txt")
        try "TOPSECRET".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        let assertion = Fixture.assertionXML(id: "_a1", nameID: "&xxe;", signed: false)
        let xml =
            "<?xml version=\"1.0\"?><!DOCTYPE samlp:Response [<!ENTITY xxe SYSTEM \"file://\(secret.path)\">]>"
            + Fixture.responseXML(inner: assertion)
        #expect(Fixture.rejection(xml) == SAMLError.Code.malformedXML)
        #expect(throws: SAMLError.self) { try peekResponse(base64Response: Fixture.base64(xml)) }
        let laughs = "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;&lol;&lol;\">]><lolz>&lol2;</lolz>"
        #expect(Fixture.rejection(laughs) == SAMLError.Code.malformedXML)
    }

    @Test func doctypeHiddenInOtherEncodingsIsRejected() throws {
        let xml =
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?><!DOCTYPE r [<!ENTITY a \"b\">]>"
            + Fixture.responseXML(inner: Fixture.assertionXML(id: "_a1", nameID: "&a;", signed: true))
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in xml.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        do {
            _ = try Fixture.validator().validate(
                base64Response: Data(utf16).base64EncodedString(),
                expectedInResponseTo: Fixture.requestID, now: Fixture.now)
            Issue.record("UTF-16 document accepted")
        } catch let error as SAMLError {
            #expect(error.code == SAMLError.Code.malformedXML)
        }
        // A UTF-8 document that declares another encoding is still read as UTF-8 (and stays valid).
        let declared = try Fixture.responseXML().replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"ISO-8859-1\"")
        #expect(declared.contains("ISO-8859-1"))
        #expect(Fixture.rejection(declared) == nil)
    }

    @Test func oversizedInputIsRejected() {
        let huge = String(repeating: "A", count: 512 * 1024 + 4)
        #expect(Fixture.rejection("") == SAMLError.Code.badEncoding)
        #expect(throws: SAMLError(.tooLarge, "SAMLResponse exceeds 524288 characters")) {
            try Fixture.validator().validate(base64Response: huge, expectedInResponseTo: nil, now: Fixture.now)
        }
        #expect(throws: SAMLError.self) { try peekResponse(base64Response: huge) }
    }

    @Test func badBase64IsRejected() {
        for input in ["%%%not base64%%%", "abc", "PHNhbWxwOlJlc3BvbnNl*"] {
            do {
                _ = try Fixture.validator().validate(base64Response: input, expectedInResponseTo: nil, now: Fixture.now)
                Issue.record("accepted \(input)")
            } catch let error as SAMLError {
                #expect(error.code == SAMLError.Code.badEncoding)
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test func sha1SignatureIsUnsupported() throws {
        let xml = try Fixture.responseXML()
            .replacingOccurrences(of: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256", with: "http://www.w3.org/2000/09/xmldsig#rsa-sha1")
        #expect(Fixture.rejection(xml) == SAMLError.Code.unsupportedAlgorithm)
        let sha1Digest = try Fixture.responseXML()
            .replacingOccurrences(of: "http://www.w3.org/2001/04/xmlenc#sha256", with: "http://www.w3.org/2000/09/xmldsig#sha1")
        #expect(Fixture.rejection(sha1Digest) == SAMLError.Code.unsupportedAlgorithm)
    }

    @Test func emptyCertificateListIsAnError() throws {
        #expect(Fixture.rejection(try Fixture.responseXML(), validator: Fixture.validator(certificates: [])) == SAMLError.Code.badKey)
    }
}
