import CLibXML2
import EntitleCore
import Foundation
import X509

/// The facts of an assertion that passed every check of `SAMLResponseValidator`.
package struct ValidatedAssertion: Sendable, Equatable {
    /// Assertion ID (key for the replay cache).
    package let assertionID: String
    /// The IdP entityID that issued the assertion.
    package let issuer: String
    /// Subject NameID.
    package let nameID: String
    /// AuthnStatement SessionIndex (needed for Single Logout).
    package let sessionIndex: String?
    /// The request this answers, as verified (nil for an accepted unsolicited response).
    package let inResponseTo: String?
    /// End of assertion validity: the earlier of Conditions and SubjectConfirmationData NotOnOrAfter. Keep replay
    /// cache entries until this instant plus the clock skew.
    package let notOnOrAfter: Date
    /// AuthnStatement SessionNotOnOrAfter.
    package let sessionNotOnOrAfter: Date?
    /// Attribute values by Attribute Name.
    package let attributes: [String: [String]]
    /// Whether a signature used RSA-SHA1 or a SHA-1 digest (possible only with `allowRSASHA1`).
    package internal(set) var signedWithSHA1 = false

    /// Creates a value (for tests and stores).
    package init(
        assertionID: String, issuer: String, nameID: String, sessionIndex: String?, inResponseTo: String?,
        notOnOrAfter: Date, sessionNotOnOrAfter: Date?, attributes: [String: [String]]
    ) {
        self.assertionID = assertionID
        self.issuer = issuer
        self.nameID = nameID
        self.sessionIndex = sessionIndex
        self.inResponseTo = inResponseTo
        self.notOnOrAfter = notOnOrAfter
        self.sessionNotOnOrAfter = sessionNotOnOrAfter
        self.attributes = attributes
    }
}

