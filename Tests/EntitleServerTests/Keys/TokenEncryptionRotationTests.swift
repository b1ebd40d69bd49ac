import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// Rotating the `token-encryption` key keeps every OAuth 2.0 sign-in: stored refresh tokens and client secrets are
/// re-encrypted with the new key, the old key still decrypts what another instance wrote with it, and a profile still
/// authorizes (its refresh token exchanged at the MVPD) after the rotation. SQLite here, PostgreSQL under
/// `scripts/with-postgres.sh`.
@Suite struct TokenEncryptionRotationTests {
    static func authorized(_ tv: RESTClient, _ resource: String) async throws -> Bool {
        let answer = try await tv.decisions("authorize", mvpd: "DemoStream", resources: [resource]).decode(DecisionsResponse.self)
        return answer.decisions.first?.authorized == true && answer.decisions.first?.token != nil
    }

    @Test func anOAuth2ProfileStillAuthorizesAfterTheRotation() async throws {
        try await LocalService.run { host in
            let repository = host.service.repository
            let tv = try await host.client()
            _ = try await host.signIn(tv, mvpd: "DemoStream", user: "erin")
            #expect(try await Self.authorized(tv, "news"))
            let before = try #require(try await repository.oauth2Store.allOAuth2Grants().first)
            let secretBefore = try #require(try await repository.oauth2Store.oauth2Settings(mvpd: "DemoStream")).encryptedClientSecret
            let inventory = try await host.service.keyOperations.tokenEncryptionInventory()
            #expect(inventory.refreshTokens == 1 && inventory.clientSecrets >= 1)

            let rotation = try await host.service.keyOperations.rotateTokenEncryptionKey()
            #expect(rotation.refreshTokens == 1 && rotation.clientSecrets == inventory.clientSecrets && rotation.unreadable == 0)
            let after = try #require(try await repository.oauth2Store.allOAuth2Grants().first)
            #expect(after.refreshToken.hasPrefix("v1.\(rotation.key.kid).") && !before.refreshToken.hasPrefix("v1.\(rotation.key.kid)."))
            let secretAfter = try #require(try await repository.oauth2Store.oauth2Settings(mvpd: "DemoStream")).encryptedClientSecret
            #expect(secretAfter.hasPrefix("v1.\(rotation.key.kid).") && secretAfter != secretBefore)

            // The profile still authorizes: its refresh token (new key) and the client secret (new key) are read again.
            #expect(try await Self.authorized(tv, "sports"))
            // A new sign-in after the rotation works and is encrypted with the new key.
            let second = try await host.client()
            _ = try await host.signIn(second, mvpd: "DemoStream", user: "frank")
            #expect(try await Self.authorized(second, "sports"))
            #expect(try await repository.oauth2Store.allOAuth2Grants().allSatisfy { $0.refreshToken.hasPrefix("v1.\(rotation.key.kid).") })

            // Another instance that wrote with the old key just before it saw the new one: the retired key still decrypts.
            try await repository.oauth2Store.upsertOAuth2Grant(before)
            #expect(try await Self.authorized(tv, "movies"))
        }
    }

    @Test func anUnreadableValueIsCountedAndLeftAsItWas() async throws {
        try await LocalService.run { host in
            let repository = host.service.repository
            let tv = try await host.client()
            _ = try await host.signIn(tv, mvpd: "DemoStream", user: "erin")
            var grant = try #require(try await repository.oauth2Store.allOAuth2Grants().first)
            grant.refreshToken = "v1.no-such-key.AAAA"
            try await repository.oauth2Store.upsertOAuth2Grant(grant)
            let rotation = try await host.service.keyOperations.rotateTokenEncryptionKey()
            #expect(rotation.unreadable == 1 && rotation.refreshTokens == 0 && rotation.clientSecrets >= 1)
            #expect(try await repository.oauth2Store.allOAuth2Grants().first?.refreshToken == "v1.no-such-key.AAAA")
            // The sign-in whose token cannot be read ends with a clear error, never a 500.
            let answer = try await tv.decisions("authorize", mvpd: "DemoStream", resources: ["news"])
            #expect(answer.status == 200)
            let decision = try #require(try answer.decode(DecisionsResponse.self).decisions.first)
            #expect(!decision.authorized && decision.error?.code == .authenticatedProfileInvalidated, "\(decision)")
        }
    }
}
