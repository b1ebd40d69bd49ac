import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import MediaTokenVerifier
import Testing

/// A requestor configured for ECDSA P-256 or Ed25519 media tokens, through the real service.
@Suite struct MediaTokenAlgorithmFlowTests {
    @Test(arguments: ["ecdsa-p256-sha256", "ed25519"])
    func requestorGetsTokensOfItsAlgorithmAfterTheKeyIsPublished(name: String) async throws {
        let algorithm = MediaTokenAlgorithm(rawValue: name)
        let purpose = ServiceKeys.mediaTokenPurpose(algorithm)
        try await LocalService.run { host in
            let tv = try await host.client()
            _ = try await host.signIn(tv, user: "alice")
            func token() async throws -> String {
                let decision = try await tv.decisions("authorize", mvpd: "DemoCable", resources: ["news"]).decode(DecisionsResponse.self).decisions[0]
                return try #require(decision.token?.serializedToken)
            }
            func bundle() async throws -> String { try await tv.send(.GET, "/keys/media-token", authorized: false).text }
            func signatureLength(_ serialized: String) throws -> Int { try MediaTokenEnvelope(serialized: serialized).signature.count }
            let initial = try VerificationKeySet(pem: try await bundle())
            #expect(initial.allKeys.map(\.algorithm) == [.rsaSHA256])
            let rsaOnly = MediaTokenVerifier(keys: initial)

            // Configured with the default delay: the new key is published first, RSA still signs.
            let pending = try #require(try await host.service.keys.ensureMediaTokenKey(algorithm))
            try await host.service.repository.catalogStore.setMediaTokenAlgorithm(requestor: "REF", algorithm)
            #expect(try await host.service.repository.catalogStore.mediaTokenAlgorithm(requestor: "REF") == algorithm)
            #expect(pending.signsFrom > host.clock.nowMilliseconds())
            let whilePending = try await token()
            #expect(try signatureLength(whilePending) == 256)
            let published = try VerificationKeySet(pem: try await bundle())
            #expect(published.allKeys.map(\.algorithm) == [.rsaSHA256, algorithm])  // RSA first for existing verifiers

            // Rotated with no delay: the requestor's tokens are signed with the new algorithm.
            let first = try await host.service.keys.rotate(purpose: purpose, promoteAfter: 0)
            let signed = try await token()
            #expect(try signatureLength(signed) == 64)
            let verifier = MediaTokenVerifier(keys: try VerificationKeySet(pem: try await bundle()))
            #expect(verifier.check(signed, requestor: "REF", resource: "news", now: host.clock.now()).status == .valid)
            #expect(verifier.check(whilePending, requestor: "REF", resource: "news", now: host.clock.now()).status == .valid)
            #expect(rsaOnly.check(signed, requestor: "REF", resource: "news", now: host.clock.now()).status == .invalidSignature)
            let onlyFirst = MediaTokenVerifier(keys: try VerificationKeySet(pem: first.certificatePem))
            #expect(onlyFirst.check(signed, requestor: "REF", resource: "news", now: host.clock.now()).status == .valid)
            let decoded = String(decoding: try #require(Data(base64Encoded: signed)), as: UTF8.self)
            let tampered = Data(decoded.replacingOccurrences(of: "<mvpdId>DemoCable<", with: "<mvpdId>DemoCablf<").utf8).base64EncodedString()
            #expect(verifier.check(tampered, requestor: "REF", resource: "news", now: host.clock.now()).status == .invalidSignature)

            // Rotated again: the earlier token still verifies against the published bundle, the new key signs.
            let second = try await host.service.keys.rotate(purpose: purpose, promoteAfter: 0)
            let afterRotation = try await token()
            let rotatedBundle = MediaTokenVerifier(keys: try VerificationKeySet(pem: try await bundle()))
            #expect(rotatedBundle.check(signed, requestor: "REF", resource: "news", now: host.clock.now()).status == .valid)
            #expect(rotatedBundle.check(afterRotation, requestor: "REF", resource: "news", now: host.clock.now()).status == .valid)
            #expect(onlyFirst.check(afterRotation, requestor: "REF", resource: "news", now: host.clock.now()).status == .invalidSignature)
            let onlySecond = MediaTokenVerifier(keys: try VerificationKeySet(pem: second.certificatePem))
            #expect(onlySecond.check(afterRotation, requestor: "REF", resource: "news", now: host.clock.now()).status == .valid)

            // Back to the default: RSA again.
            try await host.service.repository.catalogStore.setMediaTokenAlgorithm(requestor: "REF", .rsaSHA256)
            #expect(try signatureLength(try await token()) == 256)
        }
    }
}
