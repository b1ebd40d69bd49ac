import AsyncHTTPClient
import DemoMVPD
import EntitleClients
import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import NIOHTTP1
import Testing

/// The admin API for MVPDs as they are in the field: an OAuth 2.0 MVPD added by discovery (the secret write-only), then
/// signing a device in and authorizing it; the authorization protocol, XACML binding, signing and preflight settings; a
/// clear error for every bad input, and no secret in any answer or in the changes log.
@Suite struct AdminAPIMVPDProtocolTests {
    typealias API = AdminAPITests

    static func token(_ local: LocalService) async throws -> String {
        try #require(try await API.operatorSession(local, "ops", role: .readWrite).object["token"] as? String)
    }

    @Test func anOAuth2MVPDAddedThroughTheAPISignsInAndAuthorizes() async throws {
        try await LocalService.run { local in
            let token = try await Self.token(local)
            let base = local.baseURL + "/demo-mvpd/DemoStream"
            let secret = try #require(local.host.demo?.configuration.authorizationAPIKey)
            let added = try await API.call(
                local, .POST, "/admin/api/mvpds",
                json: [
                    "id": "MyStream", "name": "My Stream", "requestors": ["REF"], "authorizationURL": base + "/rest/authz",
                    "authorizationProtocol": "rest", "preflightMaxResources": 3,
                    "oauth2": [
                        "issuer": base, "clientID": DemoMVPD.oauth2ClientID, "clientSecret": secret, "scopes": ["openid", "profile"],
                        "userIDClaim": "sub",
                    ],
                ], token: token)
            #expect(added.status == 201, "\(added.text)")
            #expect(added.object["kind"] as? String == "oauth2")
            let oauth2 = try #require(added.object["oauth2"] as? [String: Any])
            #expect(oauth2["issuer"] as? String == base && oauth2["tokenURL"] as? String == base + "/oauth2/token")
            #expect(oauth2["clientID"] as? String == DemoMVPD.oauth2ClientID && oauth2["clientSecretSet"] as? Bool == true)
            #expect(oauth2["scopes"] as? [String] == ["openid", "profile"])
            #expect(added.object["preflightMaxResources"] as? [String: Int] == ["REF": 3])
            #expect(!added.text.contains(secret), "the client secret is never shown")
            let shown = try await API.call(local, .GET, "/admin/api/mvpds/MyStream", token: token)
            #expect(shown.status == 200 && !shown.text.contains(secret))

            // A device signs in with it and is authorized on the user's behalf.
            let tv = try await local.client()
            let (_, outcome) = try await local.signIn(tv, mvpd: "MyStream", user: "erin")
            guard case .external = outcome else { throw BrowserError("no return to the app: \(outcome)") }
            let decision = try await tv.decisions("authorize", mvpd: "MyStream", resources: ["movies"]).decode(DecisionsResponse.self)
            #expect(decision.decisions.first?.authorized == true, "\(decision)")

            // Changes: scopes, the secret (write-only), the user-id claim.
            let changed = try await API.call(
                local, .PATCH, "/admin/api/mvpds/MyStream",
                json: ["oauth2": ["scopes": ["openid"], "clientSecret": "rotated-secret", "userIDClaim": "sub"]], token: token)
            #expect(changed.status == 200, "\(changed.text)")
            #expect((changed.object["oauth2"] as? [String: Any])?["scopes"] as? [String] == ["openid"])
            #expect(!changed.text.contains("rotated-secret"))
            let settings = try #require(try await local.service.repository.oauth2Store.oauth2Settings(mvpd: "MyStream"))
            #expect(!settings.encryptedClientSecret.contains("rotated-secret") && settings.encryptedClientSecret.hasPrefix("v1."))

            let changes = try await API.call(local, .GET, "/admin/api/changes", token: token)
            #expect(changes.text.contains("mvpd.add") && changes.text.contains("MyStream"))
            #expect(!changes.text.contains(secret) && !changes.text.contains("rotated-secret"), "no secret in the changes log")
        }
    }

    @Test func authorizationSettingsThroughTheAPI() async throws {
        try await LocalService.run { local in
            let token = try await Self.token(local)
            let url = try #require(try await local.service.repository.catalogStore.mvpd(id: "DemoFiber")?.authorizationUrl)
            let soap = String(url.dropLast("authorize".count)) + "xacml/soap"
            let changed = try await API.call(
                local, .PATCH, "/admin/api/mvpds/DemoFiber",
                json: ["authorizationURL": soap, "authorizationProtocol": "xacml", "xacmlBinding": "soap", "signAuthorizationQueries": true],
                token: token)
            #expect(changed.status == 200, "\(changed.text)")
            #expect(changed.object["authorizationProtocol"] as? String == "xacml")
            #expect(changed.object["xacmlBinding"] as? String == "soap" && changed.object["signAuthorizationQueries"] as? Bool == true)
            let preflight = try await API.call(
                local, .PUT, "/admin/api/integrations/REF/DemoFiber", json: ["preflightMaxResources": 4], token: token)
            #expect(preflight.status == 200 && preflight.object["preflightMaxResources"] as? Int == 4, "\(preflight.text)")

            // The settings work: a signed SOAP query, answered by the DemoMVPD that requires it.
            let tv = try await local.client()
            _ = try await local.signIn(tv, mvpd: "DemoFiber", user: "carol")
            let decisions = try await tv.decisions("preauthorize", mvpd: "DemoFiber", resources: ["news", "sports"]).decode(DecisionsResponse.self)
            #expect(decisions.decisions.map(\.authorized) == [true, false], "\(decisions)")
        }
    }

