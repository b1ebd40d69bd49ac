/// XMLDSig algorithm identifiers.
package enum DSAlgorithm {
    static let excC14N = "http://www.w3.org/2001/10/xml-exc-c14n#"
    static let excC14NWithComments = "http://www.w3.org/2001/10/xml-exc-c14n#WithComments"
    static let rsaSHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
    package static let rsaSHA1 = "http://www.w3.org/2000/09/xmldsig#rsa-sha1"
    static let sha256 = "http://www.w3.org/2001/04/xmlenc#sha256"
    static let sha1 = "http://www.w3.org/2000/09/xmldsig#sha1"
    static let enveloped = "http://www.w3.org/2000/09/xmldsig#enveloped-signature"
}