/// SP side: checks a Response from the HTTP-POST binding completely before anything in it is trusted.
package struct SAMLResponseValidator: Sendable {
    /// Largest accepted `SAMLResponse` form value (base64 characters).
    package static let maxBase64Length = 512 * 1024

    /// Expected Issuer of Response and Assertion.
    package let idpEntityID: String
    /// Certificates whose keys may sign (several during IdP key rotation).
    package let idpCertificates: [Certificate]
    /// This SP's entityID (must be an Audience).
    package let spEntityID: String
    /// This SP's ACS URL (Destination and Recipient).
    package let assertionConsumerServiceURL: String
    /// Tolerated clock difference for every time comparison.
    package let clockSkew: TimeInterval
    /// Accept IdP-initiated responses when `expectedInResponseTo` is nil (default false).
    package var allowUnsolicited: Bool
    /// Accept RSA-SHA1 signatures and SHA-1 digests (default false): only for a legacy IdP the operator enabled it for.
    package var allowRSASHA1 = false

    /// Creates a validator for one IdP/SP pair.
    package init(
        idpEntityID: String, idpCertificates: [Certificate], spEntityID: String,
        assertionConsumerServiceURL: String, clockSkew: TimeInterval = 120, allowUnsolicited: Bool = false
    ) {
        self.idpEntityID = idpEntityID
        self.idpCertificates = idpCertificates
        self.spEntityID = spEntityID
        self.assertionConsumerServiceURL = assertionConsumerServiceURL
        self.clockSkew = clockSkew
        self.allowUnsolicited = allowUnsolicited
    }

    /// Creates a validator for an IdP imported from metadata (its entityID and signing certificates).
    package init(
        identityProvider: IdentityProviderMetadata, spEntityID: String, assertionConsumerServiceURL: String,
        clockSkew: TimeInterval = 120, allowUnsolicited: Bool = false
    ) {
        self.init(
            idpEntityID: identityProvider.entityID, idpCertificates: identityProvider.signingCertificates,
            spEntityID: spEntityID, assertionConsumerServiceURL: assertionConsumerServiceURL,
            clockSkew: clockSkew, allowUnsolicited: allowUnsolicited)
    }

    /// Verifies signature (Response and/or Assertion; the assertion must be covered by a valid signature from one
    /// of the certificates, and every signature present must verify), issuer, status, destination, audience,
    /// NotBefore/NotOnOrAfter, SubjectConfirmationData (Recipient, NotOnOrAfter, InResponseTo) and InResponseTo.
    /// Only the single Assertion that is a child of the Response and covered by a verified Reference is read;
    /// duplicate IDs are rejected.
    package func validate(base64Response: String, expectedInResponseTo: String?, now: Date) throws -> ValidatedAssertion {
        let doc = try XMLDoc(bytes: try decodeResponseBase64(base64Response))
        return try validate(doc: doc, expectedInResponseTo: expectedInResponseTo, now: now)
    }

    /// Same checks for a Response given as XML text.
    package func validate(xml: String, expectedInResponseTo: String?, now: Date) throws -> ValidatedAssertion {
        try validate(doc: XMLDoc(string: xml), expectedInResponseTo: expectedInResponseTo, now: now)
    }

    private func validate(doc: XMLDoc, expectedInResponseTo: String?, now: Date) throws -> ValidatedAssertion {
        let root = doc.root
        guard root.isElement(NS.protocol_, "Response") else { throw SAMLError.malformed("root is not samlp:Response") }
        guard root.attribute("Version") == "2.0" else { throw SAMLError.malformed("Response Version is not 2.0") }
        let ids = try doc.elementsByID()

        if let destination = root.attribute("Destination"), destination != assertionConsumerServiceURL {
            throw SAMLError(.wrongDestination, "Response Destination is \(destination)")
        }
        if let issuer = root.child(NS.assertion, "Issuer") {
            try checkIssuer(issuer, what: "Response")
        }
        try SAMLResponseValidator.checkStatus(root)

        // Signatures: every one present must verify; remember what they cover.
        let signatures = root.descendants(NS.dsig, "Signature")
        guard !signatures.isEmpty else { throw SAMLError(.unsigned, "Response carries no signature") }
        let keys = try idpCertificates.map { try rsaPublicKey(of: $0) }
        guard !keys.isEmpty else { throw SAMLError(.badKey, "no IdP certificate configured") }
        var covered = Set<xmlNodePtr>()
        var usedSHA1 = false
        for signature in signatures {
            let verified = try XMLSignatureVerifier.verify(signature: signature, doc: doc, ids: ids, keys: keys, allowSHA1: allowRSASHA1)
            covered.insert(verified.element)
            usedSHA1 = usedSHA1 || verified.usedSHA1
        }

        guard root.descendants(NS.assertion, "EncryptedAssertion").isEmpty else {
            throw SAMLError(.unsupportedAlgorithm, "encrypted assertions are not supported")
        }
        let assertions = root.descendants(NS.assertion, "Assertion")
        guard assertions.count == 1, let assertion = assertions.first, assertion.pointee.parent == root else {
            throw SAMLError.malformed("Response must contain exactly one Assertion, as a child of the Response")
        }
        guard covered.contains(assertion) || covered.contains(root) else {
            throw SAMLError(.unsigned, "the Assertion is not covered by a valid signature")
        }

        let responseInResponseTo = root.attribute("InResponseTo")
        if let expectedInResponseTo {
            guard responseInResponseTo == expectedInResponseTo else {
                throw SAMLError(.inResponseToMismatch, "Response InResponseTo does not match the request sent")
            }
        } else if !allowUnsolicited {
            throw SAMLError(.unsolicited, "unsolicited responses are not accepted")
        }
        var validated = try readAssertion(assertion, expectedInResponseTo: expectedInResponseTo, now: now)
        validated.signedWithSHA1 = usedSHA1
        return validated
    }

    private func readAssertion(_ assertion: xmlNodePtr, expectedInResponseTo: String?, now: Date) throws -> ValidatedAssertion {
        guard assertion.attribute("Version") == "2.0" else { throw SAMLError.malformed("Assertion Version is not 2.0") }
        guard let assertionID = assertion.attribute("ID"), !assertionID.isEmpty else {
            throw SAMLError.missing("Assertion has no ID")
        }
        guard let issuer = assertion.child(NS.assertion, "Issuer") else { throw SAMLError.missing("Assertion has no Issuer") }
        try checkIssuer(issuer, what: "Assertion")

        guard let subject = assertion.child(NS.assertion, "Subject") else { throw SAMLError.missing("Assertion has no Subject") }
        guard let nameIDNode = subject.child(NS.assertion, "NameID") else {
            throw SAMLError.missing("Subject has no (unencrypted) NameID")
        }
        let nameID = nameIDNode.trimmedText
        guard !nameID.isEmpty else { throw SAMLError.missing("NameID is empty") }
        let confirmationEnd = try checkSubjectConfirmation(subject, expectedInResponseTo: expectedInResponseTo, now: now)

        guard let conditions = assertion.child(NS.assertion, "Conditions") else {
            throw SAMLError.missing("Assertion has no Conditions")
        }
        if let notBefore = try time(conditions, "NotBefore"), now.addingTimeInterval(clockSkew) < notBefore {
            throw SAMLError(.notYetValid, "Assertion is not valid before \(SAMLTime.format(notBefore))")
        }
        let conditionsEnd = try time(conditions, "NotOnOrAfter")
        if let end = conditionsEnd, now.addingTimeInterval(-clockSkew) >= end {
            throw SAMLError(.expired, "Assertion expired at \(SAMLTime.format(end))")
        }
        let restrictions = conditions.children(NS.assertion, "AudienceRestriction")
        guard !restrictions.isEmpty,
            restrictions.allSatisfy({ restriction in
                restriction.children(NS.assertion, "Audience").contains { $0.trimmedText == spEntityID }
            })
        else {
            throw SAMLError(.wrongAudience, "Assertion is not addressed to \(spEntityID)")
        }

        guard let authn = assertion.child(NS.assertion, "AuthnStatement") else {
            throw SAMLError.missing("Assertion has no AuthnStatement")
        }
        let sessionEnd = try time(authn, "SessionNotOnOrAfter")
        if let sessionEnd, now.addingTimeInterval(-clockSkew) >= sessionEnd {
            throw SAMLError(.expired, "IdP session ended at \(SAMLTime.format(sessionEnd))")
        }

        var attributes: [String: [String]] = [:]
        for statement in assertion.children(NS.assertion, "AttributeStatement") {
            for attribute in statement.children(NS.assertion, "Attribute") {
                guard let name = attribute.attribute("Name") else { continue }
                attributes[name, default: []] += attribute.children(NS.assertion, "AttributeValue").map(\.trimmedText)
            }
        }
        return ValidatedAssertion(
            assertionID: assertionID, issuer: idpEntityID, nameID: nameID,
            sessionIndex: authn.attribute("SessionIndex"), inResponseTo: expectedInResponseTo,
            notOnOrAfter: min(conditionsEnd ?? confirmationEnd, confirmationEnd),
            sessionNotOnOrAfter: sessionEnd, attributes: attributes)
    }

    /// Checks the bearer SubjectConfirmations; returns the NotOnOrAfter of the first one that passes.
    private func checkSubjectConfirmation(_ subject: xmlNodePtr, expectedInResponseTo: String?, now: Date) throws -> Date {
        let bearers = subject.children(NS.assertion, "SubjectConfirmation")
            .filter { $0.attribute("Method") == "urn:oasis:names:tc:SAML:2.0:cm:bearer" }
        guard !bearers.isEmpty else { throw SAMLError.missing("Subject has no bearer SubjectConfirmation") }
        var firstError: SAMLError?
        for bearer in bearers {
            do {
                guard let data = bearer.child(NS.assertion, "SubjectConfirmationData") else {
                    throw SAMLError.missing("bearer SubjectConfirmation has no SubjectConfirmationData")
                }
                guard data.attribute("Recipient") == assertionConsumerServiceURL else {
                    throw SAMLError(.wrongDestination, "SubjectConfirmationData Recipient is not this ACS URL")
                }
                guard let end = try time(data, "NotOnOrAfter") else {
                    throw SAMLError.missing("SubjectConfirmationData has no NotOnOrAfter")
                }
                if now.addingTimeInterval(-clockSkew) >= end {
                    throw SAMLError(.expired, "SubjectConfirmationData expired at \(SAMLTime.format(end))")
                }
                if let notBefore = try time(data, "NotBefore"), now.addingTimeInterval(clockSkew) < notBefore {
                    throw SAMLError(.notYetValid, "SubjectConfirmationData is not valid yet")
                }
                if let expectedInResponseTo, data.attribute("InResponseTo") != expectedInResponseTo {
                    throw SAMLError(.inResponseToMismatch, "SubjectConfirmationData InResponseTo does not match the request sent")
                }
                return end
            } catch let error as SAMLError {
                if firstError == nil { firstError = error }
            }
        }
        throw firstError!
    }

    private func checkIssuer(_ issuer: xmlNodePtr, what: String) throws {
        if let format = issuer.attribute("Format"), format != "urn:oasis:names:tc:SAML:2.0:nameid-format:entity" {
            throw SAMLError(.wrongIssuer, "\(what) Issuer has Format \(format)")
        }
        guard issuer.trimmedText == idpEntityID else {
            throw SAMLError(.wrongIssuer, "\(what) Issuer is not \(idpEntityID)")
        }
    }

    private func time(_ node: xmlNodePtr, _ name: String) throws -> Date? {
        guard let text = node.attribute(name) else { return nil }
        guard let date = SAMLTime.parse(text) else { throw SAMLError.malformed("\(name) is not an xs:dateTime") }
        return date
    }

    /// Throws `statusNotSuccess` (message: status code(s) and StatusMessage) unless the status is Success.
    static func checkStatus(_ root: xmlNodePtr) throws {
        guard let status = root.child(NS.protocol_, "Status"), let code = status.child(NS.protocol_, "StatusCode"),
            let value = code.attribute("Value")
        else { throw SAMLError.missing("Response has no Status") }
        guard value == SAMLStatus.success else {
            var message = value
            if let second = code.child(NS.protocol_, "StatusCode")?.attribute("Value") { message += " / " + second }
            if let text = status.child(NS.protocol_, "StatusMessage")?.trimmedText, !text.isEmpty { message += ": " + text }
            throw SAMLError(.statusNotSuccess, message)
        }
    }
}

