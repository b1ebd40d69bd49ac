import Foundation
import Testing
@testable import SAML

/// XML signature wrapping (XSW) variants: the validator must read only the element the verified Reference covers.
@Suite struct SignatureWrappingTests {
    /// A genuinely signed assertion for alice, assertion-level signature only.
    private func signedAssertion() throws -> String {
        let signed = try Fixture.sign(Fixture.responseXML(inner: Fixture.assertionXML(id: "_good", signed: true)))
        guard let start = signed.range(of: "<saml:Assertion"), let end = signed.range(of: "</saml:Assertion>") else {
            throw SAMLError.malformed("no assertion")
        }
        return String(signed[start.lowerBound..<end.upperBound])
    }

    @Test func evilAssertionWithSignedAssertionMovedIntoExtensions() throws {
        let good = try signedAssertion()
        let evil = Fixture.assertionXML(id: "_evil", nameID: "admin", signed: false)
        let xml = Fixture.responseXML(inner: "<samlp:Extensions>\(good)</samlp:Extensions>" + evil)
        #expect(Fixture.rejection(xml) == SAMLError.Code.malformedXML)
    }

    @Test func evilAssertionBeforeSignedAssertion() throws {
        let evil = Fixture.assertionXML(id: "_evil", nameID: "admin", signed: false)
        let xml = Fixture.responseXML(inner: evil + (try signedAssertion()))
        #expect(Fixture.rejection(xml) == SAMLError.Code.malformedXML)
    }

    @Test func signedAssertionWrappedInsideEvilAssertion() throws {
        let good = try signedAssertion()
        var evil = Fixture.assertionXML(id: "_evil", nameID: "admin", signed: false)
        evil = evil.replacingOccurrences(of: "</saml:Subject>", with: "</saml:Subject><saml:Advice>\(good)</saml:Advice>")
        #expect(Fixture.rejection(Fixture.responseXML(inner: evil)) == SAMLError.Code.malformedXML)
    }

    @Test func evilAssertionReusingSignedID() throws {
        let good = try signedAssertion()
        let evil = Fixture.assertionXML(id: "_good", nameID: "admin", signed: false)
        #expect(Fixture.rejection(Fixture.responseXML(inner: evil + good)) == SAMLError.Code.duplicateID)
    }

    @Test func signatureCopiedOntoEvilAssertion() throws {
        // The evil assertion carries the good assertion's signature (and ID): the digest no longer matches.
        let good = try signedAssertion()
        guard let sigStart = good.range(of: "<ds:Signature"), let sigEnd = good.range(of: "</ds:Signature>") else {
            Issue.record("no signature"); return
        }
        let signature = String(good[sigStart.lowerBound..<sigEnd.upperBound])
        let evil = Fixture.assertionXML(id: "_good", nameID: "admin", signed: false)
            .replacingOccurrences(of: "</saml:Issuer>", with: "</saml:Issuer>" + signature)
        #expect(Fixture.rejection(Fixture.responseXML(inner: evil)) == SAMLError.Code.badDigest)
    }

    @Test func signedResponseWrappedInsideEvilResponse() throws {
        let original = try Fixture.responseXML()
        let body = original.replacingOccurrences(of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", with: "")
        let evil = Fixture.responseXML(
            id: "_evilresp",
            inner: "<samlp:Extensions>\(body)</samlp:Extensions>"
                + Fixture.assertionXML(id: "_evil", nameID: "admin", signed: false))
        #expect(Fixture.rejection(evil) == SAMLError.Code.malformedXML)
        let evilNoAssertion = Fixture.responseXML(id: "_evilresp", inner: "<samlp:Extensions>\(body)</samlp:Extensions>")
        #expect(Fixture.rejection(evilNoAssertion) == SAMLError.Code.malformedXML)
    }

    @Test func referenceToAnotherElementIsRejected() throws {
        // Signature placed in the evil assertion but referencing the genuine (signed) Response: not enveloped.
        let xml = try Fixture.sign(Fixture.responseXML(signedID: "_resp1", inner: Fixture.assertionXML(id: "_a1", signed: false)))
        let moved = xml.replacingOccurrences(
            of: #"(<ds:Signature[\s\S]*?</ds:Signature>)([\s\S]*?</saml:Issuer>)"#,
            with: "$2$1", options: .regularExpression)
        #expect(moved != xml)
        #expect(Fixture.rejection(moved) == SAMLError.Code.badSignature)
    }

    @Test func commentInNameIDDoesNotTruncate() throws {
        // CVE-2017-11427 style: a comment inside NameID is dropped by exc-c14n, the value read must be the full text.
        let xml = try Fixture.sign(Fixture.responseXML(inner: Fixture.assertionXML(id: "_a1", nameID: "admin@evil.com.attacker.com", signed: true)))
        let commented = xml.replacingOccurrences(of: "admin@evil.com.attacker.com", with: "admin@evil.com<!---->.attacker.com")
        let result = try Fixture.validator().validate(xml: commented, expectedInResponseTo: Fixture.requestID, now: Fixture.now)
        #expect(result.nameID == "admin@evil.com.attacker.com")
    }
}
