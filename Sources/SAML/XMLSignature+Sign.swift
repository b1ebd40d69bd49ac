import CLibXML2
import Crypto
import _CryptoExtras
import EntitleCore
import Foundation

/// Enveloped XML signatures: a `<ds:Signature>` template placed in the element it signs is filled in.
enum XMLSigner {
    /// A signature template for the element with `referenceID` (exc-c14n, RSA-SHA256, SHA-256, enveloped),
    /// with the signer's certificate in KeyInfo. DigestValue and SignatureValue are filled by `signAll`.
    static func template(referenceID: String, certificateBase64: String) -> String {
        "<ds:Signature xmlns:ds=\"\(NS.dsig)\"><ds:SignedInfo>"
            + "<ds:CanonicalizationMethod Algorithm=\"\(DSAlgorithm.excC14N)\"/>"
            + "<ds:SignatureMethod Algorithm=\"\(DSAlgorithm.rsaSHA256)\"/>"
            + "<ds:Reference URI=\"#\(XMLEscape.attribute(referenceID))\"><ds:Transforms>"
            + "<ds:Transform Algorithm=\"\(DSAlgorithm.enveloped)\"/>"
            + "<ds:Transform Algorithm=\"\(DSAlgorithm.excC14N)\"/>"
            + "</ds:Transforms><ds:DigestMethod Algorithm=\"\(DSAlgorithm.sha256)\"/>"
            + "<ds:DigestValue></ds:DigestValue></ds:Reference></ds:SignedInfo>"
            + "<ds:SignatureValue></ds:SignatureValue><ds:KeyInfo><ds:X509Data><ds:X509Certificate>"
            + certificateBase64 + "</ds:X509Certificate></ds:X509Data></ds:KeyInfo></ds:Signature>"
    }

    /// Parses `xml`, fills every signature template in it (innermost first, so an outer signature covers the
    /// inner one), and returns the serialised signed document.
    static func signAll(xml: String, key: _RSA.Signing.PrivateKey) throws -> String {
        let doc = try XMLDoc(string: xml)
        let ids = try doc.elementsByID()
        let signatures = doc.root.descendants(NS.dsig, "Signature").sorted { $0.depth > $1.depth }
        for signature in signatures {
            try sign(signature: signature, doc: doc, ids: ids, key: key)
        }
        return doc.serialize()
    }

    private static func sign(
        signature: xmlNodePtr, doc: XMLDoc, ids: [String: xmlNodePtr],
        key: _RSA.Signing.PrivateKey
    ) throws {
        guard let signedInfo = signature.child(NS.dsig, "SignedInfo"),
            let reference = signedInfo.child(NS.dsig, "Reference"),
            let uri = reference.attribute("URI"), uri.hasPrefix("#"),
            let target = ids[String(uri.dropFirst())],
            let digestValue = reference.child(NS.dsig, "DigestValue"),
            let signatureValue = signature.child(NS.dsig, "SignatureValue")
        else { throw SAMLError.malformed("signature template is incomplete") }
        let canonical = try XMLCanonicalizer.canonicalize(doc, apex: target, excluding: signature)
        digestValue.setText(Data(SHA256.hash(data: canonical)).base64EncodedString())
        let signedInfoBytes = try XMLCanonicalizer.canonicalize(doc, apex: signedInfo)
        let value = try key.signature(for: signedInfoBytes, padding: .insecurePKCS1v1_5)
        signatureValue.setText(value.rawRepresentation.base64EncodedString())
    }
}
