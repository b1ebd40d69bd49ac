import Crypto
import _CryptoExtras
import EntitleCore
import Foundation
import MediaTokenVerifier

/// Measures full token verification against raw RSA-2048 signature verification, on the calling thread, for
/// `entitle bench verifier`.
enum VerifierBenchmark {
    /// Runs for about `seconds` and returns both rates. Batches of 8 of each kind run back to back in alternating
    /// order so that both see the same machine load; pairs disturbed by preemption are dropped. The full path is ``MediaTokenVerifier/check(_:requestor:resource:now:)`` (Base64, envelope,
    /// scanner, signature, requestor, lifetime, resource) on a freshly signed token for resource `news`; the
    /// baseline is `isValidSignature` (SHA-256 + RSA PKCS#1 v1.5) over the same body and signature.
    static func run(seconds: Double) throws -> (tokensPerSecond: Double, rawRSAVerifiesPerSecond: Double) {
        let privateKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let signer = MediaTokenSigner(privateKey: privateKey)
        let issue = Date(timeIntervalSince1970: 1_800_000_000)
        let token = ShortMediaToken(
            sessionGUID: "4c2a9e0c6d7b4f3e9a1b2c3d4e5f6a7b", requestorID: "REF", resourceID: "news", ttl: 420_000,
            issueTime: Int64(issue.timeIntervalSince1970 * 1000), mvpdID: "DemoCable", proxyMvpdID: "")
        let serialized = try signer.serialize(token)
        let envelope = try MediaTokenEnvelope(serialized: serialized)
        let publicKey = privateKey.publicKey
        let signature = _RSA.Signing.RSASignature(rawRepresentation: envelope.signature)
        let body = envelope.body
        let verifier = MediaTokenVerifier(keys: try VerificationKeySet(keys: [publicKey]))
        let now = issue.addingTimeInterval(1)

        // Paired batches: a raw batch and a full batch back to back (order alternating), so both see the same
        // machine load; pairs where either batch was disturbed (preempted, > 2x its typical time) are dropped.
        let clock = ContinuousClock()
        let batch = 8
        var pairs: [(raw: Duration, full: Duration)] = []
        let deadline = clock.now + .milliseconds(Int64(max(seconds, 0.05) * 1000))
        var rawFirst = true
        func rawBatch() -> Duration {
            clock.measure {
                for _ in 0..<batch {
                    precondition(publicKey.isValidSignature(signature, for: body, padding: .insecurePKCS1v1_5))
                }
            }
        }
        func fullBatch() -> Duration {
            clock.measure {
                for _ in 0..<batch {
                    precondition(verifier.check(serialized, requestor: "REF", resource: "news", now: now).isValid)
                }
            }
        }
        repeat {
            if rawFirst {
                let raw = rawBatch()
                pairs.append((raw, fullBatch()))
            } else {
                let full = fullBatch()
                pairs.append((rawBatch(), full))
            }
            rawFirst.toggle()
        } while clock.now < deadline
        let typicalRaw = pairs.map(\.raw).sorted()[pairs.count / 2]
        let typicalFull = pairs.map(\.full).sorted()[pairs.count / 2]
        let kept = pairs.filter { $0.raw < typicalRaw * 2 && $0.full < typicalFull * 2 }
        let rawTime = kept.reduce(Duration.zero) { $0 + $1.raw }
        let fullTime = kept.reduce(Duration.zero) { $0 + $1.full }
        let count = Double(kept.count * batch)
        return (count / toSeconds(fullTime), count / toSeconds(rawTime))
    }

    private static func toSeconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
