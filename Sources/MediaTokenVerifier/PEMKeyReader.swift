import _CryptoExtras
import Foundation
import X509

/// Splits PEM text into blocks and turns each into an RSA public key.
enum PEMKeyReader {
    /// The largest PEM bundle accepted from a file or the network.
    static let maximumBundleSize = 256 * 1024

    static func publicKeys(in text: String) throws -> [_RSA.Signing.PublicKey] {
        guard text.utf8.count <= maximumBundleSize else {
            throw VerificationKeyError(.invalidPEM, "PEM text is larger than \(maximumBundleSize) bytes")
        }
        let blocks = try self.blocks(in: text)
        guard !blocks.isEmpty else { throw VerificationKeyError(.invalidPEM, "no PEM block found") }
        var keys: [_RSA.Signing.PublicKey] = []
        for (number, block) in blocks.enumerated() {
            keys.append(try key(from: block, number: number + 1))
        }
        return keys
    }

    private static func key(from block: (label: String, text: String), number: Int) throws -> _RSA.Signing.PublicKey {
        let key: _RSA.Signing.PublicKey
        switch block.label {
        case "CERTIFICATE":
            let certificate: Certificate
            do {
                certificate = try Certificate(pemEncoded: block.text)
            } catch {
                throw VerificationKeyError(.invalidPEM, "PEM block \(number) is not a valid X.509 certificate")
            }
            guard let rsa = _RSA.Signing.PublicKey(certificate.publicKey) else {
                throw VerificationKeyError(.unsupportedKey, "certificate in PEM block \(number) does not hold an RSA key")
            }
            key = rsa
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
            throw VerificationKeyError(.unsupportedKey,
                                       "PEM block \(number) is a \(key.keySizeInBits)-bit RSA key; at least \(VerificationKeySet.minimumKeySize) required")
        }
        return key
    }

    /// `-----BEGIN X-----` … `-----END X-----` blocks, each returned with its label and full text.
    static func blocks(in text: String) throws -> [(label: String, text: String)] {
        var result: [(label: String, text: String)] = []
        var current: (label: String, lines: [Substring])?
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let open = current {
                if trimmed.hasPrefix("-----END ") {
                    guard trimmed == "-----END \(open.label)-----" else {
                        throw VerificationKeyError(.invalidPEM, "PEM block \(result.count + 1) ends with a different label")
                    }
                    let body = open.lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
                    result.append((open.label, "-----BEGIN \(open.label)-----\n\(body)\n-----END \(open.label)-----"))
                    current = nil
                } else {
                    current?.lines.append(Substring(trimmed))
                }
            } else if trimmed.hasPrefix("-----BEGIN "), trimmed.hasSuffix("-----"), trimmed.count > 16 {
                let label = String(trimmed.dropFirst(11).dropLast(5))
                current = (label, [])
            }
        }
        if current != nil { throw VerificationKeyError(.invalidPEM, "PEM block \(result.count + 1) has no END line") }
        return result
    }
}
