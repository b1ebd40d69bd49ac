import _CryptoExtras
import EntitleCore
import Foundation
@testable import MediaTokenVerifier
import X509

/// Keys and tokens shared by the verifier tests (RSA key generation is slow in debug builds, so keys are made once).
enum Fixtures {
    static let currentKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let nextKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let strangerKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    /// 2030-01-15T08:00:00Z.
    static let issue = Date(timeIntervalSince1970: 1_894_694_400)
    static let issueMilliseconds: Int64 = 1_894_694_400_000

    static func token(
        resource: String = "news", requestor: String = "REF", ttl: Int64 = 420_000,
        issueTime: Int64 = issueMilliseconds, guid: String = "4c2a9e0c6d7b4f3e9a1b2c3d4e5f6a7b"
    ) -> ShortMediaToken {
        ShortMediaToken(
            sessionGUID: guid, requestorID: requestor, resourceID: resource, ttl: ttl, issueTime: issueTime,
            mvpdID: "DemoCable", proxyMvpdID: "")
    }

    static func serialized(_ token: ShortMediaToken = token(), key: _RSA.Signing.PrivateKey = currentKey) -> String {
        try! MediaTokenSigner(privateKey: key).serialize(token)
    }

    static func keySet(_ keys: _RSA.Signing.PrivateKey...) -> VerificationKeySet {
        try! VerificationKeySet(keys: keys.map(\.publicKey))
    }

    /// A self-signed X.509 certificate for `key`, as PEM.
    static func certificatePEM(for key: _RSA.Signing.PrivateKey, commonName: String = "Entitle media tokens") throws -> String {
        let name = try DistinguishedName { CommonName(commonName) }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: issue.addingTimeInterval(-86_400), notValidAfter: issue.addingTimeInterval(86_400 * 365),
            issuer: name, subject: name, signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: Certificate.Extensions {}, issuerPrivateKey: Certificate.PrivateKey(key))
        return try certificate.serializeAsPEM().pemString
    }

    /// Rebuilds a serialized token from raw parts (for tampering tests).
    static func assemble(signature: Data, body: [UInt8]) -> String {
        var bytes = Array("<signatureInfo>".utf8)
        bytes += Array(signature.base64EncodedString().utf8)
        bytes += Array("<signatureInfo>".utf8)
        bytes += body
        return Data(bytes).base64EncodedString()
    }
}

/// A small deterministic generator (SplitMix64) so fuzz failures can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
