import DemoMVPD
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import SAML
import Testing

@Suite("DemoMVPD metadata and providers")
struct MetadataTests {
    @Test("served metadata parses and names the IdP endpoints and certificate", arguments: DemoMVPD.providers.filter { !$0.signsInWithOAuth2 })
    func metadata(provider: DemoProvider) async throws {
        try await Fixture.application().test(.router) { client in
            let response = try await client.executeRequest(
                uri: "/demo-mvpd/\(provider.id)/saml/metadata", method: .get,
                headers: [:], body: nil)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.contains("xml") == true)
            let metadata = try IdentityProviderMetadata.parse(xml: response.text)
            #expect(metadata.entityID == "\(Fixture.baseURL)/\(provider.id)")
            #expect(metadata.singleSignOnRedirectURL == "\(Fixture.baseURL)/\(provider.id)/saml/sso")
            if provider.id == "DemoFiber" {
                #expect(metadata.singleLogoutRedirectURL == "\(Fixture.baseURL)/DemoFiber/saml/slo")
            } else {
                #expect(metadata.singleLogoutRedirectURL == nil)
            }
            #expect(metadata.signingCertificates == [Fixture.idpIdentity.certificate])
        }
    }

    @Test("metadata(for:) matches the demo world; unknown ids give nil")
    func metadataForProvider() {
        let configuration = DemoMVPDConfiguration(
            baseURL: "https://tv.example/demo-mvpd/", identity: Fixture.idpIdentity,
            trustedServiceProviders: [], authorizationAPIKey: "k")
        let mvpd = DemoMVPD(configuration: configuration, logger: Logger(label: "test"))
        #expect(mvpd.metadata(for: "DemoCable")?.entityID == "https://tv.example/demo-mvpd/DemoCable")
        #expect(mvpd.metadata(for: "DemoFiber")?.singleLogoutRedirectURL == "https://tv.example/demo-mvpd/DemoFiber/saml/slo")
        #expect(mvpd.metadata(for: "TempPass") == nil)
        #expect(configuration.secureCookies)
    }

    @Test("the demo providers carry the demo world's flags")
    func providers() {
        #expect(DemoMVPD.providers.map(\.id) == ["DemoCable", "DemoFiber", "DemoSSO", "DemoStream"])
        #expect(DemoMVPD.providers.map(\.displayName) == ["Demo Cable", "Demo Fiber", "Demo SSO TV", "Demo Stream"])
        #expect(DemoMVPD.providers.filter(\.signsInWithOAuth2).map(\.id) == ["DemoStream"])
        #expect(DemoMVPD.providers.filter(\.supportsSingleLogout).map(\.id) == ["DemoFiber"])
        #expect(DemoMVPD.providers.filter(\.requiresSafariViewController).map(\.id) == ["DemoFiber"])
        #expect(DemoMVPD.providers.filter(\.platformSSO).map(\.id) == ["DemoSSO"])
    }

    @Test("logos are self-contained SVG")
    func logo() async throws {
        try await Fixture.application().test(.router) { client in
            let response = try await client.executeRequest(
                uri: "/demo-mvpd/DemoFiber/logo.svg", method: .get,
                headers: [:], body: nil)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/svg+xml")
            #expect(response.text.hasPrefix("<svg"))
            #expect(response.text.contains("Demo Fiber"))
            #expect(!response.text.contains("href") && !response.text.contains("<script"))
        }
    }
}
