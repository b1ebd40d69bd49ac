import Crypto
import _CryptoExtras
import EntitleCore
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Foundation
@testable import MediaTokenVerifier
import Testing

/// ECDSA P-256 and Ed25519 media tokens next to RSA: sign, verify, tamper, PEM bundles of mixed key types.
@Suite struct MediaTokenAlgorithmTests {
    static let inLifetime = Fixtures.issue.addingTimeInterval(60)

    static func privateKey(_ algorithm: MediaTokenAlgorithm) -> MediaTokenPrivateKey {
        switch algorithm {
        case .ecdsaP256SHA256: .p256(P256.Signing.PrivateKey())
        case .ed25519: .ed25519(Curve25519.Signing.PrivateKey())
        default: .rsa(Fixtures.currentKey)
        }
    }

    /// The token with its body changed after signing (resource `news` → `newz`), re-encoded.
    static func tampered(_ serialized: String) -> String {
        let decoded = String(decoding: Data(base64Encoded: serialized)!, as: UTF8.self)
        return Data(decoded.replacingOccurrences(of: "<resourceID>news<", with: "<resourceID>newz<").utf8).base64EncodedString()
    }

    @Test(arguments: ["rsa-sha256", "ecdsa-p256-sha256", "ed25519"])
    func signsAndVerifiesAndRefusesTampering(name: String) async throws {
        let algorithm = MediaTokenAlgorithm(rawValue: name)
        let key = Self.privateKey(algorithm)
        let signer = MediaTokenSigner(key: key)
        #expect(signer.algorithm == algorithm)
        let serialized = try signer.serialize(Fixtures.token())
        let envelope = try MediaTokenEnvelope(serialized: serialized)
        #expect(envelope.signature.count == (algorithm == .rsaSHA256 ? 256 : 64))
        let verifier = MediaTokenVerifier(keys: try VerificationKeySet(publicKeys: [key.publicKey]))
        #expect(verifier.check(serialized, requestor: "REF", resource: "news", now: Self.inLifetime).status == .valid)
        let forged = Self.tampered(serialized)
        #expect(forged != serialized)
        #expect(verifier.check(forged, requestor: "REF", resource: nil, now: Self.inLifetime).status == .invalidSignature)
        // Another key of the same type, and keys of the other types, do not verify it.
        let others = MediaTokenAlgorithm.all.map { Self.privateKey($0).publicKey }.filter { $0.derRepresentation != key.publicKey.derRepresentation }
        let wrong = MediaTokenVerifier(keys: try VerificationKeySet(publicKeys: others))
        #expect(wrong.check(serialized, requestor: "REF", resource: "news", now: Self.inLifetime).status == .invalidSignature)
    }

    @Test func ecdsaSignatureIsRawRAndS() throws {
        let key = P256.Signing.PrivateKey()
        let serialized = try MediaTokenSigner(key: .p256(key)).serialize(Fixtures.token())
        let envelope = try MediaTokenEnvelope(serialized: serialized)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: envelope.signature)
        #expect(key.publicKey.isValidSignature(signature, for: envelope.body))
    }

    @Test func mixedCertificateBundleVerifiesEveryAlgorithm() throws {
        let p256 = try ServiceKeys.makeMediaTokenKey(.ecdsaP256SHA256, commonName: "p256", now: Fixtures.issue)
        let ed25519 = try ServiceKeys.makeMediaTokenKey(.ed25519, commonName: "ed25519", now: Fixtures.issue)
        let rsa = MediaTokenSigner(privateKey: Fixtures.currentKey)
        let bundle = try VerificationKeySet(
            pem: Fixtures.certificatePEM(for: Fixtures.currentKey) + "\n" + p256.certificatePem + "\n" + ed25519.certificatePem)
        #expect(bundle.allKeys.map(\.algorithm) == [.rsaSHA256, .ecdsaP256SHA256, .ed25519])
        #expect(bundle.keys.count == 1)
        let verifier = MediaTokenVerifier(keys: bundle)
        for signer in [
            rsa, MediaTokenSigner(key: try MediaTokenPrivateKey(pem: p256.privatePem)),
            MediaTokenSigner(key: try MediaTokenPrivateKey(pem: ed25519.privatePem)),
        ] {
            let serialized = try signer.serialize(Fixtures.token())
            #expect(verifier.check(serialized, requestor: "REF", resource: "news", now: Self.inLifetime).status == .valid)
            #expect(verifier.check(Self.tampered(serialized), requestor: "REF", resource: nil, now: Self.inLifetime).status == .invalidSignature)
        }
    }

    @Test func publicKeyPEMsOfTheNewTypesAreRead() throws {
        let p256 = P256.Signing.PrivateKey()
        let set = try VerificationKeySet(pem: p256.publicKey.pemRepresentation)
        #expect(set.allKeys.map(\.algorithm) == [.ecdsaP256SHA256])
        #expect(throws: VerificationKeyError.self) { try VerificationKeySet(pem: p256.pemRepresentation) }
    }

    @Test func algorithmNamesAndAliases() {
        #expect(MediaTokenAlgorithm(name: "ecdsa-p256") == .ecdsaP256SHA256)
        #expect(MediaTokenAlgorithm(name: "Ed25519") == .ed25519)
        #expect(MediaTokenAlgorithm(name: "rsa") == .rsaSHA256)
        #expect(MediaTokenAlgorithm(name: "hmac") == nil)
    }
}
