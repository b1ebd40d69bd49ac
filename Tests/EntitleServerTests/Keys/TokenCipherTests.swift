import EntitleCore
import EntitleTesting
import Foundation
import Testing

@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage

/// Secrets at rest (OAuth 2.0 refresh tokens, client secrets): AES-256-GCM under the `token-encryption` service key,
/// bound to where they are stored; a rotated key still decrypts; anything altered is refused.
@Suite struct TokenCipherTests {
    @Test func sealedSecretsOpenOnlyWhereTheyBelongAndSurviveARotation() async throws {
        try await LocalService.run { host in
            let cipher = TokenCipher(keyStore: host.service.repository.keyStore, keys: host.service.keys)
            let sealed = try await cipher.seal("refresh-123", context: "refresh-token|REF|c|d|StreamTV")
            #expect(sealed.hasPrefix("v1.token-encryption-") && !sealed.contains("refresh-123"))
            #expect(try await cipher.open(sealed, context: "refresh-token|REF|c|d|StreamTV") == "refresh-123")
            // Copied to another profile: refused.
            await #expect(throws: (any Error).self) { try await cipher.open(sealed, context: "refresh-token|REF|c|other|StreamTV") }
            // Altered: refused.
            var bytes = Array(sealed)
            bytes[bytes.count - 3] = bytes[bytes.count - 3] == "A" ? "B" : "A"
            await #expect(throws: (any Error).self) { try await cipher.open(String(bytes), context: "refresh-token|REF|c|d|StreamTV") }
            for garbage in ["", "v1.", "v2.x.y", "v1.unknown-kid.AAAA", "plain refresh token"] {
                await #expect(throws: (any Error).self) { try await cipher.open(garbage, context: "x") }
            }
            // A rotation: new secrets under the new key, old ones still open.
            let rotated = try await host.service.keys.rotate(purpose: .tokenEncryption, promoteAfter: 0)
            let newer = try await cipher.seal("refresh-456", context: "c")
            #expect(newer.hasPrefix("v1.\(rotated.kid)."))
            #expect(try await cipher.open(sealed, context: "refresh-token|REF|c|d|StreamTV") == "refresh-123")
            #expect(try await cipher.open(newer, context: "c") == "refresh-456")
        }
    }
}
