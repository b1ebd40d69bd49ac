import EntitleCore
import EntitleTesting
import Foundation
import Testing

@testable import EntitleServer

/// Secrets at rest (OAuth 2.0 refresh tokens, client secrets): AES-256-GCM under the `token-encryption` service key,
/// bound to where they are stored; a rotated key still decrypts; anything altered is refused.
@Suite struct TokenCipherTests {
    @Test func sealedSecretsOpenOnlyWhereTheyBelongAndSurviveARotation() async throws {
        try await LocalService.run { host in
            let cipher = TokenCipher(repository: host.service.repository, keys: host.service.keys)
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

    @Test func objectValuedMetadataIsStoredAsJSONAndSentAsTheObject() throws {
        let stored = UserMetadataEncoder.stored([
            "maxRating": .object(["MPAA": .string("PG-13"), "VCHIP": .string("TV-Y")]), "channels": .array([.string("news")]),
            "age": .number(42), "adult": .bool(true), "zip": .string("02134"),
        ])
        #expect(stored["@json"] == ["maxRating"])
        #expect(stored["channels"] == ["news"] && stored["age"] == ["42"] && stored["adult"] == ["true"] && stored["zip"] == ["02134"])
        let record = ProfileRecord(
            requestorId: "REF", clientId: "c", deviceId: "d", mvpdId: "M", type: .regular, issuer: "M", notBefore: 0, notAfter: 1,
            attributes: JSONText.encode(stored), nameId: "u", sessionIndex: nil, sessionCode: nil, userId: "u")
        let requestor = RequestorRecord(id: "REF", name: "R", domains: [], maxResources: 5, metadataCertificatePem: nil)
        let profile = UserMetadataEncoder(requestor: requestor, mvpd: nil).profile(record)
        #expect(profile.attributes["maxRating"]?.value == .object(["MPAA": .string("PG-13"), "VCHIP": .string("TV-Y")]))
        #expect(profile.attributes["@json"] == nil)
        // The wire form decodes back to the object (the SDK's decoding).
        let wire = try JSONEncoder().encode(profile)
        let decoded = try JSONDecoder().decode(Profile.self, from: wire)
        #expect(decoded.attributes["maxRating"]?.value == .object(["MPAA": .string("PG-13"), "VCHIP": .string("TV-Y")]))
    }
}
