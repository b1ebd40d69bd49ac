import Crypto
import _CryptoExtras
import EntitleCore
import Foundation
import X509

/// Splits PEM text into blocks and turns each into a public key (RSA, ECDSA P-256 or Ed25519).
enum PEMKeyReader {
    /// The largest PEM bundle accepted from a file or the network.
    static let maximumBundleSize = 256 * 1024

    static func publicKeys(in text: String) throws -> [MediaTokenPublicKey] {
        guard text.utf8.count <= maximumBundleSize else {
            throw VerificationKeyError(.invalidPEM, "PEM text is larger than \(maximumBundleSize) bytes")
        }
        let blocks = try self.blocks(in: text)
        guard !blocks.isEmpty else { throw VerificationKeyError(.invalidPEM, "no PEM block found") }
        var keys: [MediaTokenPublicKey] = []
        for (number, block) in blocks.enumerated() {
            keys.append(try key(from: block, number: number + 1))
        }
        return keys
    }

    private static func key(from block: (label: String, text: String), number: Int) throws -> MediaTokenPublicKey {
        let key: _RSA.Signing.PublicKey
        switch block.label {
        case "CERTIFICATE":
            let certificate: Certificate
            do {
                certificate = try Certificate(pemEncoded: block.text)
            } catch {
                throw VerificationKeyError(.invalidPEM, "PEM block \(number) is not a valid X.509 certificate")
            }
            if let p256 = P256.Signing.PublicKey(certificate.publicKey) { return .p256(p256) }
            if let ed25519 = Curve25519.Signing.PublicKey(certificate.publicKey) { return .ed25519(ed25519) }
            guard let rsa = _RSA.Signing.PublicKey(certificate.publicKey) else {
                throw VerificationKeyError(.unsupportedKey, "certificate in PEM block \(number) does not hold an RSA, P-256 or Ed25519 key")
            }
            key = rsa
        case "PUBLIC KEY" where (try? P256.Signing.PublicKey(pemRepresentation: block.text)) != nil:
            return .p256(try P256.Signing.PublicKey(pemRepresentation: block.text))
        case "PUBLIC KEY" where ed25519(spkiPEM: block.text) != nil:
            return .ed25519(ed25519(spkiPEM: block.text)!)
        case "PUBLIC KEY", "RSA PUBLIC KEY":
            do {
                key = try _RSA.Signing.PublicKey(unsafePEMRepresentation: block.text)
            } catch {
                throw VerificationKeyError(.invalidPEM, "PEM block \(number) is not a valid RSA public key")
            }
        default:
            if block.label.contains("PRIVATE KEY") {
                throw VerificationKeyError(.unsupportedKey, "PEM block \(number) is a private key; supply the certificate or public key")
            }
            throw VerificationKeyError(.unsupportedKey, "PEM block \(number) has unsupported type \(block.label)")
        }
        guard key.keySizeInBits >= VerificationKeySet.minimumKeySize else {
            throw VerificationKeyError(
                .unsupportedKey,
                "PEM block \(number) is a \(key.keySizeInBits)-bit RSA key; at least \(VerificationKeySet.minimumKeySize) required")
        }
        return .rsa(key)
    }

    /// An Ed25519 SubjectPublicKeyInfo (RFC 8410, 44 bytes of DER), or nil.
    private static func ed25519(spkiPEM pem: String) -> Curve25519.Signing.PublicKey? {
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let der = Data(base64Encoded: body), der.count == 44,
            der.prefix(12) == Data([0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00])
        else { return nil }
        return try? Curve25519.Signing.PublicKey(rawRepresentation: der.suffix(12 + 32).suffix(32))
    }

    /// `-----BEGIN X-----` … `-----END X-----` blocks, each returned with its label and normalized text.
    /// Markers are found anywhere (a bundle made by concatenating files without final newlines still splits).
    static func blocks(in text: String) throws -> [(label: String, text: String)] {
        var result: [(label: String, text: String)] = []
        var rest = Substring(text)
        while let begin = rest.range(of: "-----BEGIN ") {
            let afterBegin = rest[begin.upperBound...]
            guard let labelEnd = afterBegin.range(of: "-----"), afterBegin.distance(from: afterBegin.startIndex, to: labelEnd.lowerBound) <= 64 else {
                throw VerificationKeyError(.invalidPEM, "PEM block \(result.count + 1) has a malformed BEGIN line")
            }
            let label = String(afterBegin[..<labelEnd.lowerBound])
            let content = afterBegin[labelEnd.upperBound...]
            guard let end = content.range(of: "-----END ") else {
                throw VerificationKeyError(.invalidPEM, "PEM block \(result.count + 1) has no END line")
            }
            let endMarker = "-----END \(label)-----"
            guard content[end.lowerBound...].hasPrefix(endMarker) else {
                throw VerificationKeyError(.invalidPEM, "PEM block \(result.count + 1) ends with a different label")
            }
            let body = content[..<end.lowerBound].split(whereSeparator: { $0.isWhitespace }).joined()
            var lines: [Substring] = []
            var index = body.startIndex
            while index < body.endIndex {
                let next = body.index(index, offsetBy: 64, limitedBy: body.endIndex) ?? body.endIndex
                lines.append(body[index..<next])
                index = next
            }
            result.append((label, "-----BEGIN \(label)-----\n" + lines.joined(separator: "\n") + "\n-----END \(label)-----"))
            rest = content[content.index(end.lowerBound, offsetBy: endMarker.count)...]
        }
        return result
    }
}
