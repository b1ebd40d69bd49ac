import Foundation
import Testing
@testable import SAML

/// Shared keys and a standard scenario for the SAML tests.
enum Fixture {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-19
    static let idp = try! SigningIdentity.generate(commonName: "idp.test", now: now)
    static let otherKey = try! SigningIdentity.generate(commonName: "attacker.test", now: now)
    static let sp = try! SigningIdentity.generate(commonName: "sp.test", now: now)

    static let idpEntityID = "https://idp.example.com/saml"
    static let spEntityID = "https://entitle.example.com/sp"
    static let acsURL = "https://entitle.example.com/sp/saml/SAMLAssertionConsumer"
    static let requestID = "_0123456789abcdef0123456789abcdef"

    static var builder: SAMLResponseBuilder { SAMLResponseBuilder(issuer: idpEntityID, signer: idp) }

    static func validator(certificates: [Certificate] = [idp.certificate]) -> SAMLResponseValidator {
        SAMLResponseValidator(
            idpEntityID: idpEntityID, idpCertificates: certificates, spEntityID: spEntityID,
            assertionConsumerServiceURL: acsURL)
    }

    /// A signed success Response (XML) for alice.
    static func responseXML(
        inResponseTo: String? = requestID, destination: String = acsURL,
        audience: String = spEntityID, issuer: String = idpEntityID,
        signer: SigningIdentity = idp, at time: Date = now
    ) throws -> String {
        try SAMLResponseBuilder(issuer: issuer, signer: signer).successXML(
            inResponseTo: inResponseTo, destination: destination, audience: audience, nameID: "alice",
            sessionIndex: "S-1", attributes: ["household": ["H-1001"], "channels": ["news", "sports"]],
            now: time, assertionLifetime: 300, sessionNotOnOrAfter: time.addingTimeInterval(8 * 3600))
    }

    static func base64(_ xml: String) -> String { Data(xml.utf8).base64EncodedString() }

    /// Validates XML with the standard validator and returns the error code (nil when accepted).
    static func rejection(
        _ xml: String, expected: String? = requestID, at time: Date = now,
        validator: SAMLResponseValidator = validator()
    ) -> SAMLError.Code? {
        do {
            _ = try validator.validate(base64Response: base64(xml), expectedInResponseTo: expected, now: time)
            return nil
        } catch let error as SAMLError {
            return error.code
        } catch {
            return SAMLError.Code(rawValue: "unexpected: \(error)")
        }
    }

    /// Signs arbitrary XML containing signature templates (internal signer, for hand-made documents).
    static func sign(_ xml: String, with identity: SigningIdentity = idp) throws -> String {
        try XMLSigner.signAll(xml: xml, key: identity.privateKey)
    }

    static func template(_ id: String, _ identity: SigningIdentity = idp) -> String {
        XMLSigner.template(referenceID: id, certificateBase64: identity.certificateBase64DER)
    }

    /// An unsigned Assertion for `nameID` with the given ID (all conditions valid at `now`), optionally with a
    /// signature template after the Issuer.
    static func assertionXML(id: String, nameID: String = "alice", signed: Bool, inResponseTo: String = requestID) -> String {
        let instant = SAMLTime.format(now)
        let end = SAMLTime.format(now.addingTimeInterval(300))
        return "<saml:Assertion xmlns:saml=\"urn:oasis:names:tc:SAML:2.0:assertion\" ID=\"\(id)\" Version=\"2.0\" IssueInstant=\"\(instant)\">"
            + "<saml:Issuer>\(idpEntityID)</saml:Issuer>" + (signed ? template(id) : "")
            + "<saml:Subject><saml:NameID>\(nameID)</saml:NameID><saml:SubjectConfirmation Method=\"urn:oasis:names:tc:SAML:2.0:cm:bearer\">"
            + "<saml:SubjectConfirmationData InResponseTo=\"\(inResponseTo)\" NotOnOrAfter=\"\(end)\" Recipient=\"\(acsURL)\"/>"
            + "</saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore=\"\(instant)\" NotOnOrAfter=\"\(end)\">"
            + "<saml:AudienceRestriction><saml:Audience>\(spEntityID)</saml:Audience></saml:AudienceRestriction></saml:Conditions>"
            + "<saml:AuthnStatement AuthnInstant=\"\(instant)\" SessionIndex=\"S-1\"><saml:AuthnContext><saml:AuthnContextClassRef>"
            + "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>"
            + "</saml:AuthnStatement></saml:Assertion>"
    }

    /// A Response around `inner` (signed at Response level when `signedID` is given).
    static func responseXML(id: String = "_resp1", signedID: String? = nil, inner: String) -> String {
        "<samlp:Response xmlns:samlp=\"urn:oasis:names:tc:SAML:2.0:protocol\" xmlns:saml=\"urn:oasis:names:tc:SAML:2.0:assertion\""
            + " ID=\"\(id)\" Version=\"2.0\" IssueInstant=\"\(SAMLTime.format(now))\" Destination=\"\(acsURL)\" InResponseTo=\"\(requestID)\">"
            + "<saml:Issuer>\(idpEntityID)</saml:Issuer>" + (signedID.map { template($0) } ?? "")
            + "<samlp:Status><samlp:StatusCode Value=\"urn:oasis:names:tc:SAML:2.0:status:Success\"/></samlp:Status>"
            + inner + "</samlp:Response>"
    }
}
