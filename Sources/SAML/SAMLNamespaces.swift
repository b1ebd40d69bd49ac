/// XML namespace URIs used by SAML 2.0 and XMLDSig.
enum NS {
    static let assertion = "urn:oasis:names:tc:SAML:2.0:assertion"
    static let protocol_ = "urn:oasis:names:tc:SAML:2.0:protocol"
    static let metadata = "urn:oasis:names:tc:SAML:2.0:metadata"
    static let dsig = "http://www.w3.org/2000/09/xmldsig#"
    static let excC14N = "http://www.w3.org/2001/10/xml-exc-c14n#"
    static let xsi = "http://www.w3.org/2001/XMLSchema-instance"
}
