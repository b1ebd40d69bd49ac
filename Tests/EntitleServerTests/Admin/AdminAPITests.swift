import AsyncHTTPClient
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// The admin API over a real socket: operator sign-in (session cookie with CSRF, or bearer token), roles, throttling,
/// idle expiry, onboarding a requestor, an MVPD, its integration and an app, every change in the changes log, and a
/// clear error for every bad input.
@Suite struct AdminAPITests {
    static let password = "correct horse battery"

    /// One admin API answer.
    struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var body: Data
        var json: Any? { try? JSONSerialization.jsonObject(with: body) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
        var code: String? { object["code"] as? String }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Calls the admin API of `local` (or of `base`).
    static func call(
        _ local: LocalService, _ method: HTTPMethod, _ path: String, json: Any? = nil, raw: String? = nil, token: String? = nil,
        cookie: String? = nil, csrf: String? = nil, base: String? = nil
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: (base ?? local.baseURL) + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        if let csrf { request.headers.add(name: "X-CSRF-Token", value: csrf) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: json)))
        } else if let raw {
            request.body = .bytes(ByteBuffer(string: raw))
        }
        // Generous: the full suite runs a hundred services at once on two cores.
        let response = try await local.httpClient.execute(request, timeout: AnswerPatience.timeAmount)
        let body = try await response.body.collect(upTo: 4 << 20)
        return Answer(status: Int(response.status.code), headers: response.headers, body: Data(buffer: body))
    }

    /// Creates an operator with the test password and signs it in; returns the sign-in answer.
    static func operatorSession(_ local: LocalService, _ username: String, role: OperatorRole) async throws -> Answer {
        _ = try await local.service.operatorChanges.add(username: username, role: role, password: password, actor: "test")
        let answer = try await call(local, .POST, "/admin/api/session", json: ["username": username, "password": password])
        #expect(answer.status == 201, "\(answer.text)")
        return answer
    }

    @Test func aReadWriteOperatorOnboardsARequestorAnMVPDAndAnAppAndEveryStepIsLogged() async throws {
        try await LocalService.run { local in
            let session = try await Self.operatorSession(local, "ops", role: .readWrite)
            let token = try #require(session.object["token"] as? String)
            let requestor = try await Self.call(
                local, .POST, "/admin/api/requestors", json: ["id": "MYNET", "name": "My Network", "domains": ["mynet.example"]], token: token)
            #expect(requestor.status == 201, "\(requestor.text)")
            let duplicate = try await Self.call(local, .POST, "/admin/api/requestors", json: ["id": "MYNET", "name": "Again"], token: token)
            #expect(duplicate.status == 409 && duplicate.code == "requestor_exists")

            let metadata = try await Self.call(local, .GET, "/demo-mvpd/DemoCable/saml/metadata")
            let mvpd = try await Self.call(
                local, .POST, "/admin/api/mvpds",
                json: [
                    "id": "MyCable", "name": "My Cable", "samlMetadata": metadata.text, "requestors": ["MYNET"], "authorizeAll": true,
                    "settings": ["requiresSafariViewController": true],
                ], token: token)
            #expect(mvpd.status == 201, "\(mvpd.text)")
            #expect(mvpd.object["requiresSafariViewController"] as? Bool == true)
            #expect((mvpd.object["integrations"] as? [[String: Any]])?.first?["enabled"] as? Bool == true)
            #expect(mvpd.object["authorizationKey"] == nil, "never a secret")

            let renamed = try await Self.call(
                local, .PUT, "/admin/api/integrations/MYNET/MyCable", json: ["displayName": "Cable (MYNET)", "profileTTLSeconds": 3600], token: token)
            #expect(renamed.status == 200 && renamed.object["displayName"] as? String == "Cable (MYNET)", "\(renamed.text)")
            #expect(
                try await local.service.repository.catalogStore.integratedMVPD(requestor: "MYNET", mvpd: "MyCable")?.displayName == "Cable (MYNET)")
            let disabled = try await Self.call(local, .PUT, "/admin/api/integrations/MYNET/MyCable", json: ["enabled": false], token: token)
            #expect(disabled.status == 200 && disabled.object["enabled"] as? Bool == false, "\(disabled.text)")
            #expect(try await local.service.repository.catalogStore.integratedMVPD(requestor: "MYNET", mvpd: "MyCable") == nil)

            let app = try await Self.call(
                local, .POST, "/admin/api/software-statements",
                json: ["requestor": "MYNET", "name": "My TV", "redirectURIs": ["mynet://callback"]], token: token)
            #expect(app.status == 201, "\(app.text)")
            let jwt = try #require(app.object["softwareStatement"] as? String)
            #expect(await local.service.applications.isApproved(softwareStatement: jwt))

            let changes = try await Self.call(local, .GET, "/admin/api/changes", token: token)
            let entries = try #require(changes.json as? [[String: Any]])
            let mine = entries.filter { $0["actor"] as? String == "operator:ops" }.compactMap { $0["action"] as? String }
            #expect(
                mine == ["requestor.add", "mvpd.add", "mvpd.update", "integration.update", "integration.disable", "software-statement.create"],
                "\(mine)")
            let integration = try #require(entries.first { $0["action"] as? String == "integration.disable" })
            #expect((integration["before"] as? [String: Any])?["enabled"] as? Bool == true)
            #expect((integration["after"] as? [String: Any])?["enabled"] as? Bool == false)
            #expect(!changes.text.contains(Self.password) && !changes.text.contains("scrypt$"))
        }
    }

    @Test func aReadOnlyOperatorSeesEverythingAndChangesNothing() async throws {
        try await LocalService.run { local in
            let token = try #require(try await Self.operatorSession(local, "viewer", role: .readOnly).object["token"] as? String)
            #expect(try await Self.call(local, .GET, "/admin/api/requestors", token: token).status == 200)
            #expect(try await Self.call(local, .GET, "/admin/api/mvpds/DemoCable", token: token).status == 200)
            let refused = try await Self.call(local, .POST, "/admin/api/mvpds/DemoCable/disable", token: token)
            #expect(refused.status == 403 && refused.code == "forbidden")
            #expect(try await local.service.mvpds.view(id: "DemoCable").disabled == false)
            #expect(try await Self.call(local, .DELETE, "/admin/api/session", token: token).status == 204)
            #expect(try await Self.call(local, .GET, "/admin/api/requestors", token: token).status == 401, "signed out")
        }
    }

    @Test func aSessionCookieNeedsTheCSRFTokenForChangesAndIsHttpOnlyAndStrict() async throws {
        try await LocalService.run { local in
            let session = try await Self.operatorSession(local, "browser", role: .readWrite)
            let setCookie = session.headers["Set-Cookie"].joined(separator: "; ")
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"), "\(setCookie)")
            let token = try #require(session.object["token"] as? String)
            let csrf = try #require(session.object["csrfToken"] as? String)
            let cookie = "entitle_admin=\(token)"
            #expect(try await Self.call(local, .GET, "/admin/api/session", cookie: cookie).status == 200)
            let forged = try await Self.call(local, .POST, "/admin/api/mvpds/DemoCable/disable", cookie: cookie)
            #expect(forged.status == 403 && forged.code == "csrf_token_invalid")
            let wrong = try await Self.call(local, .POST, "/admin/api/mvpds/DemoCable/disable", cookie: cookie, csrf: "x" + csrf)
            #expect(wrong.status == 403)
            #expect(try await local.service.mvpds.view(id: "DemoCable").disabled == false)
            let done = try await Self.call(local, .POST, "/admin/api/mvpds/DemoCable/disable", cookie: cookie, csrf: csrf)
            #expect(done.status == 200 && done.object["disabled"] as? Bool == true, "\(done.text)")
        }
    }

    @Test func sessionsEndWhenIdleAndSignInIsThrottled() async throws {
        try await LocalService.run { local in
            let token = try #require(try await Self.operatorSession(local, "idle", role: .readOnly).object["token"] as? String)
            local.clock.advance(by: 29 * 60)
            #expect(try await Self.call(local, .GET, "/admin/api/session", token: token).status == 200)
            local.clock.advance(by: 31 * 60)
            #expect(try await Self.call(local, .GET, "/admin/api/session", token: token).status == 401, "idle for 31 minutes")

            // Sessions nobody comes back to are purged with the other expired records.
            let (forgotten, _) = try await local.service.operators.signIn(username: "idle", password: Self.password, address: nil)
            local.clock.advance(by: 25 * 3600)
            try await local.service.repository.purgeExpired(now: local.clock.nowMilliseconds())
            #expect(try await local.service.repository.operatorStore.operatorSession(tokenHash: Secrets.sha256Hex(forgotten)) == nil)

            for _ in 0..<5 {
                let wrong = try await Self.call(local, .POST, "/admin/api/session", json: ["username": "idle", "password": "wrong password!"])
                #expect(wrong.status == 401 && wrong.code == "invalid_credentials")
            }
            let throttled = try await Self.call(local, .POST, "/admin/api/session", json: ["username": "idle", "password": Self.password])
            #expect(throttled.status == 429 && throttled.headers["Retry-After"].first != nil, "\(throttled.text)")
            let unknown = try await Self.call(local, .POST, "/admin/api/session", json: ["username": "nobody", "password": Self.password])
            #expect(unknown.status == 401 && unknown.code == "invalid_credentials", "an unknown name answers as a wrong password")
        }
    }

    @Test func badInputsGetClearErrorsAndChangeNothing() async throws {
        try await LocalService.run { local in
            #expect(try await Self.call(local, .GET, "/admin/api/requestors").status == 401)
            let token = try #require(try await Self.operatorSession(local, "careful", role: .readWrite).object["token"] as? String)
            let cases: [(HTTPMethod, String, Any?, String?, Int, String)] = [
                (.POST, "/admin/api/requestors", nil, "{not json", 400, "invalid_request"),
                (.POST, "/admin/api/requestors", ["name": "No id"], nil, 400, "invalid_request"),
                (.POST, "/admin/api/requestors", ["id": "bad id!", "name": "X"], nil, 400, "invalid_value"),
                (.POST, "/admin/api/requestors", ["id": "CERT", "name": "X", "programmerCertificatePEM": "not a pem"], nil, 400, "invalid_value"),
                (.GET, "/admin/api/requestors/NOPE", nil, nil, 404, "unknown_requestor"),
                (.PUT, "/admin/api/requestors/NOPE", ["name": "X"], nil, 404, "unknown_requestor"),
                (.GET, "/admin/api/mvpds/NOPE", nil, nil, 404, "unknown_mvpd"),
                (.PATCH, "/admin/api/mvpds/DemoCable", ["boardingStatus": "MAYBE"], nil, 400, "invalid_value"),
                (.POST, "/admin/api/mvpds", ["id": "Broken", "name": "Broken", "samlMetadata": "<nope/>"], nil, 400, "invalid_metadata"),
                (.POST, "/admin/api/mvpds", ["id": "X", "name": "X", "samlMetadata": "<x/>", "requestors": ["NOPE"]], nil, 404, "unknown_requestor"),
                (.DELETE, "/admin/api/mvpds/DemoCable", nil, nil, 409, "mvpd_enabled"),
                (.PUT, "/admin/api/integrations/REF/NOPE", ["enabled": true], nil, 404, "unknown_mvpd"),
                (.PUT, "/admin/api/integrations/NOPE/DemoCable", ["enabled": true], nil, 404, "unknown_requestor"),
                (.PUT, "/admin/api/integrations/REF/DemoCable", ["enabled": "yes"], nil, 400, "invalid_request"),
                (.PUT, "/admin/api/integrations/REF/DemoCable", [String: Any](), nil, 400, "invalid_request"),
                (.PUT, "/admin/api/integrations/REF/TempPassNope", ["displayName": "X"], nil, 404, "unknown_integration"),
                (.POST, "/admin/api/software-statements", ["requestor": "NOPE", "name": "App"], nil, 404, "unknown_requestor"),
                (.POST, "/admin/api/clients/NOPE/revoke", nil, nil, 404, "unknown_client"),
                (.GET, "/admin/api/changes?since=yesterday", nil, nil, 400, "invalid_value"),
            ]
            let before = try await Self.call(local, .GET, "/admin/api/changes", token: token).body
            for (method, path, json, raw, status, code) in cases {
                let answer = try await Self.call(local, method, path, json: json, raw: raw, token: token)
                #expect(answer.status == status && answer.code == code, "\(method) \(path): \(answer.status) \(answer.text)")
            }
            #expect(try await Self.call(local, .GET, "/admin/api/changes", token: token).body == before, "nothing recorded")
            #expect(try await local.service.repository.catalogAdminStore.requestorForAdmin(id: "CERT") == nil)
            #expect(try await local.service.repository.catalogStore.integratedMVPD(requestor: "REF", mvpd: "DemoCable") != nil)
        }
    }
}
