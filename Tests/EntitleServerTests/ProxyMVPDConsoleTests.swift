import EntitleDomain
import EntitleModel
import EntitleTesting
import Foundation
import Testing

/// The console's MVPD list names proxies and the proxy of each proxied MVPD.
@Suite struct ProxyMVPDConsoleTests {
    @Test func theMVPDListShowsProxiesAndProxiedMVPDs() async throws {
        try await LocalService.run { local in
            let service = local.service
            try await service.repository.catalog.upsertMVPD(
                MVPDRecord(
                    id: "SmallProxy", displayName: "Small Proxy", logoUrl: "", kind: .saml, entityId: "urn:test:small-proxy",
                    ssoUrl: "https://proxy.example/sso", certificates: [], requiresSafariViewController: false, enablePlatformServices: false,
                    displayInPlatformPicker: false, profileTtlSeconds: 86_400, encryptedAttributes: []))
            try await service.proxyMVPDs.markProxy(id: "SmallProxy", listed: false, allowedAddresses: [], actor: "ops")
            let client = ClientRecord(
                clientId: "proxy-client", secretHash: "", softwareId: "s", requestorId: "REF", redirectURIs: [], issuedAt: 0, revoked: false)
            try await service.proxyMVPDs.push(
                proxy: "SmallProxy",
                xml: "<proxiedMvpds><proxiedMvpd><id>Tiny</id><displayName>Tiny TV</displayName><logoURL/></proxiedMvpd></proxiedMvpds>",
                client: client)
            let (cookie, _) = try await ConsoleTests.signIn(local, "ops", role: .readOnly)
            let page = try await ConsoleTests.call(local, .GET, "/console/mvpds", cookie: cookie)
            #expect(page.text.contains("<td>Small Proxy <span class=\"badge\">proxy</span></td>"), "\(page.text)")
            #expect(page.text.contains("<td>Tiny TV <span class=\"badge\">via SmallProxy</span></td>"), "\(page.text)")
        }
    }
}
