import EntitleCore
@testable import EntitleDomain
import EntitleHost
import EntitleModel
import EntitleTesting
import Foundation
import NIOHTTP1
import Testing

/// The admin API's settings routes (authorization TTLs, media-token algorithms, legacy key pairs, the
/// cache flush): the same operation as `entitle admin`, the same changes-log entry, and a clear error for bad input.
@Suite struct AdminAPISettingsTests {
    @Test func authorizationTTLsAreSetListedLoggedAndBoundedThroughTheAPI() async throws {
        try await LocalService.run { local in
            let token = try #require(try await AdminAPITests.operatorSession(local, "noc", role: .readWrite).object["token"] as? String)
            let set = try await AdminAPITests.call(
                local, .PUT, "/admin/api/authorization-ttls", json: ["mvpd": "DemoCable", "requestor": "REF", "seconds": 120], token: token)
            #expect(set.status == 204, "\(set.text)")
            let list = try await AdminAPITests.call(local, .GET, "/admin/api/authorization-ttls", token: token)
            let rows = try #require(list.json as? [[String: Any]])
            #expect(rows.contains { $0["requestor"] as? String == "REF" && $0["mvpd"] as? String == "DemoCable" && $0["seconds"] as? Int == 120 })
            #expect(try await local.service.integrations.authorizationTTLs().contains { $0.ttlSeconds == 120 && $0.mvpdId == "DemoCable" })
            let changes = try await local.service.changes.recorded(since: 0)
            #expect(changes.contains { $0.action == "authz-ttl.set" && $0.target == "REF/DemoCable" && $0.actor.contains("noc") })

            let tooLong = try await AdminAPITests.call(
                local, .PUT, "/admin/api/authorization-ttls", json: ["mvpd": "DemoCable", "seconds": 700_000], token: token)
            #expect(tooLong.status == 400 && tooLong.code == "invalid_seconds", "\(tooLong.text)")
            let unknown = try await AdminAPITests.call(
                local, .PUT, "/admin/api/authorization-ttls", json: ["mvpd": "Nope", "seconds": 10], token: token)
            #expect(unknown.status == 404, "\(unknown.text)")
        }
    }

    @Test func aReadOnlyOperatorCannotChangeSettings() async throws {
        try await LocalService.run { local in
            let token = try #require(try await AdminAPITests.operatorSession(local, "viewer", role: .readOnly).object["token"] as? String)
            #expect(try await AdminAPITests.call(local, .GET, "/admin/api/media-token-algorithms", token: token).status == 200)
            for (method, path, body) in [
                (HTTPMethod.PUT, "/admin/api/authorization-ttls", ["mvpd": "DemoCable", "seconds": 10] as [String: Any]),
                (.PUT, "/admin/api/requestors/REF/media-token-algorithm", ["algorithm": "ed25519"]),
                (.POST, "/admin/api/legacy-keys/revoke", ["publicKey": "x"]), (.POST, "/admin/api/cache/flush", [:]),
            ] {
                let refused = try await AdminAPITests.call(local, method, path, json: body, token: token)
                #expect(refused.status == 403 && refused.code == "forbidden", "\(path): \(refused.text)")
            }
            #expect(try await local.service.keyOperations.mediaTokenAlgorithms().isEmpty)
        }
    }

    @Test func mediaTokenAlgorithmLegacyKeysAndCacheFlushThroughTheAPI() async throws {
        try await LocalService.run { local in
            let token = try #require(try await AdminAPITests.operatorSession(local, "noc", role: .readWrite).object["token"] as? String)
            let algorithm = try await AdminAPITests.call(
                local, .PUT, "/admin/api/requestors/REF/media-token-algorithm", json: ["algorithm": "ed25519"], token: token)
            #expect(algorithm.status == 200, "\(algorithm.text)")
            #expect(algorithm.object["algorithm"] as? String == "ed25519" && algorithm.object["kid"] is String)
            #expect(try await local.service.keyOperations.mediaTokenAlgorithms().map(\.requestorId) == ["REF"])
            let badAlgorithm = try await AdminAPITests.call(
                local, .PUT, "/admin/api/requestors/REF/media-token-algorithm", json: ["algorithm": "md5"], token: token)
            #expect(badAlgorithm.status == 400 && badAlgorithm.code == "invalid_value")
            let unknownRequestor = try await AdminAPITests.call(
                local, .PUT, "/admin/api/requestors/NOPE/media-token-algorithm", json: ["algorithm": "rsa-sha256"], token: token)
            #expect(unknownRequestor.status == 404)

            let pair = try await local.service.keyOperations.issueLegacyKeyPair(requestor: "REF")
            let keys = try await AdminAPITests.call(local, .GET, "/admin/api/legacy-keys?requestor=REF", token: token)
            #expect(keys.status == 200 && !keys.text.contains(pair.privateKey), "a private key was listed")
            #expect(
                (keys.json as? [[String: Any]])?.contains { $0["publicKey"] as? String == pair.publicKey && $0["revoked"] as? Bool == false } == true)
            let revoke = try await AdminAPITests.call(
                local, .POST, "/admin/api/legacy-keys/revoke", json: ["publicKey": pair.publicKey], token: token)
            #expect(revoke.status == 204, "\(revoke.text)")
            #expect(try await local.service.keyOperations.legacyAppKeys(requestor: "REF").first { $0.publicKey == pair.publicKey }?.revoked == true)
            let unknown = try await AdminAPITests.call(
                local, .POST, "/admin/api/legacy-keys/revoke", json: ["publicKey": "no-such-key"], token: token)
            #expect(unknown.status == 404 && unknown.code == "unknown_key_pair", "\(unknown.text)")

            let before = try await local.service.cacheFlush.flush(actor: "test")
            let flush = try await AdminAPITests.call(local, .POST, "/admin/api/cache/flush", token: token)
            #expect(flush.status == 200 && (flush.object["catalogVersion"] as? Int).map { Int64($0) > before } == true, "\(flush.text)")
            let actions = try await local.service.changes.recorded(since: 0).map(\.action)
            for action in ["requestor.media-token-algorithm", "legacy-key.revoke", "cache.flush"] { #expect(actions.contains(action)) }
        }
    }
}
