import Foundation

/// The signature algorithm of a short media token. An open set: compare with the static members.
///
/// `rsa-sha256` (RSA PKCS#1 v1.5 with SHA-256, Adobe's format) is the default. `ecdsa-p256-sha256` signatures are
/// the raw 64-byte `r || s` form (IEEE P1363, as in JWS), not DER. `ed25519` signatures are the 64-byte RFC 8032 form.
public struct MediaTokenAlgorithm: Sendable, Hashable, Codable, RawRepresentable, CustomStringConvertible {
    /// The algorithm's name, such as `ecdsa-p256-sha256`.
    public let rawValue: String
    /// Creates an algorithm from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The name.
    public var description: String { rawValue }

    /// RSA PKCS#1 v1.5 with SHA-256 (the default; what existing verifiers expect).
    public static let rsaSHA256 = MediaTokenAlgorithm(rawValue: "rsa-sha256")
    /// ECDSA over P-256 with SHA-256, raw `r || s` signature.
    public static let ecdsaP256SHA256 = MediaTokenAlgorithm(rawValue: "ecdsa-p256-sha256")
    /// Ed25519 (RFC 8032).
    public static let ed25519 = MediaTokenAlgorithm(rawValue: "ed25519")

    /// Every supported algorithm, the default first.
    public static let all: [MediaTokenAlgorithm] = [.rsaSHA256, .ecdsaP256SHA256, .ed25519]

    /// Parses a name or a short alias (`rsa`, `ecdsa-p256`, `p256`, `es256`); nil when unknown.
    public init?(name: String) {
        switch name.lowercased() {
        case "rsa", "rsa-sha256", "rs256", "rsa-2048": self = .rsaSHA256
        case "ecdsa", "ecdsa-p256", "ecdsa-p256-sha256", "p256", "p-256", "es256": self = .ecdsaP256SHA256
        case "ed25519", "eddsa": self = .ed25519
        default: return nil
        }
    }
}
