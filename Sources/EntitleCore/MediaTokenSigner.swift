import Crypto
internal import ExtrasBase64
import _CryptoExtras
import Foundation

/// Signs short media tokens for the service.
///
/// `serialize` returns `Base64("<signatureInfo>" + Base64(signature over UTF-8 body) + "<signatureInfo>" + body)`
/// where `body` is ``ShortMediaToken/bodyXML()`` and the signature is RSA PKCS#1 v1.5 SHA-256 (the default),
/// ECDSA P-256 SHA-256 (raw `r || s`) or Ed25519, by the key (see ``MediaTokenAlgorithm``).
public struct MediaTokenSigner: Sendable {
    private let key: any MediaTokenSigningKey

    /// Creates a signer with the service's media-token key (RSA-2048 or larger).
    public init(privateKey: _RSA.Signing.PrivateKey) {
        self.key = MediaTokenPrivateKey.rsa(privateKey)
    }

    /// Creates a signer with a key of any supported algorithm.
    public init(key: MediaTokenPrivateKey) {
        self.key = key
    }

    /// Creates a signer with any implementation of a media-token key.
    public init(signingKey: any MediaTokenSigningKey) {
        self.key = signingKey
    }

    /// The algorithm the signer uses.
    public var algorithm: MediaTokenAlgorithm { key.algorithm }

    /// The public key that verifies this signer's tokens.
    public var verificationKey: MediaTokenPublicKey { key.publicKey }

    /// Signs and serializes a token. Throws ``MediaTokenFormatError`` (`invalidValue`) for a negative `ttl` or
    /// `issueTime`, a number above 18 digits, or a character XML 1.0 forbids; rethrows signing failures.
    public func serialize(_ token: ShortMediaToken) throws -> String {
        try Self.validate(token)
        let body = token.bodyXMLBytes()
        let signature = try key.signature(for: Data(body))
        // Encoded straight into byte buffers, not through `Data` (this runs for every media token).
        var envelope = Array("<signatureInfo>".utf8)
        envelope += Base64.encodeToBytes(bytes: signature)
        envelope += "<signatureInfo>".utf8
        envelope += body
        return Base64.encodeToString(bytes: envelope)
    }

    /// Whether every byte of `value` is printable ASCII (each an XML character): one branch-free pass, so the usual ids
    /// skip the scalar-by-scalar check.
    private static func isPrintableASCII(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            var outside: UInt8 = 0
            for byte in bytes { outside |= (byte < 0x20 || byte >= 0x7F) ? 1 : 0 }
            return outside == 0
        }
    }

    private static func validate(_ token: ShortMediaToken) throws {
        let limit: Int64 = 999_999_999_999_999_999
        guard (0...limit).contains(token.ttl), (0...limit).contains(token.issueTime) else {
            throw MediaTokenFormatError(.invalidValue, "ttl and issueTime must be between 0 and 10^18 - 1")
        }
        for value in [token.sessionGUID, token.requestorID, token.resourceID, token.mvpdID, token.proxyMvpdID] where !isPrintableASCII(value) {
            for scalar in value.unicodeScalars where !XMLEscape.isXMLCharacter(scalar.value) {
                throw MediaTokenFormatError(.invalidValue, "token value contains a character XML forbids")
            }
        }
    }
}
