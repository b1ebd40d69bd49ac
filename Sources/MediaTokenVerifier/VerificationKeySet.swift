import _CryptoExtras
import EntitleCore
import Foundation

/// Supplies the keys a ``MediaTokenVerifier`` currently trusts; read on every verification, so it must be cheap.
public protocol VerificationKeyProvider: Sendable {
    /// The keys trusted right now.
    var currentKeys: VerificationKeySet { get }
}

/// An immutable set of public keys that verify media tokens: RSA (2048 bits or more), ECDSA P-256 or Ed25519.
///
/// Several keys may be trusted at once for rotation; they are tried in order, so put the current signing key first
/// (the service publishes it first). The set is capped at ``maximumKeyCount`` keys because a forged token costs one
/// RSA verification per key.
public struct VerificationKeySet: VerificationKeyProvider, Sendable {
    /// The largest number of keys a set may hold.
    public static let maximumKeyCount = 16
    /// The smallest accepted RSA modulus, in bits.
    public static let minimumKeySize = 2048

    /// Every trusted key of any type, in the order they are tried; duplicates removed.
    public let allKeys: [MediaTokenPublicKey]

    /// The trusted RSA keys, in order (``allKeys`` also holds ECDSA P-256 and Ed25519 keys).
    public var keys: [_RSA.Signing.PublicKey] {
        allKeys.compactMap { if case .rsa(let key) = $0 { key } else { nil } }
    }

    /// Creates a set from parsed RSA keys. Throws ``VerificationKeyError`` for an empty list, too many keys, or a short key.
    public init(keys: [_RSA.Signing.PublicKey]) throws {
        try self.init(publicKeys: keys.map { .rsa($0) })
    }

    /// Creates a set from parsed keys of any supported type. Throws ``VerificationKeyError`` for an empty list,
    /// too many keys, or a short RSA key.
    public init(publicKeys: [MediaTokenPublicKey]) throws {
        var unique: [MediaTokenPublicKey] = []
        var seen: Set<Data> = []
        for key in publicKeys {
            if case .rsa(let rsa) = key, rsa.keySizeInBits < Self.minimumKeySize {
                throw VerificationKeyError(.unsupportedKey, "RSA key of \(rsa.keySizeInBits) bits; at least \(Self.minimumKeySize) required")
            }
            if seen.insert(key.derRepresentation).inserted { unique.append(key) }
        }
        guard !unique.isEmpty else { throw VerificationKeyError(.noKeys, "no verification key supplied") }
        guard unique.count <= Self.maximumKeyCount else {
            throw VerificationKeyError(.tooManyKeys, "\(unique.count) keys; at most \(Self.maximumKeyCount) are accepted")
        }
        self.allKeys = unique
    }

    /// Parses one or more PEM blocks: `CERTIFICATE` (X.509 with an RSA, P-256 or Ed25519 key), `PUBLIC KEY` (SPKI of
    /// those types) or `RSA PUBLIC KEY` (PKCS#1). Text outside blocks is ignored. Private keys and other blocks are refused.
    public init(pem: String) throws {
        try self.init(publicKeys: try PEMKeyReader.publicKeys(in: pem))
    }

    /// Reads PEM keys from a file.
    public init(contentsOfFile path: String) throws {
        try self.init(contentsOfFiles: [path])
    }

    /// Reads PEM keys from several files (for example the current and the next certificate).
    public init(contentsOfFiles paths: [String]) throws {
        var keys: [MediaTokenPublicKey] = []
        for path in paths {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw VerificationKeyError(.unreadable, "cannot read key file \(path)")
            }
            guard data.count <= PEMKeyReader.maximumBundleSize else {
                throw VerificationKeyError(.invalidPEM, "key file \(path) is larger than \(PEMKeyReader.maximumBundleSize) bytes")
            }
            do {
                keys += try PEMKeyReader.publicKeys(in: String(decoding: data, as: UTF8.self))
            } catch let error as VerificationKeyError {
                throw VerificationKeyError(error.code, "\(path): \(error.detail)")
            }
        }
        try self.init(publicKeys: keys)
    }

    /// The set itself (a static provider).
    public var currentKeys: VerificationKeySet { self }

    /// The set with `other`'s keys appended (duplicates removed).
    public func adding(_ other: VerificationKeySet) throws -> VerificationKeySet {
        try VerificationKeySet(publicKeys: allKeys + other.allKeys)
    }
}
