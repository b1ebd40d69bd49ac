import CLibXML2
import EntitleCore
import Foundation
import X509

/// SAML binding URIs.
package enum SAMLBinding {
    /// `urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect`
    package static let httpRedirect = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"
    /// `urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST`
    package static let httpPOST = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"
}

/// What an SP needs to know about an IdP, read from (or written as) SAML 2.0 metadata.
package struct IdentityProviderMetadata: Sendable, Equatable {
    /// The IdP entityID (expected Issuer).
    package var entityID: String
    /// SingleSignOnService location for the HTTP-Redirect binding (the HTTP-POST one for an IdP that offers only that).
    package var singleSignOnRedirectURL: String
    /// SingleLogoutService location for the HTTP-Redirect binding, if any.
    package var singleLogoutRedirectURL: String?
    /// Certificates from KeyDescriptors with use="signing" or without use.
    package var signingCertificates: [Certificate]
    /// IDPSSODescriptor WantAuthnRequestsSigned.
    package var wantAuthnRequestsSigned: Bool
    /// SingleSignOnService location for the HTTP-POST binding, if the IdP offers it.
    package var singleSignOnPostURL: String?

    /// Creates metadata.
    package init(
        entityID: String, singleSignOnRedirectURL: String, singleLogoutRedirectURL: String?,
        signingCertificates: [Certificate], wantAuthnRequestsSigned: Bool = false, singleSignOnPostURL: String? = nil
    ) {
        self.entityID = entityID
        self.singleSignOnRedirectURL = singleSignOnRedirectURL
        self.singleLogoutRedirectURL = singleLogoutRedirectURL
        self.signingCertificates = signingCertificates
        self.wantAuthnRequestsSigned = wantAuthnRequestsSigned
        self.singleSignOnPostURL = singleSignOnPostURL
    }

    /// Parses an EntityDescriptor (or the first IdP EntityDescriptor inside an EntitiesDescriptor) with an
    /// IDPSSODescriptor. Metadata signatures are not checked: metadata is trusted because an operator imports it.
    package static func parse(xml: String) throws -> IdentityProviderMetadata {
        let doc = try XMLDoc(string: xml, limit: LibXML.maxMetadataBytes)
        let root = doc.root
        guard root.isElement(NS.metadata, "EntityDescriptor") || root.isElement(NS.metadata, "EntitiesDescriptor") else {
            throw SAMLError.malformed("root is not md:EntityDescriptor or md:EntitiesDescriptor")
        }
        let candidates = root.descendants(NS.metadata, "EntityDescriptor")
        guard let entity = candidates.first(where: { idpDescriptor(of: $0) != nil }),
            let descriptor = idpDescriptor(of: entity)
        else {
            throw SAMLError.missing("metadata has no SAML 2.0 IDPSSODescriptor")
        }
        guard let entityID = entity.attribute("entityID"), !entityID.isEmpty else {
            throw SAMLError.missing("EntityDescriptor has no entityID")
        }
        // An IdP that offers only the HTTP-POST binding for sign-in is accepted: its POST location stands in (the
        // service posts the AuthnRequest to it, as Adobe's own login page does).
        guard
            let sso = redirectLocation(descriptor, "SingleSignOnService")
                ?? endpointLocation(descriptor, "SingleSignOnService", binding: SAMLBinding.httpPOST)
        else {
            throw SAMLError.missing("IdP has no HTTP-Redirect or HTTP-POST SingleSignOnService")
        }
        let certificates = try metadataSigningCertificates(descriptor)
        guard !certificates.isEmpty else { throw SAMLError.missing("IdP metadata has no signing certificate") }
        let want = descriptor.attribute("WantAuthnRequestsSigned")
        return IdentityProviderMetadata(
            entityID: entityID, singleSignOnRedirectURL: sso,
            singleLogoutRedirectURL: redirectLocation(descriptor, "SingleLogoutService"),
            signingCertificates: certificates,
            wantAuthnRequestsSigned: want == "true" || want == "1",
            singleSignOnPostURL: endpointLocation(descriptor, "SingleSignOnService", binding: SAMLBinding.httpPOST))
    }

    /// The metadata as an `md:EntityDescriptor` document.
    package func xml() -> String {
        var out =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<md:EntityDescriptor xmlns:md=\"\(NS.metadata)\" xmlns:ds=\"\(NS.dsig)\" entityID=\"\(XMLEscape.attribute(entityID))\">"
            + "<md:IDPSSODescriptor WantAuthnRequestsSigned=\"\(wantAuthnRequestsSigned)\""
            + " protocolSupportEnumeration=\"\(NS.protocol_)\">"
        for certificate in signingCertificates {
            out += keyDescriptorXML(certificate)
        }
        if let slo = singleLogoutRedirectURL {
            out += "<md:SingleLogoutService Binding=\"\(SAMLBinding.httpRedirect)\" Location=\"\(XMLEscape.attribute(slo))\"/>"
        }
        out +=
            "<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified</md:NameIDFormat>"
            + "<md:SingleSignOnService Binding=\"\(SAMLBinding.httpRedirect)\" Location=\"\(XMLEscape.attribute(singleSignOnRedirectURL))\"/>"
        if let post = singleSignOnPostURL {
            out += "<md:SingleSignOnService Binding=\"\(SAMLBinding.httpPOST)\" Location=\"\(XMLEscape.attribute(post))\"/>"
        }
        out += "</md:IDPSSODescriptor></md:EntityDescriptor>\n"
        return out
    }

    private static func idpDescriptor(of entity: xmlNodePtr) -> xmlNodePtr? {
        entity.children(NS.metadata, "IDPSSODescriptor").first {
            ($0.attribute("protocolSupportEnumeration") ?? "").split(separator: " ").contains { $0 == NS.protocol_ }
        }
    }
}

/// `<md:KeyDescriptor use="signing">` with the certificate.
func keyDescriptorXML(_ certificate: Certificate) -> String {
    "<md:KeyDescriptor use=\"signing\"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>"
        + certificateBase64(certificate) + "</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>"
}

/// Location of the first `name` endpoint with the HTTP-Redirect binding.
func redirectLocation(_ descriptor: xmlNodePtr, _ name: String) -> String? {
    endpointLocation(descriptor, name, binding: SAMLBinding.httpRedirect)
}

/// Location of the first `name` endpoint with `binding` (isDefault="true" preferred).
func endpointLocation(_ descriptor: xmlNodePtr, _ name: String, binding: String) -> String? {
    let endpoints = descriptor.children(NS.metadata, name).filter { $0.attribute("Binding") == binding }
    let chosen = endpoints.first { $0.attribute("isDefault") == "true" } ?? endpoints.first
    return chosen?.attribute("Location").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// Certificates of KeyDescriptors with use="signing" or no use attribute (duplicates removed).
func metadataSigningCertificates(_ descriptor: xmlNodePtr) throws -> [Certificate] {
    var result: [Certificate] = []
    for key in descriptor.children(NS.metadata, "KeyDescriptor") {
        let use = key.attribute("use")
        guard use == nil || use == "signing" else { continue }
        for node in key.descendants(NS.dsig, "X509Certificate") {
            let certificate = try parseCertificatePEMOrBase64DER(node.textContent)
            if !result.contains(certificate) { result.append(certificate) }
        }
    }
    return result
}
