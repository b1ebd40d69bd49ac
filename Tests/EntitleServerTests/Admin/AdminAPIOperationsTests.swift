import AsyncHTTPClient
import EntitleCore
@testable import EntitleDomain
import EntitleHost
import EntitleModel
import EntitleStorage
import EntitleTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// The admin API routes of the operations that once only `entitle admin` had — keys, degradation rules, TempPass
/// (also in Adobe's Reset TempPass shape), legacy key pairs, operators, MVPD metadata refresh, the changes log's order
/// and limit — over a real socket, signed in as an operator: each write lands in the changes log with that operator,
/// read-only operators are refused, a cookie needs its CSRF token.
@Suite struct AdminAPIOperationsTests {
    typealias API = AdminAPITests

    /// The actions of the changes log made by `operator:<username>`.
    static func actions(_ local: LocalService, by username: String) async throws -> [String] {
        try await local.service.changes.recorded(since: 0).filter { $0.actor == "operator:" + username }.map(\.action)
    }

    @Test func keysAreListedTheirRotationIsDescribedAndRotationsAreGuarded() async throws {
        try await LocalService.run { local in
            let token = try #require(try await API.operatorSession(local, "noc", role: .readWrite).object["token"] as? String)
            let keys = try await API.call(local, .GET, "/admin/api/keys", token: token)
            let rows = try #require(keys.json as? [[String: Any]], "\(keys.text)")
            #expect(rows.contains { $0["purpose"] as? String == "media-token" && $0["state"] as? String == "signing" })
            #expect(!keys.text.lowercased().contains("private"), "never a private key")

            let impact = try await API.call(local, .GET, "/admin/api/keys/jwt/rotation", token: token)
            #expect(impact.status == 200 && (impact.object["impact"] as? String)?.contains("software statements") == true, "\(impact.text)")
            #expect(impact.object["rotated"] as? Bool == false)
            #expect(try await API.call(local, .GET, "/admin/api/keys/nope/rotation", token: token).code == "unknown_key_purpose")

            let unconfirmed = try await API.call(local, .POST, "/admin/api/keys/jwt/rotate", token: token)
            #expect(unconfirmed.status == 409 && unconfirmed.code == "confirmation_required", "\(unconfirmed.text)")
            let dryRun = try await API.call(local, .POST, "/admin/api/keys/media-token/rotate", json: ["dryRun": true], token: token)
            #expect(dryRun.status == 200 && dryRun.object["rotated"] as? Bool == false && dryRun.object["key"] == nil, "\(dryRun.text)")
            let tooSoon = try await API.call(local, .POST, "/admin/api/keys/media-token/rotate", json: ["promoteAfterSeconds": 10], token: token)
            #expect(tooSoon.status == 400 && tooSoon.code == "promotion_too_soon", "\(tooSoon.text)")
            #expect(try await Self.actions(local, by: "noc").isEmpty, "nothing was rotated yet")

            let rotated = try await API.call(
                local, .POST, "/admin/api/keys/media-token/rotate", json: ["promoteAfterSeconds": 10, "force": true], token: token)
            #expect(rotated.status == 200 && rotated.object["rotated"] as? Bool == true, "\(rotated.text)")
            let kid = try #require((rotated.object["key"] as? [String: Any])?["kid"] as? String)
            #expect(try await local.service.keyOperations.views().contains { $0.kid == kid && $0.state == "published" })
            let encryption = try await API.call(local, .POST, "/admin/api/keys/token-encryption/rotate", json: [:], token: token)
            #expect(encryption.status == 200 && encryption.object["reEncrypted"] is [String: Any], "\(encryption.text)")
            let confirmed = try await API.call(local, .POST, "/admin/api/keys/jwt/rotate", json: ["confirm": true], token: token)
            #expect(confirmed.status == 200, "\(confirmed.text)")

            let targets = try await local.service.changes.recorded(since: 0).filter { $0.actor == "operator:noc" && $0.action == "keys.rotate" }
                .map(\.target)
            #expect(Set(targets) == ["media-token", "token-encryption", "jwt"])
        }
    }

