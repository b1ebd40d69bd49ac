import Foundation
import Testing
@testable import SAML

@Suite struct MetadataTests {
    @Test func identityProviderMetadataRoundTrips() throws {
        let metadata = IdentityProviderMetadata(
            entityID: "https://idp.example.com/saml?x=1&y=2", singleSignOnRedirectURL: "https://idp.example.com/sso",
            singleLogoutRedirectURL: "https://idp.example.com/slo",
            signingCertificates: [Fixture.idp.certificate, Fixture.otherKey.certificate], wantAuthnRequestsSigned: true)
        #expect(try IdentityProviderMetadata.parse(xml: metadata.xml()) == metadata)
        var noSLO = metadata
        noSLO.singleLogoutRedirectURL = nil
        #expect(try IdentityProviderMetadata.parse(xml: noSLO.xml()) == noSLO)
    }

    @Test func serviceProviderMetadataRoundTrips() throws {
        let metadata = ServiceProviderMetadata(entityID: Fixture.spEntityID, assertionConsumerServiceURL: Fixture.acsURL,
                                               singleLogoutURL: "https://entitle.example.com/sp/slo",
                                               signingCertificate: Fixture.sp.certificate)
        let xml = metadata.xml()
        #expect(xml.contains("AuthnRequestsSigned=\"true\""))
        #expect(try ServiceProviderMetadata.parse(xml: xml) == metadata)
        let bare = ServiceProviderMetadata(entityID: "sp", assertionConsumerServiceURL: "https://a/acs", singleLogoutURL: nil, signingCertificate: nil)
        #expect(try ServiceProviderMetadata.parse(xml: bare.xml()) == bare)
    }

    /// Shibboleth-IdP-style metadata inside an EntitiesDescriptor: pretty-printed, extensions, an encryption key
    /// that must be ignored, a SAML 1.1 descriptor first, several bindings, base64 split across lines.
    @Test func parsesThirdPartyIdPMetadata() throws {
        let signing = Fixture.idp.certificateBase64DER
        let wrapped = stride(from: 0, to: signing.count, by: 64).map { offset -> String in
            let start = signing.index(signing.startIndex, offsetBy: offset)
            let end = signing.index(start, offsetBy: min(64, signing.count - offset))
            return String(signing[start..<end])
        }.joined(separator: "\n                        ")
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- Shibboleth IdP v4 generated metadata -->
        <EntitiesDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" Name="urn:mace:example">
          <EntityDescriptor xmlns:ds="http://www.w3.org/2000/09/xmldsig#" xmlns:shibmd="urn:mace:shibboleth:metadata:1.0"
              xmlns:mdui="urn:oasis:names:tc:SAML:metadata:ui" entityID="https://idp.cable.example.net/idp/shibboleth">
            <IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:1.1:protocol urn:mace:shibboleth:1.0">
              <SingleSignOnService Binding="urn:mace:shibboleth:1.0:profiles:AuthnRequest" Location="https://idp.cable.example.net/idp/profile/Shibboleth/SSO"/>
            </IDPSSODescriptor>
            <IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol urn:oasis:names:tc:SAML:1.1:protocol">
              <Extensions>
                <shibmd:Scope regexp="false">cable.example.net</shibmd:Scope>
                <mdui:UIInfo><mdui:DisplayName xml:lang="en">Example Cable</mdui:DisplayName></mdui:UIInfo>
              </Extensions>
              <KeyDescriptor use="encryption">
                <ds:KeyInfo><ds:X509Data><ds:X509Certificate>\(Fixture.otherKey.certificateBase64DER)</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
              </KeyDescriptor>
              <KeyDescriptor>
                <ds:KeyInfo>
                  <ds:X509Data>
                    <ds:X509Certificate>
                        \(wrapped)
                    </ds:X509Certificate>
                  </ds:X509Data>
                </ds:KeyInfo>
              </KeyDescriptor>
              <ArtifactResolutionService Binding="urn:oasis:names:tc:SAML:2.0:bindings:SOAP" Location="https://idp.cable.example.net:8443/idp/profile/SAML2/SOAP/ArtifactResolution" index="2"/>
              <SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.cable.example.net/idp/profile/SAML2/POST/SLO"/>
              <SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.cable.example.net/idp/profile/SAML2/Redirect/SLO"/>
              <NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</NameIDFormat>
              <SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.cable.example.net/idp/profile/SAML2/POST/SSO"/>
              <SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.cable.example.net/idp/profile/SAML2/Redirect/SSO"/>
            </IDPSSODescriptor>
            <AttributeAuthorityDescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
              <AttributeService Binding="urn:oasis:names:tc:SAML:2.0:bindings:SOAP" Location="https://idp.cable.example.net:8443/idp/profile/SAML2/SOAP/AttributeQuery"/>
            </AttributeAuthorityDescriptor>
          </EntityDescriptor>
        </EntitiesDescriptor>
        """
        let metadata = try IdentityProviderMetadata.parse(xml: xml)
        #expect(metadata.entityID == "https://idp.cable.example.net/idp/shibboleth")
        #expect(metadata.singleSignOnRedirectURL == "https://idp.cable.example.net/idp/profile/SAML2/Redirect/SSO")
        #expect(metadata.singleLogoutRedirectURL == "https://idp.cable.example.net/idp/profile/SAML2/Redirect/SLO")
        #expect(metadata.signingCertificates == [Fixture.idp.certificate])
        #expect(metadata.wantAuthnRequestsSigned == false)
    }

    @Test func metadataWithoutRedirectSSOOrKeyIsRejected() throws {
        let noRedirect = """
        <md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x">
          <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
            <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://x/sso"/>
          </md:IDPSSODescriptor></md:EntityDescriptor>
        """
        #expect(throws: SAMLError.self) { try IdentityProviderMetadata.parse(xml: noRedirect) }
        let noKey = noRedirect.replacingOccurrences(of: "HTTP-POST", with: "HTTP-Redirect")
        #expect(throws: SAMLError(code: SAMLError.missingElement, message: "IdP metadata has no signing certificate")) {
            try IdentityProviderMetadata.parse(xml: noKey)
        }
        #expect(throws: SAMLError.self) { try IdentityProviderMetadata.parse(xml: "<html/>") }
        #expect(throws: SAMLError.self) {
            try IdentityProviderMetadata.parse(xml: "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>" + noKey)
        }
    }
}
