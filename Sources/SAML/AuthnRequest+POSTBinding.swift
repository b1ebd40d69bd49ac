import Foundation
import EntitleCore
import X509

extension AuthnRequest {
    /// The `SAMLRequest` value of the HTTP-POST binding: Base64 of the XML, with an enveloped XML signature
    /// (RSA-SHA256, exc-c14n, after `Issuer`) when `signer` is given.
    package func postBindingValue(signer: SigningIdentity?) throws -> String {
        var text = xml()
        if let signer, let issuerEnd = text.range(of: "</saml:Issuer>") {
            text.insert(contentsOf: XMLSigner.template(referenceID: id, certificateBase64: signer.certificateBase64DER), at: issuerEnd.upperBound)
            text = try XMLSigner.signAll(xml: text, key: signer.privateKey)
        }
        return Data(text.utf8).base64EncodedString()
    }
}

extension AuthnRequest {
    /// IdP side: decodes the `SAMLRequest` value of the HTTP-POST binding (Base64 of the XML, no DEFLATE). When
    /// `verifyWith` is non-empty the request must carry exactly one enveloped signature, a child of the
    /// `AuthnRequest` that covers the whole request and verifies with one of the certificates (`unsigned`,
    /// `badSignature`, `badDigest` otherwise).
    package static func fromPOST(samlRequest: String, verifyWith: [Certificate]) throws -> AuthnRequest {
        guard samlRequest.utf8.count <= SAMLResponseValidator.maxBase64Length else {
            throw SAMLError(.tooLarge, "SAMLRequest exceeds \(SAMLResponseValidator.maxBase64Length) characters")
        }
        guard let bytes = Data(base64IgnoringWhitespace: samlRequest), !bytes.isEmpty else {
            throw SAMLError(.badEncoding, "SAMLRequest is not base64")
        }
        let doc = try XMLDoc(bytes: [UInt8](bytes))
        let request = try parse(doc)
        guard !verifyWith.isEmpty else { return request }
        let ids = try doc.elementsByID()
        let signatures = doc.root.descendants(NS.dsig, "Signature")
        guard !signatures.isEmpty else { throw SAMLError(.unsigned, "AuthnRequest carries no signature") }
        guard signatures.count == 1, let signature = signatures.first, signature.pointee.parent == doc.root else {
            throw SAMLError(.badSignature, "AuthnRequest must carry exactly one signature, a child of the AuthnRequest")
        }
        let keys = try verifyWith.map { try rsaPublicKey(of: $0) }
        let verified = try XMLSignatureVerifier.verify(signature: signature, doc: doc, ids: ids, keys: keys)
        guard verified.element == doc.root else { throw SAMLError(.unsigned, "the signature does not cover the AuthnRequest") }
        return request
    }
}
