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
            try await TestProxyMVPD.add(to: service, integratedWith: nil, actor: "ops")
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

/// `POST /admin/api/mvpds` with `proxy` and `POST /admin/api/software-statements` with `proxyMVPD`.
@Suite struct ProxyMVPDAdminAPITests {
    @Test func theAdminAPIMarksAProxyAndIssuesItsWebServiceStatement() async throws {
        try await LocalService.run { local in
            let session = try await AdminAPITests.operatorSession(local, "ops", role: .readWrite)
            let token = try #require(session.object["token"] as? String)
            let metadata = try await AdminAPITests.call(local, .GET, "/demo-mvpd/DemoFiber/saml/metadata")
            let refused = try await AdminAPITests.call(
                local, .POST, "/admin/api/mvpds", json: ["id": "ApiProxy", "name": "Api Proxy", "samlMetadata": metadata.text, "proxyListed": true],
                token: token)
            #expect(refused.status == 400 && refused.code == "invalid_value", "\(refused.text)")
            let added = try await AdminAPITests.call(
                local, .POST, "/admin/api/mvpds",
                json: [
                    "id": "ApiProxy", "name": "Api Proxy", "samlMetadata": metadata.text, "requestors": ["REF"], "proxy": true,
                    "proxyListed": true, "proxyAllowedAddresses": ["198.51.100.0/24"],
                ], token: token)
            #expect(added.status == 201, "\(added.text)")
            let proxy = try #require(added.object["proxy"] as? [String: Any], "\(added.text)")
            #expect(proxy["listed"] as? Bool == true && proxy["allowedAddresses"] as? [String] == ["198.51.100.0/24"])
            #expect(
                try await local.service.repository.catalogStore.mvpds(requestor: "REF").contains { $0.id == "ApiProxy" }, "listed in its own right")

            let statement: [String: Any] = ["requestor": "REF", "name": "Push", "redirectURIs": ["https://p.example/cb"]]
            let notProxy = try await AdminAPITests.call(
                local, .POST, "/admin/api/software-statements", json: statement.merging(["proxyMVPD": "DemoCable"]) { $1 }, token: token)
            #expect(notProxy.status == 400 && notProxy.code == "not_a_proxy", "\(notProxy.text)")
            let issued = try await AdminAPITests.call(
                local, .POST, "/admin/api/software-statements", json: statement.merging(["proxyMVPD": "ApiProxy"]) { $1 }, token: token)
            #expect(issued.status == 201, "\(issued.text)")
            let softwareID = try #require(issued.object["softwareID"] as? String, "\(issued.text)")
            #expect(try await local.service.repository.catalogStore.proxyOfSoftwareStatement(softwareID) == "ApiProxy")
        }
    }
}
