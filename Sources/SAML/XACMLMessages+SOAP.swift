import CLibXML2
import EntitleCore
import Foundation
import X509

/// The OLCA SOAP binding of XACML 2.0 (notes §1.3(b), §1.4, §1.6): an `XACMLAuthzDecisionQuery` in a SOAP 1.1 envelope,
/// signed where the MVPD requires it, answered by a SAML `Response` whose `Assertion` carries an
/// `XACMLAuthzDecisionStatement`, signed where the MVPD signs it.
extension XACML {
    /// The SAML 2.0 profile of XACML, protocol namespace (`XACMLAuthzDecisionQuery`).
    package static let queryNamespace = "urn:oasis:names:tc:xacml:2.0:profile:saml2.0:v2:schema:protocol"
    /// The SAML 2.0 profile of XACML, assertion namespace (`XACMLAuthzDecisionStatement`).
    package static let statementNamespace = "urn:oasis:names:tc:xacml:2.0:profile:saml2.0:v2:schema:assertion"
    /// SOAP 1.1 envelope namespace.
    package static let soapNamespace = "http://schemas.xmlsoap.org/soap/envelope/"

    /// The SOAP query signed with an enveloped XML signature (RSA-SHA256, exc-c14n, the signer's certificate in
    /// KeyInfo) placed after its `Issuer`, covering the query element by its `ID` — the same signer as the SP's
    /// AuthnRequest and metadata.
    package static func signedSOAPQuery(
        request: String, issuer: String, destination: String, id: String, issueInstant: String, signer: SigningIdentity
    ) throws -> String {
        var text = soapQuery(request: request, issuer: issuer, destination: destination, id: id, issueInstant: issueInstant)
        guard let issuerEnd = text.range(of: "</saml:Issuer>") else { throw SAMLError.malformed("the query has no Issuer") }
        text.insert(contentsOf: XMLSigner.template(referenceID: id, certificateBase64: signer.certificateBase64DER), at: issuerEnd.upperBound)
        return try XMLSigner.signAll(xml: text, key: signer.privateKey)
    }

    /// What a PDP learns from a SOAP query.
    package struct SOAPQuery: Sendable, Equatable {
        /// The request context inside.
        package var question: Question
        /// The query's `ID`.
        package var id: String?
        /// The query's `Issuer` (the SP's entity id).
        package var issuer: String?
        /// Whether the query carried a signature (verified when it did).
        package var signed: Bool
    }

    /// Reads a SOAP `XACMLAuthzDecisionQuery`. A signature, when present, must verify with one of
    /// `certificates(issuer)` (the certificates of the SP named by the query's `Issuer`); `requireSignature` refuses
    /// an unsigned query.
    package static func parseSOAPQuery(
        _ xml: String, certificates: (String) -> [Certificate], requireSignature: Bool
    ) throws(MalformedResponse) -> SOAPQuery {
        let document: XMLDoc
        do { document = try XMLDoc(string: xml) } catch { throw MalformedResponse(reason: "The query is not well-formed XML.") }
        guard document.root.isElement(soapNamespace, "Envelope"), let body = document.root.child(soapNamespace, "Body"),
            let query = body.child(queryNamespace, "XACMLAuthzDecisionQuery")
        else { throw MalformedResponse(reason: "The request is not a SOAP envelope holding an XACMLAuthzDecisionQuery.") }
        let issuer = query.child(NS.assertion, "Issuer")?.trimmedText
        let signatures = query.children(NS.dsig, "Signature")
        if signatures.count > 1 { throw MalformedResponse(reason: "The query has more than one signature.") }
        if let signature = signatures.first {
            let keys = (issuer.map(certificates) ?? []).compactMap { try? rsaPublicKey(of: $0) }
            guard !keys.isEmpty else { throw MalformedResponse(reason: "The query is signed by an unknown issuer.") }
            do {
                let ids = try document.elementsByID()
                let verified = try XMLSignatureVerifier.verify(signature: signature, doc: document, ids: ids, keys: keys)
                guard verified.element == query else { throw SAMLError(.badSignature, "the signature does not cover the query") }
            } catch let error as SAMLError {
                throw MalformedResponse(reason: "The query signature does not verify: \(error.message)")
            } catch {
                throw MalformedResponse(reason: "The query signature does not verify.")
            }
        } else if requireSignature {
            throw MalformedResponse(reason: "The query must be signed.")
        }
        guard let request = query.childElements.first(where: { $0.localName == "Request" && isContext($0.namespaceURI) }) else {
            throw MalformedResponse(reason: "The query has no XACML request context.")
        }
        let question = try Self.question(in: request)
        return SOAPQuery(question: question, id: query.attribute("ID"), issuer: issuer, signed: !signatures.isEmpty)
    }

