import EntitleCore
import EntitleDomain
import EntitleHTTP
import EntitleModel
import Foundation
import MediaTokenVerifier
import SystemRSA
import _CryptoExtras

/// RSA-2048 signing rates of the two implementations the service can sign media tokens with, one core, same key.
struct RSAImplementationRates {
    /// swift-crypto (BoringSSL) signs per second.
    let swiftCrypto: Double
    /// The system's libcrypto signs per second, nil when this build has none.
    let system: Double?

    static func measure(seconds: Double) throws -> RSAImplementationRates {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let body = Data(
            ShortMediaToken(
                sessionGUID: "4c2a9e0c6d7b4f3e9a1b2c3d4e5f6a7b", requestorID: "REF", resourceID: "news", ttl: 420_000,
                issueTime: 1_800_000_000_000, mvpdID: "DemoCable", proxyMvpdID: ""
            ).bodyXML().utf8)
        let swiftCrypto = SignatureRateBenchmark.rate(seconds: seconds) {
            _ = try? key.signature(for: body, padding: .insecurePKCS1v1_5)
        }
        guard let system = try? SystemRSASigningKey(pem: key.pemRepresentation) else {
            return RSAImplementationRates(swiftCrypto: swiftCrypto, system: nil)
        }
        let systemRate = SignatureRateBenchmark.rate(seconds: seconds) { _ = try? system.signature(for: body) }
        return RSAImplementationRates(swiftCrypto: swiftCrypto, system: systemRate)
    }

    /// The implementation the service signs media tokens with.
    static var serviceImplementation: String { RSASigning.implementationName }
}
