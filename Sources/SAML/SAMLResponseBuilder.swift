import EntitleCore
import Foundation

/// SAML status code URIs.
package enum SAMLStatus {
    /// `urn:oasis:names:tc:SAML:2.0:status:Success`
    package static let success = "urn:oasis:names:tc:SAML:2.0:status:Success"
    /// `urn:oasis:names:tc:SAML:2.0:status:Requester`
    package static let requester = "urn:oasis:names:tc:SAML:2.0:status:Requester"
    /// `urn:oasis:names:tc:SAML:2.0:status:Responder`
    package static let responder = "urn:oasis:names:tc:SAML:2.0:status:Responder"
    /// `urn:oasis:names:tc:SAML:2.0:status:VersionMismatch`
    package static let versionMismatch = "urn:oasis:names:tc:SAML:2.0:status:VersionMismatch"
    /// Second-level: the user could not be authenticated.
    package static let authnFailed = "urn:oasis:names:tc:SAML:2.0:status:AuthnFailed"
    /// Second-level: the request (e.g. IsPassive) could not be satisfied without user interaction.
    package static let noPassive = "urn:oasis:names:tc:SAML:2.0:status:NoPassive"
    /// Second-level: the principal is not known or refused the request.
    package static let requestDenied = "urn:oasis:names:tc:SAML:2.0:status:RequestDenied"
    /// Second-level: only part of a logout succeeded.
    package static let partialLogout = "urn:oasis:names:tc:SAML:2.0:status:PartialLogout"

    static let topLevel: Set<String> = [success, requester, responder, versionMismatch]

    /// `<samlp:Status>` for `code`: a top-level code directly, any other code nested under Responder.
    static func xml(code: String, message: String?) -> String {
        var out = "<samlp:Status>"
        if topLevel.contains(code) {
            out += "<samlp:StatusCode Value=\"\(XMLEscape.attribute(code))\"/>"
        } else {
            out += "<samlp:StatusCode Value=\"\(responder)\"><samlp:StatusCode Value=\"\(XMLEscape.attribute(code))\"/></samlp:StatusCode>"
        }
        if let message { out += "<samlp:StatusMessage>\(XMLEscape.attribute(message))</samlp:StatusMessage>" }
        return out + "</samlp:Status>"
    }
}

