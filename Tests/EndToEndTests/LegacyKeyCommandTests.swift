import EntitleHost
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// `entitle admin legacy-key` as the real binary on the storage of a running service: a key pair for the REST API v1
/// HMAC header is issued, listed without its secret, and revoked.
@Suite(.serialized, .timeLimit(.minutes(10))) struct LegacyKeyCommandTests {
    @Test func anOperatorIssuesListsAndRevokesAKeyPair() async throws {
        try await LocalService.run { service in
            let created = try await AdminCommandTests.admin(service, ["legacy-key", "create", "--requestor", "REF"])
            #expect(created.status == 0, "\(created.stderr)")
            let lines = created.stdout.split(separator: "\n").map(String.init)
            let publicKey = try #require(lines.first { $0.hasPrefix("public_key: ") }.map { String($0.dropFirst("public_key: ".count)) })
            let privateKey = try #require(lines.first { $0.hasPrefix("private_key: ") }.map { String($0.dropFirst("private_key: ".count)) })
            let stored = try #require(try await service.service.repository.legacyStore.activeLegacyAppKey(publicKey: publicKey))
            #expect(stored.requestorId == "REF")
            #expect(stored.privateKey == privateKey)

            let list = try await AdminCommandTests.admin(service, ["legacy-key", "list", "--requestor", "REF"])
            #expect(list.stdout.contains(publicKey + "\tREF"))
            #expect(!list.stdout.contains(privateKey))

            #expect(try await AdminCommandTests.admin(service, ["legacy-key", "revoke", publicKey]).status == 0)
            #expect(try await service.service.repository.legacyStore.activeLegacyAppKey(publicKey: publicKey) == nil)
            #expect(try await AdminCommandTests.admin(service, ["legacy-key", "revoke", "no-such-key"]).status == 1)
            #expect(try await AdminCommandTests.admin(service, ["legacy-key", "create", "--requestor", "NOPE"]).status != 0)
        }
    }
}
