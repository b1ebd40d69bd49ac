import Crypto
import _CryptoExtras
import EntitleCore
import Foundation

/// Measures full token verification against raw RSA-2048 signature verification, on the calling thread.
public enum VerifierBenchmark {
    /// Runs for about `seconds` and returns both rates. Rounds of the two loops alternate so that both see the same
    /// machine load; the full path is ``MediaTokenVerifier/check(_:requestor:resource:now:)`` (Base64, envelope,
    /// scanner, signature, requestor, lifetime, resource) on a freshly signed token for resource `news`; the
    /// baseline is `isValidSignature` (SHA-256 + RSA PKCS#1 v1.5) over the same body and signature.
    public static func run(seconds: Double) -> (tokensPerSecond: Double, rawRSAVerifiesPerSecond: Double) {
        let privateKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
        let signer = MediaTokenSigner(privateKey: privateKey)
        let issue = Date(timeIntervalSince1970: 1_800_000_000)
        let token = ShortMediaToken(
            sessionGUID: "4c2a9e0c6d7b4f3e9a1b2c3d4e5f6a7b", requestorID: "REF", resourceID: "news", ttl: 420_000,
            issueTime: Int64(issue.timeIntervalSince1970 * 1000), mvpdID: "DemoCable", proxyMvpdID: "")
        let serialized = try! signer.serialize(token)
        let envelope = try! MediaTokenEnvelope(serialized: serialized)
        let publicKey = privateKey.publicKey
        let signature = _RSA.Signing.RSASignature(rawRepresentation: envelope.signature)
        let body = envelope.body
        let verifier = MediaTokenVerifier(keys: try! VerificationKeySet(keys: [publicKey]))
        let now = issue.addingTimeInterval(1)

        let clock = ContinuousClock()
        let rounds = 10
        let slice = Duration.milliseconds(Int64(max(seconds, 0.02) * 1000 / Double(rounds * 2)))
        var fullCount = 0, rawCount = 0
        var fullTime = Duration.zero, rawTime = Duration.zero
        for _ in 0..<rounds {
            var start = clock.now
            repeat {
                for _ in 0..<16 {
                    precondition(publicKey.isValidSignature(signature, for: body, padding: .insecurePKCS1v1_5))
                }
                rawCount += 16
            } while clock.now - start < slice
            rawTime += clock.now - start
            start = clock.now
            repeat {
                for _ in 0..<16 {
                    precondition(verifier.check(serialized, requestor: "REF", resource: "news", now: now).isValid)
                }
                fullCount += 16
            } while clock.now - start < slice
            fullTime += clock.now - start
        }
        return (Double(fullCount) / toSeconds(fullTime), Double(rawCount) / toSeconds(rawTime))
    }

    private static func toSeconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
