import Crypto
import _CryptoExtras
import Foundation

/// A serialized short media token split into its parts, without any trust decision.
///
/// Format (design decision 4): `Base64("<signatureInfo>" + Base64(signature) + "<signatureInfo>" + body)`, where
/// `body` is the `<shortAuthorizationToken>` element and `signature` is RSA PKCS#1 v1.5 SHA-256 over its exact bytes.
public struct MediaTokenEnvelope: Sendable {
    /// The default cap on the serialized length, in bytes (before Base64 decoding).
    public static let defaultMaximumLength = 16_384
    /// The raw signature bytes (256 for RSA-2048).
    public let signature: Data
    /// The exact body bytes the signature covers.
    public let body: Data
    /// The parsed token fields.
    public let token: ShortMediaToken

    private static let marker = Array("<signatureInfo>".utf8)

    /// Splits and parses a serialized token; surrounding ASCII whitespace is ignored.
    /// Throws ``MediaTokenFormatError`` for anything that is not exactly the token format.
    public init(serialized: String, maximumLength: Int = MediaTokenEnvelope.defaultMaximumLength) throws {
        var text = Substring(serialized)
        guard text.utf8.count <= maximumLength + 64 else {
            throw MediaTokenFormatError(.tooLong, "serialized token exceeds the maximum length")
        }
        while let first = text.utf8.first, first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D { text = text.dropFirst() }
        while let last = text.utf8.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D { text = text.dropLast() }
        guard text.utf8.count <= maximumLength else {
            throw MediaTokenFormatError(.tooLong, "serialized token exceeds the maximum length")
        }
        guard let decoded = Data(base64Encoded: String(text)) else {
            throw MediaTokenFormatError(.notBase64, "serialized token is not Base64")
        }
        let bytes = [UInt8](decoded)
        let marker = Self.marker
        guard bytes.count > marker.count * 2, bytes[0..<marker.count].elementsEqual(marker),
              let second = Self.find(marker, in: bytes, from: marker.count)
        else {
            throw MediaTokenFormatError(.missingSignatureInfo, "token does not start with <signatureInfo>SIG<signatureInfo>")
        }
        let signatureText = bytes[marker.count..<second]
        guard !signatureText.isEmpty, signatureText.count <= 1_400,
              let signature = Data(base64Encoded: Data(signatureText))
        else {
            throw MediaTokenFormatError(.notBase64, "signature is not Base64")
        }
        let bodyBytes = Array(bytes[(second + marker.count)...])
        self.token = try MediaTokenScanner.parse(bodyBytes)
        self.signature = signature
        self.body = Data(bodyBytes)
    }

    /// Whether `publicKey` verifies the signature over the body (RSA PKCS#1 v1.5, SHA-256).
    public func isSigned(by publicKey: _RSA.Signing.PublicKey) -> Bool {
        publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: body,
                                   padding: .insecurePKCS1v1_5)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var i = start
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
