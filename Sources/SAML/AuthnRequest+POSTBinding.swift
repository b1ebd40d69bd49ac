import Foundation

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
