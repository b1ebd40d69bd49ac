import Foundation
import SAML
import Testing

/// The Scoping a request to a proxy MVPD carries: the last child of the AuthnRequest (SAML 2.0 core schema order),
/// escaped, and read back by the IdP side.
@Suite struct AuthnRequestScopingTests {
    @Test func scopingIsTheLastChildAndRoundTrips() throws {
        var request = AuthnRequest(
            id: "_0123456789abcdef0123456789abcdef", issueInstant: Date(timeIntervalSince1970: 1_800_000_000), issuer: "urn:sp",
            destination: "https://proxy.example/sso", assertionConsumerServiceURL: "https://sp.example/acs", forceAuthn: false)
        #expect(!request.xml().contains("Scoping"))
        request.scoping = .init(providerID: "urn:hills:fiber", name: "Hills & \"Fiber\"", requesterID: "REF")
        let xml = request.xml()
        #expect(
            xml.hasSuffix(
                "<samlp:NameIDPolicy Format=\"urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified\" AllowCreate=\"true\"/>"
                    + "<samlp:Scoping><samlp:IDPList><samlp:IDPEntry ProviderID=\"urn:hills:fiber\" Name=\"Hills &amp; &quot;Fiber&quot;\"/>"
                    + "</samlp:IDPList><samlp:RequesterID>REF</samlp:RequesterID></samlp:Scoping></samlp:AuthnRequest>"), "\(xml)")
        #expect(try AuthnRequest.parse(xml: xml) == request)
    }

    @Test func proxiedMVPDListsFollowAdobesSchema() throws {
        let list = try ProxiedMVPDList.parse(
            xml: "<pxm:proxiedMvpds xmlns:pxm=\"http://tve.adobe.com/data/proxiedmvpd\"><pxm:proxiedMvpd><pxm:logoURL/><pxm:id>A-1_b</pxm:id>"
                + "<pxm:displayName>A</pxm:displayName></pxm:proxiedMvpd></pxm:proxiedMvpds>")
        #expect(list.entries == [.init(id: "A-1_b", displayName: "A", logoURL: "")])
        #expect(try ProxiedMVPDList.parse(xml: list.xml()) == list)
        for bad in [
            "<proxiedMvpds><proxiedMvpd><id>_a</id><displayName>A</displayName><logoURL/></proxiedMvpd></proxiedMvpds>",
            "<proxiedMvpds><proxiedMvpd><id x=\"1\">a</id><displayName>A</displayName><logoURL/></proxiedMvpd></proxiedMvpds>",
            "<proxiedMvpds><proxiedMvpd><id>a</id><id>b</id><displayName>A</displayName><logoURL/></proxiedMvpd></proxiedMvpds>",
            "<proxiedMvpds><proxiedMvpd><id>a</id><displayName>A</displayName><logoURL>javascript:alert(1)</logoURL></proxiedMvpd></proxiedMvpds>",
            "<proxiedMvpds><proxiedMvpd><id>a</id><displayName>A</displayName><logoURL/><iframeSize><iframeHeight>1</iframeHeight></iframeSize></proxiedMvpd></proxiedMvpds>",
            "<proxiedMvpds><proxiedMvpd><id>a</id><displayName>A</displayName><logoURL/><requestorIds/></proxiedMvpd></proxiedMvpds>",
            "<proxiedMvpds xmlns=\"urn:other\"/>",
            "<proxiedMvpds>text</proxiedMvpds>",
        ] {
            #expect(throws: ProxiedMVPDList.SchemaError.self, "\(bad)") { try ProxiedMVPDList.parse(xml: bad) }
        }
    }
}