/// Decodes a `SAMLResponse` form value: size limit first (`tooLarge`), then base64 (`badEncoding`).
func decodeResponseBase64(_ base64: String) throws -> [UInt8] {
    guard base64.utf8.count <= SAMLResponseValidator.maxBase64Length else {
        throw SAMLError(.tooLarge, "SAMLResponse exceeds \(SAMLResponseValidator.maxBase64Length) characters")
    }
    guard let bytes = Data(base64IgnoringWhitespace: base64), !bytes.isEmpty else {
        throw SAMLError(.badEncoding, "SAMLResponse is not base64")
    }
    return [UInt8](bytes)
}

/// Parses the fields of a (not yet trusted) Response just to route it: Issuer, InResponseTo. Never trust these.
package func peekResponse(base64Response: String) throws -> (issuer: String?, inResponseTo: String?) {
    let doc = try XMLDoc(bytes: try decodeResponseBase64(base64Response))
    let root = doc.root
    guard root.isElement(NS.protocol_, "Response") else { throw SAMLError.malformed("root is not samlp:Response") }
    let issuer =
        root.child(NS.assertion, "Issuer")?.trimmedText
        ?? root.child(NS.assertion, "Assertion")?.child(NS.assertion, "Issuer")?.trimmedText
    return (issuer, root.attribute("InResponseTo"))
}
