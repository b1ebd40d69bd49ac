import Crypto
import _CryptoExtras
import Foundation

/// Signs short media tokens for the service.
///
/// `serialize` returns `Base64("<signatureInfo>" + Base64(RSA PKCS#1 v1.5 SHA-256 over UTF-8 body) + "<signatureInfo>" + body)`
/// where `body` is ``ShortMediaToken/bodyXML()``.
public struct MediaTokenSigner: Sendable {
    private let privateKey: _RSA.Signing.PrivateKey

    /// Creates a signer with the service's media-token key (RSA-2048 or larger).
    public init(privateKey: _RSA.Signing.PrivateKey) {
        self.privateKey = privateKey
    }

    /// The public key that verifies this signer's tokens.
    public var publicKey: _RSA.Signing.PublicKey { privateKey.publicKey }

    /// Signs and serializes a token. Throws ``MediaTokenFormatError`` (`invalidValue`) for a negative `ttl` or
    /// `issueTime`, a number above 18 digits, or a character XML 1.0 forbids; rethrows signing failures.
    public func serialize(_ token: ShortMediaToken) throws -> String {
        try Self.validate(token)
        let body = Data(token.bodyXML().utf8)
        let signature = try privateKey.signature(for: body, padding: .insecurePKCS1v1_5)
        var out = Data("<signatureInfo>".utf8)
        out.append(signature.rawRepresentation.base64EncodedData())
        out.append(contentsOf: "<signatureInfo>".utf8)
        out.append(body)
        return out.base64EncodedString()
    }

    private static func validate(_ token: ShortMediaToken) throws {
        let limit: Int64 = 999_999_999_999_999_999
        guard (0...limit).contains(token.ttl), (0...limit).contains(token.issueTime) else {
            throw MediaTokenFormatError(.invalidValue, "ttl and issueTime must be between 0 and 10^18 - 1")
        }
        for value in [token.sessionGUID, token.requestorID, token.resourceID, token.mvpdID, token.proxyMvpdID] {
            for scalar in value.unicodeScalars where !MediaTokenXML.isXMLChar(scalar.value) {
                throw MediaTokenFormatError(.invalidValue, "token value contains a character XML forbids")
            }
        }
    }
}
