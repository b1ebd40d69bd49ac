import _CryptoExtras
import Foundation
@testable import MediaTokenVerifier
import Testing

@Suite struct VerificationKeySetTests {
    let now = Fixtures.issue.addingTimeInterval(1)

    @Test func certificatePublicKeyAndPKCS1FormsAllLoad() throws {
        let key = Fixtures.currentKey
        for pem in [try Fixtures.certificatePEM(for: key), key.publicKey.pemRepresentation, key.publicKey.pkcs1PEMRepresentation] {
            let set = try VerificationKeySet(pem: pem)
            #expect(set.keys.count == 1)
            #expect(set.keys[0].derRepresentation == key.publicKey.derRepresentation)
        }
    }

    @Test func bundleWithSeveralKeysSupportsRotation() async throws {
        let bundle =
            "# published media-token keys\n" + (try Fixtures.certificatePEM(for: Fixtures.nextKey)) + "\n"
            + (try Fixtures.certificatePEM(for: Fixtures.currentKey)) + "\r\n" + Fixtures.currentKey.publicKey.pemRepresentation
        let set = try VerificationKeySet(pem: bundle)
        #expect(set.keys.count == 2)  // duplicate removed
        let verifier = MediaTokenVerifier(keys: set)
        for key in [Fixtures.currentKey, Fixtures.nextKey] {
            #expect(await verifier.verify(Fixtures.serialized(key: key), requestor: "REF", resource: "news", now: now).isValid)
        }
        #expect(
            await verifier.verify(Fixtures.serialized(key: Fixtures.strangerKey), requestor: "REF", resource: "news", now: now)
                .status == .invalidSignature)
    }

    @Test func filesLoadAndUnreadableFileIsAClearError() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("verifier-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("current.pem"), b = dir.appendingPathComponent("next.pem")
        try Fixtures.certificatePEM(for: Fixtures.currentKey).write(to: a, atomically: true, encoding: .utf8)
        try Fixtures.nextKey.publicKey.pemRepresentation.write(to: b, atomically: true, encoding: .utf8)
        #expect(try VerificationKeySet(contentsOfFile: a.path).keys.count == 1)
        #expect(try VerificationKeySet(contentsOfFiles: [a.path, b.path]).keys.count == 2)
        let missing = dir.appendingPathComponent("missing.pem").path
        let error = #expect(throws: VerificationKeyError.self) { try VerificationKeySet(contentsOfFile: missing) }
        #expect(error?.code == .unreadable)
        #expect(error?.detail.contains("missing.pem") == true)
    }

    @Test(arguments: [
        ("", VerificationKeyError.Code.invalidPEM),
        ("hello world", .invalidPEM),
        ("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----", .invalidPEM),
        ("-----BEGIN PUBLIC KEY-----\nnot base64\n-----END PUBLIC KEY-----", .invalidPEM),
        ("-----BEGIN CERTIFICATE-----\nAAAA\n", .invalidPEM),
        ("-----BEGIN CERTIFICATE-----\nAAAA\n-----END PUBLIC KEY-----", .invalidPEM),
        ("-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----", .unsupportedKey),
    ])
    func badPEMIsAClearError(pem: String, code: VerificationKeyError.Code) {
        let error = #expect(throws: VerificationKeyError.self) { try VerificationKeySet(pem: pem) }
        #expect(error?.code == code)
    }

    @Test func privateKeyAndShortKeyAreRefused() throws {
        let privateError = #expect(throws: VerificationKeyError.self) {
            try VerificationKeySet(pem: Fixtures.currentKey.pemRepresentation)
        }
        #expect(privateError?.code == .unsupportedKey)
        let short = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
        let shortError = #expect(throws: VerificationKeyError.self) {
            try VerificationKeySet(pem: short.publicKey.pemRepresentation)
        }
        #expect(shortError?.code == .unsupportedKey)
        #expect(throws: VerificationKeyError.self) { try VerificationKeySet(keys: [short.publicKey]) }
    }

    @Test func emptyAndOversizedSetsAreRefused() {
        let empty = #expect(throws: VerificationKeyError.self) { try VerificationKeySet(keys: []) }
        #expect(empty?.code == .noKeys)
        let huge = String(repeating: "x", count: 300 * 1024)
        #expect(throws: VerificationKeyError.self) { try VerificationKeySet(pem: huge) }
    }
}