    /// A SOAP envelope holding a signed SAML `Response` (Status Success) whose signed `Assertion` carries an
    /// `XACMLAuthzDecisionStatement` with `response` (an XACML context `Response`), as in notes §1.6.
    package static func soapResponse(
        response: String, issuer: String, audience: String?, inResponseTo: String?, signer: SigningIdentity, now: Date,
        lifetime: TimeInterval = 300
    ) throws -> String {
        let responseID = samlNewID()
        let assertionID = samlNewID()
        let instant = SAMLTime.format(now)
        let inResponse = inResponseTo.map { " InResponseTo=\"\(XMLEscape.attribute($0))\"" } ?? ""
        let audienceXML = audience.map {
            "<saml:AudienceRestriction><saml:Audience>\(XMLEscape.attribute($0))</saml:Audience></saml:AudienceRestriction>"
        }
        let xml =
            "<soap11:Envelope xmlns:soap11=\"\(soapNamespace)\"><soap11:Body>"
            + "<samlp:Response xmlns:samlp=\"\(NS.protocol_)\" xmlns:saml=\"\(NS.assertion)\" ID=\"\(responseID)\" Version=\"2.0\""
            + " IssueInstant=\"\(instant)\"\(inResponse)><saml:Issuer>\(XMLEscape.attribute(issuer))</saml:Issuer>"
            + XMLSigner.template(referenceID: responseID, certificateBase64: signer.certificateBase64DER)
            + SAMLStatus.xml(code: SAMLStatus.success, message: nil)
            + "<saml:Assertion ID=\"\(assertionID)\" Version=\"2.0\" IssueInstant=\"\(instant)\">"
            + "<saml:Issuer>\(XMLEscape.attribute(issuer))</saml:Issuer>"
            + XMLSigner.template(referenceID: assertionID, certificateBase64: signer.certificateBase64DER)
            + "<saml:Conditions NotBefore=\"\(instant)\" NotOnOrAfter=\"\(SAMLTime.format(now.addingTimeInterval(lifetime)))\">"
            + (audienceXML ?? "") + "</saml:Conditions>"
            + "<xacml-saml:XACMLAuthzDecisionStatement xmlns:xacml-saml=\"\(statementNamespace)\">" + response
            + "</xacml-saml:XACMLAuthzDecisionStatement></saml:Assertion></samlp:Response></soap11:Body></soap11:Envelope>"
        return try XMLSigner.signAll(xml: xml, key: signer.privateKey)
    }

    /// How an MVPD's answer is checked: the certificates its signatures must verify with and the issuer it must name.
    package struct AnswerTrust: Sendable {
        /// The MVPD's signing certificates (its IdP metadata's); empty: signatures cannot be checked and are refused.
        package var certificates: [Certificate]
        /// The MVPD's SAML entity id; a SAML `Issuer` in the answer must be this one.
        package var issuer: String?
        /// Whether RSA-SHA1 and SHA-1 digests are accepted (a legacy MVPD the operator vouched for).
        package var allowSHA1: Bool

        /// Creates a trust setting.
        package init(certificates: [Certificate], issuer: String?, allowSHA1: Bool = false) {
            self.certificates = certificates
            self.issuer = issuer
            self.allowSHA1 = allowSHA1
        }
    }

    /// Parses an answer of the SOAP binding: its SAML status must be Success, every SAML `Issuer` must be the MVPD's,
    /// and every signature must verify with the MVPD's certificates; when the answer is signed, only the `Result`s
    /// inside a signed element count (signature wrapping). An unsigned answer is read as ``parseResponse(_:)`` reads it.
    package static func parseResponse(_ xml: String, trust: AnswerTrust) throws(MalformedResponse) -> [Result] {
        let document: XMLDoc
        do { document = try XMLDoc(string: xml) } catch { throw MalformedResponse(reason: "The answer is not well-formed XML.") }
        var failure: String?
        document.root.walkElements { node in
            guard failure == nil else { return }
            if node.isElement(NS.assertion, "Issuer"), let expected = trust.issuer, node.trimmedText != expected {
                failure = "The answer is issued by \(node.trimmedText), not \(expected)."
            }
            if node.isElement(NS.protocol_, "StatusCode"), node.pointee.parent.map({ $0.isElement(NS.protocol_, "Status") }) == true,
                let value = node.attribute("Value"), value != SAMLStatus.success
            {
                failure = "The answer's SAML status is \(value)."
            }
        }
        if let failure { throw MalformedResponse(reason: failure) }
        let signatures = document.root.descendants(NS.dsig, "Signature")
        guard !signatures.isEmpty else { return try parseResponse(xml) }
        let keys = trust.certificates.compactMap { try? rsaPublicKey(of: $0) }
        guard !keys.isEmpty else { throw MalformedResponse(reason: "The answer is signed but no certificate of the MVPD is known.") }
        var signed: [xmlNodePtr] = []
        do {
            let ids = try document.elementsByID()
            for signature in signatures {
                signed.append(
                    try XMLSignatureVerifier.verify(signature: signature, doc: document, ids: ids, keys: keys, allowSHA1: trust.allowSHA1).element)
            }
        } catch let error as SAMLError {
            throw MalformedResponse(reason: "The answer's signature does not verify: \(error.message)")
        } catch {
            throw MalformedResponse(reason: "The answer's signature does not verify.")
        }
        let results = resultNodes(document.root).filter { node in
            var parent: xmlNodePtr? = node
            while let current = parent {
                if signed.contains(current) { return true }
                parent = current.pointee.parent.flatMap { $0.pointee.type == XML_ELEMENT_NODE ? $0 : nil }
            }
            return false
        }
        guard !results.isEmpty else { throw MalformedResponse(reason: "The answer has no XACML Result inside its signed part.") }
        return results.map(result)
    }
}
