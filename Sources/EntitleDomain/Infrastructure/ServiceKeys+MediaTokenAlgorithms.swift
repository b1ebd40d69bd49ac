import Crypto
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import X509

extension ServiceKeys {
    /// The key purpose of media-token keys of an algorithm: `media-token` (RSA), `media-token-ecdsa-p256`,
    /// `media-token-ed25519`. Each purpose is rotated on its own.
    package static func mediaTokenPurpose(_ algorithm: MediaTokenAlgorithm) -> KeyPurpose {
        switch algorithm {
        case .ecdsaP256SHA256: .mediaTokenECDSAP256
        case .ed25519: .mediaTokenEd25519
        default: .mediaToken
        }
    }

    /// The non-RSA media-token purposes, in publication order.
    package static let extraMediaTokenPurposes = [mediaTokenPurpose(.ecdsaP256SHA256), mediaTokenPurpose(.ed25519)]

    /// The algorithm of an ECDSA or Ed25519 media-token purpose, nil for any other purpose.
    package static func extraMediaTokenAlgorithm(purpose: KeyPurpose) -> MediaTokenAlgorithm? {
        MediaTokenAlgorithm.all.first { $0 != .rsaSHA256 && mediaTokenPurpose($0) == purpose }
    }

    /// A new self-signed certificate and PEM private key for an ECDSA P-256 or Ed25519 media-token key.
    package static func makeMediaTokenKey(_ algorithm: MediaTokenAlgorithm, commonName: String, now: Date) throws -> (
        privatePem: String, certificatePem: String
    ) {
        let privateKey: MediaTokenPrivateKey
        let certificateKey: Certificate.PrivateKey
        let signatureAlgorithm: Certificate.SignatureAlgorithm
        if algorithm == .ed25519 {
            let key = Curve25519.Signing.PrivateKey()
            privateKey = .ed25519(key)
            certificateKey = Certificate.PrivateKey(key)
            signatureAlgorithm = .ed25519
        } else {
            let key = P256.Signing.PrivateKey()
            privateKey = .p256(key)
            certificateKey = Certificate.PrivateKey(key)
            signatureAlgorithm = .ecdsaWithSHA256
        }
        let name = try DistinguishedName { CommonName(commonName) }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(bytes: [UInt8.random(in: 1...0x7F)] + (1..<16).map { _ in UInt8.random(in: 0...255) }),
            publicKey: certificateKey.publicKey,
            notValidBefore: now.addingTimeInterval(-300),
            notValidAfter: now.addingTimeInterval(10 * 365 * 86400),
            issuer: name, subject: name, signatureAlgorithm: signatureAlgorithm,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                KeyUsage(digitalSignature: true)
            },
            issuerPrivateKey: certificateKey)
        return (privateKey.pemRepresentation, try certificate.serializeAsPEM().pemString)
    }

    /// The key that signs media tokens of `algorithm` now, or nil when none does yet (no key, or only a pending one:
    /// the caller then signs with RSA, so no token is signed by a key video servers have not fetched).
    package func mediaTokenSigningKey(_ algorithm: MediaTokenAlgorithm) async throws -> (any MediaTokenSigningKey)? {
        if algorithm == .rsaSHA256 {
            let (active, keys) = try await signingKey(purpose: .mediaToken)
            return keys.mediaTokenKeys[active.kid]
        }
        let keys = try await keys(purpose: Self.mediaTokenPurpose(algorithm))
        return keys.signing(at: nowMilliseconds()).flatMap { keys.mediaTokenKeys[$0.kid] }
    }

    /// Makes sure a key of `algorithm` exists: creates one, published now and signing after `promoteAfter` ms
    /// (default ``promotionDelay(purpose:)``), unless there is one. Returns the newest unretired key.
    @discardableResult
    package func ensureMediaTokenKey(_ algorithm: MediaTokenAlgorithm, promoteAfter: Int64? = nil) async throws -> ServiceKeyRecord? {
        let purpose = Self.mediaTokenPurpose(algorithm)
        if let existing = try await store.activeKey(purpose: purpose) { return existing }
        return try await rotate(purpose: purpose, promoteAfter: promoteAfter)
    }
}
