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
        #expect(try IdentityProviderMetadata.parse(xml: "\u{FEFF}" + metadata.xml()) == metadata)  // UTF-8 BOM
        var noSLO = metadata
        noSLO.singleLogoutRedirectURL = nil
        #expect(try IdentityProviderMetadata.parse(xml: noSLO.xml()) == noSLO)
    }

    @Test func serviceProviderMetadataRoundTrips() throws {
        let metadata = ServiceProviderMetadata(
            entityID: Fixture.spEntityID, assertionConsumerServiceURL: Fixture.acsURL,
            singleLogoutURL: "https://entitle.example.com/sp/slo",
            signingCertificate: Fixture.sp.certificate)
        let xml = metadata.xml()
        #expect(xml.contains("AuthnRequestsSigned=\"true\""))
        #expect(try ServiceProviderMetadata.parse(xml: xml) == metadata)
        let bare = ServiceProviderMetadata(
            entityID: "sp", assertionConsumerServiceURL: "https://a/acs", singleLogoutURL: nil, signingCertificate: nil)
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

    /// ADFS FederationMetadata.xml shape: default namespace, a metadata signature, WS-Federation RoleDescriptors
    /// and an SPSSODescriptor before the IDPSSODescriptor, encryption and signing keys.
    @Test func parsesADFSStyleFederationMetadata() throws {
        let xml = """
            <EntityDescriptor ID="_7c3e5b8a-0f7c-4d43-9d1e-2f1a0c9b4e11" entityID="http://adfs.cable.example.com/adfs/services/trust" xmlns="urn:oasis:names:tc:SAML:2.0:metadata"><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/><ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/><ds:Reference URI="#_7c3e5b8a-0f7c-4d43-9d1e-2f1a0c9b4e11"><ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/><ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/></ds:Transforms><ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue>AAAA</ds:DigestValue></ds:Reference></ds:SignedInfo><ds:SignatureValue>AAAA</ds:SignatureValue><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data><X509Certificate>\(Fixture.otherKey.certificateBase64DER)</X509Certificate></X509Data></KeyInfo></ds:Signature><RoleDescriptor xsi:type="fed:SecurityTokenServiceType" protocolSupportEnumeration="http://docs.oasis-open.org/ws-sx/ws-trust/200512 http://docs.oasis-open.org/wsfed/federation/200706" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:fed="http://docs.oasis-open.org/wsfed/federation/200706"><KeyDescriptor use="signing"><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data><X509Certificate>\(Fixture.otherKey.certificateBase64DER)</X509Certificate></X509Data></KeyInfo></KeyDescriptor><fed:PassiveRequestorEndpoint><EndpointReference xmlns="http://www.w3.org/2005/08/addressing"><Address>https://adfs.cable.example.com/adfs/ls/</Address></EndpointReference></fed:PassiveRequestorEndpoint></RoleDescriptor><SPSSODescriptor WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><KeyDescriptor use="signing"><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data><X509Certificate>\(Fixture.otherKey.certificateBase64DER)</X509Certificate></X509Data></KeyInfo></KeyDescriptor><AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://adfs.cable.example.com/adfs/ls/" index="0" isDefault="true"/></SPSSODescriptor><IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><KeyDescriptor use="encryption"><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data><X509Certificate>\(Fixture.otherKey.certificateBase64DER)</X509Certificate></X509Data></KeyInfo></KeyDescriptor><KeyDescriptor use="signing"><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data><X509Certificate>\(Fixture.idp.certificateBase64DER)</X509Certificate></X509Data></KeyInfo></KeyDescriptor><SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://adfs.cable.example.com/adfs/ls/"/><SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://adfs.cable.example.com/adfs/ls/"/><NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</NameIDFormat><SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://adfs.cable.example.com/adfs/ls/"/><SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://adfs.cable.example.com/adfs/ls/"/><Attribute Name="http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri" FriendlyName="E-Mail Address" xmlns="urn:oasis:names:tc:SAML:2.0:assertion"/></IDPSSODescriptor></EntityDescriptor>
            """
        let metadata = try IdentityProviderMetadata.parse(xml: xml)
        #expect(metadata.entityID == "http://adfs.cable.example.com/adfs/services/trust")
        #expect(metadata.singleSignOnRedirectURL == "https://adfs.cable.example.com/adfs/ls/")
        #expect(metadata.singleLogoutRedirectURL == "https://adfs.cable.example.com/adfs/ls/")
        #expect(metadata.signingCertificates == [Fixture.idp.certificate])
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
        #expect(throws: SAMLError(.missingElement, "IdP metadata has no signing certificate")) {
            try IdentityProviderMetadata.parse(xml: noKey)
        }
        #expect(throws: SAMLError.self) { try IdentityProviderMetadata.parse(xml: "<html/>") }
        #expect(throws: SAMLError.self) {
            try IdentityProviderMetadata.parse(xml: "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>" + noKey)
        }
    }
}