    @Test func badMVPDSettingsGetClearErrors() async throws {
        try await LocalService.run { local in
            let token = try await Self.token(local)
            let base = local.baseURL + "/demo-mvpd/DemoStream"
            let metadata = try await API.call(local, .GET, "/demo-mvpd/DemoCable/saml/metadata").text
            let oauth2: [String: Any] = ["issuer": base, "clientID": "c", "clientSecret": "s"]
            func add(_ extra: [String: Any]) async throws -> API.Answer {
                var body: [String: Any] = ["id": "Bad", "name": "Bad"]
                body.merge(extra) { _, new in new }
                return try await API.call(local, .POST, "/admin/api/mvpds", json: body, token: token)
            }
            let cases: [([String: Any], String, String)] = [
                ([:], "invalid_request", "exactly one"),
                (["samlMetadata": metadata, "oauth2": oauth2], "invalid_request", "exactly one"),
                (["oauth2": ["issuer": base, "clientID": "c"]], "invalid_value", "clientSecret"),
                (["oauth2": ["issuer": base, "clientSecret": "s"]], "invalid_value", "clientID"),
                (["oauth2": ["issuer": base, "tokenURL": base + "/t", "clientID": "c", "clientSecret": "s"]], "invalid_value", "not both"),
                (["oauth2": ["authorizeURL": base + "/a", "clientID": "c", "clientSecret": "s"]], "invalid_value", "userinfoURL"),
                (["oauth2": ["issuer": "http://mvpd.example", "clientID": "c", "clientSecret": "s"]], "invalid_value", "https"),
                (["oauth2": ["issuer": local.baseURL + "/nothing-here", "clientID": "c", "clientSecret": "s"]], "invalid_value", "HTTP 404"),
                (["oauth2": oauth2, "allowRSASHA1": true], "invalid_value", "SAML"),
                (["samlMetadata": metadata, "xacmlBinding": "rest"], "invalid_value", "plain or soap"),
                (["samlMetadata": metadata, "authorizationProtocol": "xacml"], "invalid_value", "authorization URL"),
                (
                    [
                        "samlMetadata": metadata, "authorizationProtocol": "xacml", "authorizationURL": "https://pdp.example/x",
                        "signAuthorizationQueries": true,
                    ],
                    "invalid_value", "SOAP binding"
                ),
                (["samlMetadata": metadata, "xacmlBinding": "soap"], "invalid_value", "xacml authorization protocol"),
                (["samlMetadata": metadata, "preflightMaxResources": 3], "invalid_value", "requestors"),
                (["samlMetadata": metadata, "requestors": ["REF"], "preflightMaxResources": 3], "invalid_value", "xacml or rest"),
                (["samlMetadata": metadata, "requestors": ["REF"], "preflightMaxResources": 5000], "invalid_value", "0 to 1000"),
                (["oauth2": ["issuer": 7]], "invalid_request", "oauth2"),
            ]
            for (body, code, words) in cases {
                let answer = try await add(body)
                #expect(answer.status == 400 && answer.code == code && answer.text.contains(words), "\(body): \(answer.status) \(answer.text)")
            }
            let patches: [([String: Any], String)] = [
                (["oauth2": ["scopes": ["openid"]]], "not an OAuth 2.0 MVPD"),
                (["authorizationProtocol": "carrier-pigeon"], "authorizationProtocol"),
                (["signAuthorizationQueries": true], "SOAP binding"),
                (["authorizationURL": "ftp://pdp.example"], "http(s)"),
            ]
            for (body, words) in patches {
                let answer = try await API.call(local, .PATCH, "/admin/api/mvpds/DemoCable", json: body, token: token)
                #expect(answer.status == 400 && answer.text.contains(words), "\(body): \(answer.status) \(answer.text)")
            }
            let streamPatch = try await API.call(
                local, .PATCH, "/admin/api/mvpds/DemoStream", json: ["oauth2": ["clientSecret": ""]], token: token)
            #expect(streamPatch.status == 400 && streamPatch.text.contains("clientSecret"), "\(streamPatch.text)")
            let preflight = try await API.call(local, .PUT, "/admin/api/integrations/REF/DemoCable", json: ["preflightMaxResources": 2], token: token)
            #expect(preflight.status == 400 && preflight.text.contains("xacml or rest"), "\(preflight.text)")
            // Nothing was added, nothing changed.
            #expect(try await local.service.repository.catalogStore.mvpd(id: "Bad") == nil)
            #expect(try await local.service.mvpds.view(id: "DemoCable").authorizationProtocol == "entitle-json")
        }
    }
}