    @Test func degradationRulesAreAppliedListedAndRemoved() async throws {
        try await LocalService.run { local in
            let token = try #require(try await API.operatorSession(local, "noc", role: .readWrite).object["token"] as? String)
            let add = try await API.call(
                local, .POST, "/admin/api/degradation-rules", json: ["requestor": "REF", "mvpd": "DemoCable", "rule": "AuthZAll", "minutes": 30],
                token: token)
            #expect(add.status == 201 && add.object["rule"] as? String == "authz-all", "\(add.text)")
            let list = try await API.call(local, .GET, "/admin/api/degradation-rules?requestor=REF", token: token)
            #expect(
                (list.json as? [[String: Any]])?.contains { $0["mvpd"] as? String == "DemoCable" && $0["rule"] as? String == "authz-all" } == true)
            #expect(try await local.service.support.degradationRules(requestor: "REF").map(\.rule) == [.authzAll])

            let badRule = try await API.call(
                local, .POST, "/admin/api/degradation-rules", json: ["requestor": "REF", "mvpd": "DemoCable", "rule": "authz-some"], token: token)
            #expect(badRule.status == 400 && badRule.code == "invalid_value", "\(badRule.text)")
            let notIntegrated = try await API.call(
                local, .POST, "/admin/api/degradation-rules", json: ["requestor": "REF", "mvpd": "Nowhere", "rule": "authn-all"], token: token)
            #expect(notIntegrated.status == 400, "\(notIntegrated.text)")

            let remove = try await API.call(local, .DELETE, "/admin/api/degradation-rules/REF/DemoCable/authz-all", token: token)
            #expect(remove.status == 204, "\(remove.text)")
            let again = try await API.call(local, .DELETE, "/admin/api/degradation-rules/REF/DemoCable/authz-all", token: token)
            #expect(again.status == 404 && again.code == "unknown_degradation_rule", "\(again.text)")
            #expect(try await local.service.support.degradationRules(requestor: "REF").isEmpty)
            #expect(try await Self.actions(local, by: "noc") == ["degradation.set", "degradation.remove"])
        }
    }

    @Test func tempPassIsAddedAndResetInEntitlesShapeAndAdobes() async throws {
        try await LocalService.run { local in
            let token = try #require(try await API.operatorSession(local, "noc", role: .readWrite).object["token"] as? String)
            let add = try await API.call(
                local, .POST, "/admin/api/temppass",
                json: ["id": "Spring", "name": "Spring preview", "minutes": 120, "resources": 2, "requestors": ["REF"]], token: token)
            #expect(add.status == 201 && add.object["id"] as? String == "Spring", "\(add.text)")
            let badID = try await API.call(
                local, .POST, "/admin/api/temppass", json: ["id": "bad id", "name": "x", "requestors": ["REF"]], token: token)
            #expect(badID.status == 400 && badID.code == "invalid_value", "\(badID.text)")
            let notTempPass = try await API.call(
                local, .POST, "/admin/api/temppass", json: ["id": "DemoCable", "name": "x", "requestors": ["REF"]], token: token)
            #expect(notTempPass.status == 409 && notTempPass.code == "mvpd_exists", "\(notTempPass.text)")

            // Two devices hold a pass of the plain demo TempPass.
            let store = local.service.repository.tempPassStore
            for device in ["device-1", "device-2"] {
                _ = try await store.tempPass(
                    requestor: "REF", mvpd: "TempPass", deviceKey: Secrets.sha256Hex("REF|" + device), now: local.service.now, lengthMs: 600_000)
            }
            let one = try await API.call(
                local, .DELETE, "/admin/api/reset-tempass/v3/reset?requestor_id=REF&mvpd_id=TempPass&device_id=device-1", token: token)
            #expect(one.status == 204, "\(one.text)")
            #expect(try await store.resetTempPass(requestor: "REF", mvpd: "TempPass", deviceKey: Secrets.sha256Hex("REF|device-1")) == 0)
            let all = try await API.call(local, .POST, "/admin/api/temppass/reset", json: ["requestor": "REF", "all": true], token: token)
            #expect(all.status == 200 && all.object["passes"] as? Int == 1, "\(all.text)")
            let adobeAll = try await API.call(
                local, .DELETE, "/admin/api/reset-tempass/v3/reset?requestor_id=REF&mvpd_id=TempPass&device_id=all", token: token)
            #expect(adobeAll.status == 204)

            let missing = try await API.call(local, .DELETE, "/admin/api/reset-tempass/v3/reset?mvpd_id=TempPass", token: token)
            #expect(missing.status == 400 && missing.code == "invalid_request", "\(missing.text)")
            let identityOnPlain = try await API.call(
                local, .DELETE, "/admin/api/reset-tempass/v3/reset/generic?requestor_id=REF&mvpd_id=TempPass&key=%7B%22email%22%3A%22x%22%7D",
                token: token)
            #expect(identityOnPlain.status == 400, "\(identityOnPlain.text)")
            let generic = try await API.call(
                local, .DELETE, "/admin/api/reset-tempass/v3/reset/generic?requestor_id=REF&mvpd_id=Spring&key=%7B%22email%22%3A%22x%22%7D",
                token: token)
            #expect(generic.status == 204, "\(generic.text)")
            let neither = try await API.call(local, .POST, "/admin/api/temppass/reset", json: ["requestor": "REF"], token: token)
            #expect(neither.status == 400 && neither.code == "invalid_request")

            let resets = try await local.service.changes.recorded(since: 0).filter { $0.actor == "operator:noc" && $0.action == "temppass.reset" }
            #expect(resets.map(\.target) == ["REF/TempPass", "REF/TempPass", "REF/TempPass", "REF/Spring"])
            #expect(resets.first?.valueAfter?.contains("device device-1") == true)
            #expect(try await Self.actions(local, by: "noc").first == "temppass.add")
        }
    }

    @Test func operatorAccountsAreManagedThroughTheAPI() async throws {
        try await LocalService.run { local in
            let token = try #require(try await API.operatorSession(local, "lead", role: .readWrite).object["token"] as? String)
            let add = try await API.call(
                local, .POST, "/admin/api/operators", json: ["username": "night", "role": "read-only", "password": API.password], token: token)
            #expect(add.status == 201 && add.object["role"] as? String == "read-only" && add.object["password"] == nil, "\(add.text)")
            let duplicate = try await API.call(
                local, .POST, "/admin/api/operators", json: ["username": "night", "role": "read-only", "password": API.password], token: token)
            #expect(duplicate.status == 409 && duplicate.code == "operator_exists")
            let badRole = try await API.call(
                local, .POST, "/admin/api/operators", json: ["username": "x", "role": "admin", "password": API.password], token: token)
            #expect(badRole.status == 400 && badRole.code == "invalid_value")
            func signIn(_ password: String) async throws -> Int {
                try await API.call(local, .POST, "/admin/api/session", json: ["username": "night", "password": password]).status
            }
            #expect(try await signIn(API.password) == 201)

            let disabled = try await API.call(local, .POST, "/admin/api/operators/night/disable", token: token)
            #expect(disabled.status == 200 && disabled.object["disabled"] as? Bool == true, "\(disabled.text)")
            #expect(try await signIn(API.password) == 401)
            #expect(try await API.call(local, .POST, "/admin/api/operators/night/enable", token: token).object["disabled"] as? Bool == false)
            let newPassword = "another long passphrase"
            let password = try await API.call(local, .PUT, "/admin/api/operators/night/password", json: ["password": newPassword], token: token)
            #expect(password.status == 204, "\(password.text)")
            #expect(try await signIn(API.password) == 401)
            // The failed attempts (disabled, then the old password) are forgotten; a successful sign-in would have too.
            let unlock = try await API.call(local, .POST, "/admin/api/operators/night/unlock", token: token)
            #expect(unlock.status == 200 && (unlock.object["forgottenAttempts"] as? Int ?? 0) >= 1, "\(unlock.text)")
            #expect(try await signIn(newPassword) == 201)
            for (method, path) in [(HTTPMethod.POST, "/admin/api/operators/lead/disable"), (.DELETE, "/admin/api/operators/lead")] {
                let own = try await API.call(local, method, path, token: token)
                #expect(own.status == 409 && own.code == "own_account", "\(path): \(own.text)")
            }
            #expect(try await API.call(local, .DELETE, "/admin/api/operators/night", token: token).status == 204)
            #expect(try await API.call(local, .DELETE, "/admin/api/operators/night", token: token).code == "unknown_operator")
            #expect(try await API.call(local, .POST, "/admin/api/operators/night/unlock", token: token).status == 404)

            #expect(
                try await Self.actions(local, by: "lead") == [
                    "operator.add", "operator.disable", "operator.enable", "operator.password", "operator.unlock", "operator.remove",
                ])
            let log = try await local.service.changes.recorded(since: 0).map { "\($0.valueBefore ?? "") \($0.valueAfter ?? "")" }.joined()
            #expect(!log.contains(API.password) && !log.contains(newPassword), "a password reached the changes log")
        }
    }

    @Test func legacyKeysMetadataRefreshAndTheChangesLogsOrderAndWhy() async throws {
        try await LocalService.run { local in
            let token = try #require(try await API.operatorSession(local, "noc", role: .readWrite).object["token"] as? String)
            let pair = try await API.call(local, .POST, "/admin/api/legacy-keys", json: ["requestor": "REF"], token: token)
            #expect(pair.status == 201, "\(pair.text)")
            let publicKey = try #require(pair.object["publicKey"] as? String)
            let privateKey = try #require(pair.object["privateKey"] as? String)
            #expect(try await local.service.keyOperations.legacyAppKeys(requestor: "REF").contains { $0.publicKey == publicKey && !$0.revoked })
            #expect(try await API.call(local, .POST, "/admin/api/legacy-keys", json: ["requestor": "NOPE"], token: token).status == 404)

            let refresh = try await API.call(local, .POST, "/admin/api/metadata-refresh", token: token)
            #expect(refresh.status == 200 && refresh.object["changed"] as? [String] == [], "\(refresh.text)")
            let noURL = try await API.call(local, .POST, "/admin/api/metadata-refresh?mvpd=NoSuchMVPD", token: token)
            #expect(noURL.status == 404 && noURL.code == "no_metadata_url", "\(noURL.text)")

            var request = try await API.call(local, .POST, "/admin/api/cache/flush", token: token)
            #expect(request.status == 200)
            var described = HTTPClientRequest(url: local.baseURL + "/admin/api/degradation-rules")
            described.method = .POST
            described.headers.add(name: "Authorization", value: "Bearer \(token)")
            described.headers.add(name: "X-Change-Description", value: "DemoCable login is down (ticket 42)")
            described.body = .bytes(ByteBuffer(string: #"{"requestor":"REF","mvpd":"DemoCable","rule":"authn-all"}"#))
            #expect(try await local.httpClient.execute(described, timeout: AnswerPatience.timeAmount).status == .created)
            let latest = try await API.call(local, .GET, "/admin/api/changes?limit=2&order=newest-first", token: token)
            let entries = try #require(latest.json as? [[String: Any]], "\(latest.text)")
            #expect(entries.map { $0["action"] as? String } == ["degradation.set", "cache.flush"])
            #expect(entries.first?["description"] as? String == "DemoCable login is down (ticket 42)")
            let oldestFirst = try await API.call(local, .GET, "/admin/api/changes?limit=2", token: token)
            #expect((oldestFirst.json as? [[String: Any]])?.map { $0["action"] as? String } == ["cache.flush", "degradation.set"])
            #expect(try await API.call(local, .GET, "/admin/api/changes?order=sideways", token: token).code == "invalid_value")

            let log = try await local.service.changes.recorded(since: 0)
            #expect(log.contains { $0.action == "legacy-key.create" && $0.target == publicKey && $0.actor == "operator:noc" })
            #expect(!log.contains { ($0.valueAfter ?? "").contains(privateKey) }, "a private key reached the changes log")
        }
    }

    /// Every new write route with a body that would be accepted.
    static var writes: [(HTTPMethod, String, [String: Any])] {
        [
            (.POST, "/admin/api/keys/media-token/rotate", [:]),
            (.POST, "/admin/api/legacy-keys", ["requestor": "REF"]),
            (.POST, "/admin/api/degradation-rules", ["requestor": "REF", "mvpd": "DemoCable", "rule": "authn-all"]),
            (.DELETE, "/admin/api/degradation-rules/REF/DemoCable/authn-all", [:]),
            (.POST, "/admin/api/temppass", ["id": "P", "name": "P", "requestors": ["REF"]]),
            (.POST, "/admin/api/temppass/reset", ["requestor": "REF", "all": true]),
            (.DELETE, "/admin/api/reset-tempass/v3/reset?requestor_id=REF&mvpd_id=TempPass", [:]),
            (.DELETE, "/admin/api/reset-tempass/v3/reset/generic?requestor_id=REF&mvpd_id=TempPass", [:]),
            (.POST, "/admin/api/metadata-refresh", [:]),
            (.POST, "/admin/api/operators", ["username": "x", "role": "read-only", "password": API.password]),
            (.POST, "/admin/api/operators/viewer/disable", [:]),
            (.POST, "/admin/api/operators/viewer/enable", [:]),
            (.PUT, "/admin/api/operators/viewer/password", ["password": "a different passphrase"]),
            (.POST, "/admin/api/operators/viewer/unlock", [:]),
            (.DELETE, "/admin/api/operators/viewer", [:]),
        ]
    }

    @Test func aReadOnlyOperatorIsRefusedEveryNewWriteAndACookieNeedsItsCSRFToken() async throws {
        try await LocalService.run { local in
            let viewer = try await API.operatorSession(local, "viewer", role: .readOnly)
            let token = try #require(viewer.object["token"] as? String)
            #expect(try await API.call(local, .GET, "/admin/api/keys", token: token).status == 200)
            #expect(try await API.call(local, .GET, "/admin/api/degradation-rules", token: token).status == 200)
            for (method, path, body) in Self.writes {
                let refused = try await API.call(local, method, path, json: body.isEmpty ? nil : body, token: token)
                #expect(refused.status == 403 && refused.code == "forbidden", "\(method) \(path): \(refused.text)")
            }
            #expect(try await Self.actions(local, by: "viewer").isEmpty)

            let writer = try await API.operatorSession(local, "ops", role: .readWrite)
            let cookie = try #require(writer.headers["Set-Cookie"].first?.split(separator: ";").first.map(String.init))
            for (method, path, body) in Self.writes {
                let refused = try await API.call(local, method, path, json: body.isEmpty ? nil : body, cookie: cookie)
                #expect(refused.status == 403 && refused.code == "csrf_token_invalid", "\(method) \(path): \(refused.text)")
            }
            let csrf = try #require(writer.object["csrfToken"] as? String)
            let accepted = try await API.call(
                local, .POST, "/admin/api/temppass/reset", json: ["requestor": "REF", "all": true], cookie: cookie, csrf: csrf)
            #expect(accepted.status == 200, "\(accepted.text)")
            #expect(try await Self.actions(local, by: "ops") == ["temppass.reset"])
        }
    }
}
