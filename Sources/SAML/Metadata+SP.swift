import CLibXML2
import EntitleCore
import Foundation
import X509

/// What an IdP needs to know about an SP, written as (or read from) SAML 2.0 metadata.
package struct ServiceProviderMetadata: Sendable, Equatable {
    /// The SP entityID (Audience, AuthnRequest Issuer).
    package var entityID: String
    /// AssertionConsumerService for the HTTP-POST binding.
    package var assertionConsumerServiceURL: String
    /// SingleLogoutService for the HTTP-Redirect binding, if any.
    package var singleLogoutURL: String?
    /// Certificate that signs AuthnRequests and logout messages, if the SP signs.
    package var signingCertificate: Certificate?
    /// Further certificates an IdP should accept our signatures with: during a key rotation, the successor key
    /// (published before it signs) and the one just retired.
    package var additionalSigningCertificates: [Certificate] = []

    /// Creates metadata.
    package init(
        entityID: String, assertionConsumerServiceURL: String, singleLogoutURL: String?,
        signingCertificate: Certificate?
    ) {
        self.entityID = entityID
        self.assertionConsumerServiceURL = assertionConsumerServiceURL
        self.singleLogoutURL = singleLogoutURL
        self.signingCertificate = signingCertificate
    }

    /// The metadata as an `md:EntityDescriptor` document.
    package func xml() -> String {
        var out =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<md:EntityDescriptor xmlns:md=\"\(NS.metadata)\" xmlns:ds=\"\(NS.dsig)\" entityID=\"\(XMLEscape.attribute(entityID))\">"
            + "<md:SPSSODescriptor AuthnRequestsSigned=\"\(signingCertificate != nil)\" WantAssertionsSigned=\"true\""
            + " protocolSupportEnumeration=\"\(NS.protocol_)\">"
        if let signingCertificate { out += keyDescriptorXML(signingCertificate) }
        for certificate in additionalSigningCertificates where certificate != signingCertificate { out += keyDescriptorXML(certificate) }
        if let slo = singleLogoutURL {
            out += "<md:SingleLogoutService Binding=\"\(SAMLBinding.httpRedirect)\" Location=\"\(XMLEscape.attribute(slo))\"/>"
        }
        out +=
            "<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified</md:NameIDFormat>"
            + "<md:AssertionConsumerService Binding=\"\(SAMLBinding.httpPOST)\""
            + " Location=\"\(XMLEscape.attribute(assertionConsumerServiceURL))\" index=\"0\" isDefault=\"true\"/>"
            + "</md:SPSSODescriptor></md:EntityDescriptor>\n"
        return out
    }

    /// Parses an EntityDescriptor (or the first SP EntityDescriptor inside an EntitiesDescriptor) with an
    /// SPSSODescriptor that has an HTTP-POST AssertionConsumerService.
    package static func parse(xml: String) throws -> ServiceProviderMetadata {
        let doc = try XMLDoc(string: xml, limit: LibXML.maxMetadataBytes)
        let root = doc.root
        guard root.isElement(NS.metadata, "EntityDescriptor") || root.isElement(NS.metadata, "EntitiesDescriptor") else {
            throw SAMLError.malformed("root is not md:EntityDescriptor or md:EntitiesDescriptor")
        }
        func descriptor(_ entity: xmlNodePtr) -> xmlNodePtr? { entity.child(NS.metadata, "SPSSODescriptor") }
        guard let entity = root.descendants(NS.metadata, "EntityDescriptor").first(where: { descriptor($0) != nil }),
            let sp = descriptor(entity)
        else {
            throw SAMLError.missing("metadata has no SPSSODescriptor")
        }
        guard let entityID = entity.attribute("entityID"), !entityID.isEmpty else {
            throw SAMLError.missing("EntityDescriptor has no entityID")
        }
        guard let acs = endpointLocation(sp, "AssertionConsumerService", binding: SAMLBinding.httpPOST) else {
            throw SAMLError.missing("SP has no HTTP-POST AssertionConsumerService")
        }
        return ServiceProviderMetadata(
            entityID: entityID, assertionConsumerServiceURL: acs,
            singleLogoutURL: redirectLocation(sp, "SingleLogoutService"),
            signingCertificate: try metadataSigningCertificates(sp).first)
    }
}
