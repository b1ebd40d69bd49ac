import Crypto
import _CryptoExtras
import Foundation

/// A serialized short media token split into its parts, without any trust decision.
///
/// Format: `Base64("<signatureInfo>" + Base64(signature) + "<signatureInfo>" + body)`, where
/// `body` is the `<shortAuthorizationToken>` element and `signature` is RSA PKCS#1 v1.5 SHA-256 (default), ECDSA P-256
/// SHA-256 (raw `r || s`) or Ed25519 over its exact bytes.
public struct MediaTokenEnvelope: Sendable {
    /// The default cap on the serialized length, in bytes (before Base64 decoding).
    public static let defaultMaximumLength = 16_384
    /// The raw signature bytes (256 for RSA-2048, 64 for ECDSA P-256 and Ed25519).
    public let signature: Data
    /// The parsed token fields.
    public let token: ShortMediaToken
    /// The decoded token; the body is a range of it (kept in place so verification copies nothing).
    private let decoded: Data
    private let bodyRange: Range<Int>

    /// The exact body bytes the signature covers (a fresh copy on each access).
    public var body: Data { decoded.subdata(in: bodyRange) }

    private static let marker: StaticString = "<signatureInfo>"
    /// The longest Base64 signature accepted (an RSA-8192 signature is 1,368 characters).
    private static let maximumSignatureText = 1_400

    /// Splits and parses a serialized token; surrounding ASCII whitespace is ignored.
    /// Throws ``MediaTokenFormatError`` for anything that is not exactly the token format.
    public init(serialized: String, maximumLength: Int = MediaTokenEnvelope.defaultMaximumLength) throws {
        let utf8 = serialized.utf8
        guard utf8.count <= maximumLength + 64 else {
            throw MediaTokenFormatError(.tooLong, "serialized token exceeds the maximum length")
        }
        var text = Substring(serialized)
        if let first = utf8.first, let last = utf8.last, Self.isWhitespace(first) || Self.isWhitespace(last) {
            while let byte = text.utf8.first, Self.isWhitespace(byte) { text = text.dropFirst() }
            while let byte = text.utf8.last, Self.isWhitespace(byte) { text = text.dropLast() }
        }
        guard text.utf8.count <= maximumLength else {
            throw MediaTokenFormatError(.tooLong, "serialized token exceeds the maximum length")
        }
        guard let decoded = Data(base64Encoded: text.utf8.count == utf8.count ? serialized : String(text)) else {
            throw MediaTokenFormatError(.notBase64, "serialized token is not Base64")
        }
        let parts = try decoded.withUnsafeBytes { try Self.split($0.bindMemory(to: UInt8.self)) }
        guard let signature = Data(base64Encoded: decoded[parts.signature]) else {
            throw MediaTokenFormatError(.notBase64, "signature is not Base64")
        }
        self.signature = signature
        self.decoded = decoded
        self.bodyRange = parts.body
        self.token = parts.token
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Splits decoded bytes into the signature text range, the body range and the parsed token.
    private static func split(_ bytes: UnsafeBufferPointer<UInt8>) throws -> (signature: Range<Int>, body: Range<Int>, token: ShortMediaToken) {
        let markerLength = marker.utf8CodeUnitCount
        guard let base = bytes.baseAddress, bytes.count > markerLength * 2,
            memcmp(base, marker.utf8Start, markerLength) == 0,
            let second = find(marker, in: bytes, from: markerLength)
        else {
            throw MediaTokenFormatError(.missingSignatureInfo, "token does not start with <signatureInfo>SIG<signatureInfo>")
        }
        let signatureRange = markerLength..<second
        guard !signatureRange.isEmpty, signatureRange.count <= maximumSignatureText else {
            throw MediaTokenFormatError(.notBase64, "signature is not Base64")
        }
        let bodyRange = (second + markerLength)..<bytes.count
        let token = try MediaTokenScanner.parse(UnsafeBufferPointer(rebasing: bytes[bodyRange]))
        return (signatureRange, bodyRange, token)
    }

    /// SHA-256 of the body bytes.
    public func bodyDigest() -> SHA256.Digest {
        decoded.withUnsafeBytes { SHA256.hash(data: UnsafeRawBufferPointer(rebasing: $0[bodyRange])) }
    }

    /// Whether `publicKey` verifies the signature over the body (RSA PKCS#1 v1.5, SHA-256).
    public func isSigned(by publicKey: _RSA.Signing.PublicKey) -> Bool {
        isSigned(byAnyOf: CollectionOfOne(publicKey))
    }

    /// Whether any of `publicKeys` verifies the signature; the body is hashed once and keys are tried in order.
    public func isSigned(byAnyOf publicKeys: some Sequence<_RSA.Signing.PublicKey>) -> Bool {
        let digest = bodyDigest()
        let rsaSignature = _RSA.Signing.RSASignature(rawRepresentation: signature)
        return publicKeys.contains { $0.isValidSignature(rsaSignature, for: digest, padding: .insecurePKCS1v1_5) }
    }

    /// Whether any of `publicKeys` (RSA, ECDSA P-256 or Ed25519) verifies the signature; keys are tried in order and
    /// a key whose type cannot produce a signature of this length is skipped without work.
    public func isSigned(byAnyOf publicKeys: some Sequence<MediaTokenPublicKey>) -> Bool {
        let digest = bodyDigest()
        return publicKeys.contains { $0.isValidSignature(signature, digest: digest, body: { body }) }
    }

    /// The first occurrence of `needle` in `haystack` at or after `start` (memchr for its first byte, then memcmp).
    private static func find(_ needle: StaticString, in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let count = needle.utf8CodeUnitCount
        guard let base = haystack.baseAddress, haystack.count - start >= count else { return nil }
        let first = Int32(needle.utf8Start.pointee)
        var i = start
        let end = haystack.count - count
        while i <= end {
            guard let hit = memchr(base + i, first, end - i + 1) else { return nil }
            let position = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + position, needle.utf8Start, count) == 0 { return position }
            i = position + 1
        }
        return nil
    }
}
