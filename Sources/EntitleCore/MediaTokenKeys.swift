import Crypto
import _CryptoExtras
import Foundation

/// Something that makes media-token signatures: a ``MediaTokenPrivateKey``, or the same key held by another
/// implementation (the service signs RSA through the system's OpenSSL where it is present).
public protocol MediaTokenSigningKey: Sendable {
    /// The algorithm the key signs with.
    var algorithm: MediaTokenAlgorithm { get }
    /// The public key that verifies the signatures.
    var publicKey: MediaTokenPublicKey { get }
    /// The raw signature over `body` (256+ bytes for RSA, 64 for ECDSA `r || s` and Ed25519).
    func signature(for body: Data) throws -> Data
}

/// A private key that signs media tokens: RSA (2048 bits or more), ECDSA P-256 or Ed25519.
public enum MediaTokenPrivateKey: MediaTokenSigningKey {
    /// RSA PKCS#1 v1.5 SHA-256.
    case rsa(_RSA.Signing.PrivateKey)
    /// ECDSA P-256 SHA-256 (raw `r || s` signatures).
    case p256(P256.Signing.PrivateKey)
    /// Ed25519.
    case ed25519(Curve25519.Signing.PrivateKey)

    /// The algorithm this key signs with.
    public var algorithm: MediaTokenAlgorithm {
        switch self {
        case .rsa: .rsaSHA256
        case .p256: .ecdsaP256SHA256
        case .ed25519: .ed25519
        }
    }

    /// The matching public key.
    public var publicKey: MediaTokenPublicKey {
        switch self {
        case .rsa(let key): .rsa(key.publicKey)
        case .p256(let key): .p256(key.publicKey)
        case .ed25519(let key): .ed25519(key.publicKey)
        }
    }

    /// The raw signature over `body` (256+ bytes for RSA, 64 for ECDSA `r || s` and Ed25519).
    public func signature(for body: Data) throws -> Data {
        switch self {
        case .rsa(let key): try key.signature(for: body, padding: .insecurePKCS1v1_5).rawRepresentation
        case .p256(let key): try key.signature(for: body).rawRepresentation
        case .ed25519(let key): try key.signature(for: body)
        }
    }

    /// Parses a PKCS#8 (or PKCS#1 RSA / SEC1 EC) PEM private key of any supported type.
    public init(pem: String) throws {
        if let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) {
            self = .p256(key)
        } else if let key = try? Curve25519.Signing.PrivateKey(pkcs8PEM: pem) {
            self = .ed25519(key)
        } else {
            self = .rsa(try _RSA.Signing.PrivateKey(pemRepresentation: pem))
        }
    }

    /// The PEM (PKCS#8 for EC and Ed25519 keys) of the private key.
    public var pemRepresentation: String {
        switch self {
        case .rsa(let key): key.pemRepresentation
        case .p256(let key): key.pemRepresentation
        case .ed25519(let key): key.pkcs8PEM
        }
    }
}

/// A public key that verifies media tokens.
public enum MediaTokenPublicKey: Sendable {
    /// RSA PKCS#1 v1.5 SHA-256.
    case rsa(_RSA.Signing.PublicKey)
    /// ECDSA P-256 SHA-256 (raw `r || s` signatures).
    case p256(P256.Signing.PublicKey)
    /// Ed25519.
    case ed25519(Curve25519.Signing.PublicKey)

    /// The algorithm this key verifies.
    public var algorithm: MediaTokenAlgorithm {
        switch self {
        case .rsa: .rsaSHA256
        case .p256: .ecdsaP256SHA256
        case .ed25519: .ed25519
        }
    }

    /// The SubjectPublicKeyInfo DER (identifies the key, for de-duplication).
    public var derRepresentation: Data {
        switch self {
        case .rsa(let key): key.derRepresentation
        case .p256(let key): key.derRepresentation
        case .ed25519(let key): Data([0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00]) + key.rawRepresentation
        }
    }

    /// Whether `signature` is this key's signature over the body whose SHA-256 is `digest` (`body` for Ed25519).
    /// A signature of the wrong length for the key type is refused without any work.
    public func isValidSignature(_ signature: Data, digest: SHA256.Digest, body: () -> Data) -> Bool {
        switch self {
        case .rsa(let key):
            guard signature.count == key.keySizeInBits / 8 else { return false }
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: digest, padding: .insecurePKCS1v1_5)
        case .p256(let key):
            guard signature.count == 64, let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(ecdsa, for: digest)
        case .ed25519(let key):
            guard signature.count == 64 else { return false }
            return key.isValidSignature(signature, for: body())
        }
    }
}

extension Curve25519.Signing.PrivateKey {
    /// PKCS#8 PEM (RFC 8410) of the key.
    var pkcs8PEM: String {
        let der = Data([0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]) + rawRepresentation
        let base64 = der.base64EncodedString()
        return "-----BEGIN PRIVATE KEY-----\n" + base64 + "\n-----END PRIVATE KEY-----"
    }

    /// Parses a PKCS#8 PEM Ed25519 key (RFC 8410, 48 bytes of DER).
    init(pkcs8PEM pem: String) throws {
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard pem.contains("BEGIN PRIVATE KEY"), let der = Data(base64Encoded: body), der.count == 48,
            der.prefix(16) == Data([0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20])
        else { throw MediaTokenFormatError(.invalidValue, "not a PKCS#8 Ed25519 private key") }
        try self.init(rawRepresentation: der.suffix(32))
    }
}
