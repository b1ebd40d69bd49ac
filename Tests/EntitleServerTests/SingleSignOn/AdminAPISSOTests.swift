import EntitleCore
@testable import EntitleDomain
import EntitleHost
import EntitleModel
import EntitleTesting
import Foundation
import NIOHTTP1
import Testing

/// SSO issuers through the admin API: the operation `entitle admin sso` uses, its changes-log entries, clear errors for
/// bad input, and no change for a read-only operator.
@Suite struct AdminAPISSOTests {
    @Test func anIssuerIsAddedListedShownReplacedAndRemovedAndEachChangeIsLogged() async throws {
        try await LocalService.run { local in
            let token = try #require(try await AdminAPITests.operatorSession(local, "noc", role: .readWrite).object["token"] as? String)
            let issuer = try SSOTestIssuer.rsa()
            let body: [String: Any] = [
                "id": "mynet", "type": "service-token", "issuer": "https://id.mynet.example", "publicKeys": [issuer.publicKeyPEM],
                "requestors": ["REF"],
            ]
            let added = try await AdminAPITests.call(local, .POST, "/admin/api/sso-issuers", json: body, token: token)
            #expect(added.status == 201, "\(added.text)")
            let view = added.object
            #expect(view["header"] as? String == "AD-Service-Token")
            #expect(view["profileType"] as? String == "serviceTokenSSO")
            #expect(view["effectiveAudience"] as? String == "adobe")
            // Keys are shown by fingerprint, never whole.
            #expect(!added.text.contains("BEGIN PUBLIC KEY"))
            #expect((view["publicKeys"] as? [String])?.first?.hasPrefix("RS256 sha256:") == true)

            let list = try await AdminAPITests.call(local, .GET, "/admin/api/sso-issuers", token: token)
            #expect((list.json as? [[String: Any]])?.map { $0["id"] as? String } == ["mynet"])
            let shown = try await AdminAPITests.call(local, .GET, "/admin/api/sso-issuers/mynet", token: token)
            #expect(shown.status == 200 && shown.object["issuer"] as? String == "https://id.mynet.example")

            var replaced = body
            replaced["audience"] = "mynet-tv"
            #expect(try await AdminAPITests.call(local, .POST, "/admin/api/sso-issuers", json: replaced, token: token).status == 201)
            #expect(try await local.service.ssoIssuers.issuer(id: "mynet").effectiveAudience == "mynet-tv")

            let removed = try await AdminAPITests.call(local, .DELETE, "/admin/api/sso-issuers/mynet", token: token)
            #expect(removed.status == 204, "\(removed.text)")
            let again = try await AdminAPITests.call(local, .DELETE, "/admin/api/sso-issuers/mynet", token: token)
            #expect(again.status == 404 && again.code == "unknown_sso_issuer", "\(again.text)")
            #expect(try await AdminAPITests.call(local, .GET, "/admin/api/sso-issuers/mynet", token: token).status == 404)

            let changes = try await local.service.changes.recorded(since: 0).filter { $0.target == "mynet" }
            #expect(changes.map(\.action) == ["sso.add", "sso.update", "sso.remove"])
            #expect(changes.allSatisfy { $0.actor.contains("noc") })
            #expect(!changes.contains { ($0.valueAfter ?? "").contains("BEGIN PUBLIC KEY") || ($0.valueBefore ?? "").contains("BEGIN PUBLIC KEY") })
        }
    }

    @Test func badIssuersAreRefusedClearly() async throws {
        try await LocalService.run { local in
            let token = try #require(try await AdminAPITests.operatorSession(local, "noc", role: .readWrite).object["token"] as? String)
            let pem = SSOTestIssuer.p256().publicKeyPEM
            let base: [String: Any] = ["id": "x", "type": "roku", "issuer": "roku.com", "publicKeys": [pem], "requestors": ["REF"]]
            let cases: [([String: Any], Int, String)] = [
                (base.merging(["type": "google"]) { $1 }, 400, "invalid_value"),
                (base.merging(["publicKeys": [String]()]) { $1 }, 400, "missing_key"),
                (base.merging(["publicKeys": ["-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----"]]) { $1 }, 400, "invalid_public_key"),
                (base.merging(["publicKeys": [String](), "jwksUrl": "http://keys.example/jwks"]) { $1 }, 400, "invalid_value"),
                (base.merging(["requestors": ["NOPE"]]) { $1 }, 404, "unknown_requestor"),
                (base.merging(["requestors": [String]()]) { $1 }, 400, "missing_requestor"),
                (base.merging(["id": "a b"]) { $1 }, 400, "invalid_value"),
            ]
            for (body, status, code) in cases {
                let answer = try await AdminAPITests.call(local, .POST, "/admin/api/sso-issuers", json: body, token: token)
                #expect(answer.status == status && answer.code == code, "\(body): \(answer.text)")
            }
            let malformed = try await AdminAPITests.call(local, .POST, "/admin/api/sso-issuers", raw: "{", token: token)
            #expect(malformed.status == 400)
            #expect(try await local.service.ssoIssuers.issuers().isEmpty)

            let viewer = try #require(try await AdminAPITests.operatorSession(local, "viewer", role: .readOnly).object["token"] as? String)
            #expect(try await AdminAPITests.call(local, .GET, "/admin/api/sso-issuers", token: viewer).status == 200)
            let refused = try await AdminAPITests.call(local, .POST, "/admin/api/sso-issuers", json: base, token: viewer)
            #expect(refused.status == 403 && refused.code == "forbidden", "\(refused.text)")
            #expect(try await local.service.ssoIssuers.issuers().isEmpty)
        }
    }
}