/// IdP side: builds a signed `<samlp:Response>` containing a signed `<saml:Assertion>` (enveloped signatures,
/// exc-c14n, RSA-SHA256, SHA-256 digests) and returns it base64-encoded for the HTTP-POST binding.
package struct SAMLResponseBuilder: Sendable {
    /// The IdP entityID written as Issuer.
    package let issuer: String
    /// Key and certificate that sign Response and Assertion.
    package let signer: SigningIdentity
    /// NameID Format written in the Subject.
    package var nameIDFormat: String = "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified"
    /// The NameID's `NameQualifier` (a proxy MVPD writes the proxied MVPD's entity id there); none when nil.
    package var nameQualifier: String? = nil
    /// AuthnContextClassRef written in the AuthnStatement.
    package var authnContextClassRef: String = "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport"

    /// Creates a builder for one IdP.
    package init(issuer: String, signer: SigningIdentity) {
        self.issuer = issuer
        self.signer = signer
    }

    /// A successful, signed Response (base64) with one signed bearer Assertion for `audience`, valid
    /// `[now, now + assertionLifetime)`, whose SubjectConfirmationData Recipient is `destination`.
    package func success(
        inResponseTo: String?, destination: String, audience: String, nameID: String,
        sessionIndex: String, attributes: [String: [String]], now: Date,
        assertionLifetime: TimeInterval = 300, sessionNotOnOrAfter: Date?
    ) throws -> String {
        try Data(
            successXML(
                inResponseTo: inResponseTo, destination: destination, audience: audience, nameID: nameID,
                sessionIndex: sessionIndex, attributes: attributes, now: now, assertionLifetime: assertionLifetime,
                sessionNotOnOrAfter: sessionNotOnOrAfter
            ).utf8
        ).base64EncodedString()
    }

    /// Same as `success` but returns the signed XML text (for tests and tools).
    package func successXML(
        inResponseTo: String?, destination: String, audience: String, nameID: String,
        sessionIndex: String, attributes: [String: [String]], now: Date,
        assertionLifetime: TimeInterval = 300, sessionNotOnOrAfter: Date?
    ) throws -> String {
        let responseID = samlNewID()
        let assertionID = samlNewID()
        let instant = SAMLTime.format(now)
        let end = SAMLTime.format(now.addingTimeInterval(assertionLifetime))
        let inResponse = inResponseTo.map { " InResponseTo=\"\(XMLEscape.attribute($0))\"" } ?? ""
        var assertion =
            "<saml:Assertion xmlns:saml=\"\(NS.assertion)\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\""
            + " xmlns:xsi=\"\(NS.xsi)\" ID=\"\(assertionID)\" Version=\"2.0\" IssueInstant=\"\(instant)\">"
            + "<saml:Issuer>\(XMLEscape.attribute(issuer))</saml:Issuer>"
            + XMLSigner.template(referenceID: assertionID, certificateBase64: signer.certificateBase64DER)
            + "<saml:Subject><saml:NameID Format=\"\(XMLEscape.attribute(nameIDFormat))\""
            + (nameQualifier.map { " NameQualifier=\"\(XMLEscape.attribute($0))\"" } ?? "") + ">\(XMLEscape.attribute(nameID))</saml:NameID>"
            + "<saml:SubjectConfirmation Method=\"urn:oasis:names:tc:SAML:2.0:cm:bearer\">"
            + "<saml:SubjectConfirmationData\(inResponse) NotOnOrAfter=\"\(end)\" Recipient=\"\(XMLEscape.attribute(destination))\"/>"
            + "</saml:SubjectConfirmation></saml:Subject>"
            + "<saml:Conditions NotBefore=\"\(instant)\" NotOnOrAfter=\"\(end)\"><saml:AudienceRestriction>"
            + "<saml:Audience>\(XMLEscape.attribute(audience))</saml:Audience></saml:AudienceRestriction></saml:Conditions>"
            + "<saml:AuthnStatement AuthnInstant=\"\(instant)\" SessionIndex=\"\(XMLEscape.attribute(sessionIndex))\""
            + (sessionNotOnOrAfter.map { " SessionNotOnOrAfter=\"\(SAMLTime.format($0))\"" } ?? "") + ">"
            + "<saml:AuthnContext><saml:AuthnContextClassRef>\(XMLEscape.attribute(authnContextClassRef))</saml:AuthnContextClassRef>"
            + "</saml:AuthnContext></saml:AuthnStatement>"
        if !attributes.isEmpty {
            assertion += "<saml:AttributeStatement>"
            for name in attributes.keys.sorted() {
                assertion +=
                    "<saml:Attribute Name=\"\(XMLEscape.attribute(name))\""
                    + " NameFormat=\"urn:oasis:names:tc:SAML:2.0:attrname-format:basic\">"
                for value in attributes[name] ?? [] {
                    assertion += "<saml:AttributeValue xsi:type=\"xs:string\">\(XMLEscape.attribute(value))</saml:AttributeValue>"
                }
                assertion += "</saml:Attribute>"
            }
            assertion += "</saml:AttributeStatement>"
        }
        assertion += "</saml:Assertion>"
        let xml =
            responseOpen(id: responseID, instant: instant, destination: destination, inResponse: inResponse)
            + XMLSigner.template(referenceID: responseID, certificateBase64: signer.certificateBase64DER)
            + SAMLStatus.xml(code: SAMLStatus.success, message: nil) + assertion + "</samlp:Response>"
        return try XMLSigner.signAll(xml: xml, key: signer.privateKey)
    }

    /// A signed Response without assertion carrying `statusCode` (top-level code, or a second-level code that is
    /// nested under Responder) and an optional StatusMessage, base64-encoded.
    package func failure(
        inResponseTo: String?, destination: String, statusCode: String, message: String?,
        now: Date
    ) throws -> String {
        let responseID = samlNewID()
        let inResponse = inResponseTo.map { " InResponseTo=\"\(XMLEscape.attribute($0))\"" } ?? ""
        let xml =
            responseOpen(id: responseID, instant: SAMLTime.format(now), destination: destination, inResponse: inResponse)
            + XMLSigner.template(referenceID: responseID, certificateBase64: signer.certificateBase64DER)
            + SAMLStatus.xml(code: statusCode, message: message) + "</samlp:Response>"
        return Data(try XMLSigner.signAll(xml: xml, key: signer.privateKey).utf8).base64EncodedString()
    }

    private func responseOpen(id: String, instant: String, destination: String, inResponse: String) -> String {
        "<samlp:Response xmlns:samlp=\"\(NS.protocol_)\" xmlns:saml=\"\(NS.assertion)\" ID=\"\(id)\" Version=\"2.0\""
            + " IssueInstant=\"\(instant)\" Destination=\"\(XMLEscape.attribute(destination))\"\(inResponse)>"
            + "<saml:Issuer>\(XMLEscape.attribute(issuer))</saml:Issuer>"
    }
}
