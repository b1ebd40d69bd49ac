import Crypto
import _CryptoExtras
import EntitleCore
import Foundation
import MediaTokenVerifier

/// Raw media-token signing and verifying rates of each algorithm, on the calling thread (one core), for
/// `entitle bench verifier`.
enum SignatureRateBenchmark {
    /// The rates of one algorithm, per second.
    struct Rates: Sendable {
        /// The algorithm.
        let algorithm: MediaTokenAlgorithm
        /// Signatures over a token body per second.
        let signsPerSecond: Double
        /// Signature verifications per second.
        let verifiesPerSecond: Double
    }

    /// Signs and verifies the same token body with RSA-2048, ECDSA P-256 and Ed25519, about `seconds` each way.
    static func run(seconds: Double) throws -> [Rates] {
        let body = Data(
            ShortMediaToken(
                sessionGUID: "4c2a9e0c6d7b4f3e9a1b2c3d4e5f6a7b", requestorID: "REF", resourceID: "news", ttl: 420_000,
                issueTime: 1_800_000_000_000, mvpdID: "DemoCable", proxyMvpdID: ""
            ).bodyXML().utf8)
        let keys: [MediaTokenPrivateKey] = [
            .rsa(try _RSA.Signing.PrivateKey(keySize: .bits2048)),
            .p256(P256.Signing.PrivateKey()), .ed25519(Curve25519.Signing.PrivateKey()),
        ]
        let each = max(seconds, 0.05) / 2
        return try keys.map { key in
            let signature = try key.signature(for: body)
            let publicKey = key.publicKey
            let digest = SHA256.hash(data: body)
            let signs = try rate(seconds: each) { _ = try key.signature(for: body) }
            let verifies = rate(seconds: each) { precondition(publicKey.isValidSignature(signature, digest: digest, body: { body })) }
            return Rates(algorithm: key.algorithm, signsPerSecond: signs, verifiesPerSecond: verifies)
        }
    }

    /// Operations per second of `operation`, run in batches of 8 for about `seconds`.
    static func rate(seconds: Double, _ operation: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + .milliseconds(Int64(seconds * 1000))
        var count = 0
        repeat {
            for _ in 0..<8 { try operation() }
            count += 8
        } while clock.now < deadline
        let elapsed = (clock.now - start).components
        return Double(count) / (Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }
}
