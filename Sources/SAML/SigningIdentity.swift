import Crypto
import _CryptoExtras
import EntitleCore
import Foundation
import X509

/// RSA-2048 key + self-signed X.509 certificate, PEM round-trip.
package struct SigningIdentity: Sendable {
    /// The RSA private key used for XML and redirect-binding signatures.
    package let privateKey: _RSA.Signing.PrivateKey
    /// The certificate published in metadata and KeyInfo.
    package let certificate: Certificate

    /// Loads a key (PKCS#1 or PKCS#8 PEM) and its certificate (PEM or bare base64 DER); they must match.
    package init(privateKeyPEM: String, certificatePEM: String) throws {
        let key: _RSA.Signing.PrivateKey
        do {
            key = try _RSA.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        } catch {
            throw SAMLError(.badKey, "private key PEM is not an RSA key of at least 2048 bits")
        }
        let certificate = try parseCertificatePEMOrBase64DER(certificatePEM)
        let publicKey = try rsaPublicKey(of: certificate)
        guard publicKey.derRepresentation == key.publicKey.derRepresentation else {
            throw SAMLError(.badKey, "certificate does not belong to the private key")
        }
        self.privateKey = key
        self.certificate = certificate
    }

    /// Wraps an existing key and certificate (not checked to match).
    package init(privateKey: _RSA.Signing.PrivateKey, certificate: Certificate) {
        self.privateKey = privateKey
        self.certificate = certificate
    }

    /// Generates an RSA-2048 key (from `keys`: fresh unless a test harness allows reuse) and a self-signed SHA-256
    /// certificate valid from `now - 5 min` for `validFor`.
    package static func generate(
        commonName: String, now: Date,
        validFor: TimeInterval = 10 * 365 * 86400, keys: RSAKeySource = .fresh
    ) throws -> SigningIdentity {
        do {
            let key = try keys.privateKey()
            let name = try DistinguishedName { CommonName(commonName) }
            var serial = SystemRandomNumberGenerator()
            let certificate = try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(
                    bytes: (0..<16).map { i in
                        i == 0 ? UInt8.random(in: 1...0x7F, using: &serial) : UInt8.random(in: 0...255, using: &serial)
                    }),
                publicKey: Certificate.PublicKey(key.publicKey),
                notValidBefore: now.addingTimeInterval(-300),
                notValidAfter: now.addingTimeInterval(validFor),
                issuer: name,
                subject: name,
                signatureAlgorithm: .sha256WithRSAEncryption,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    KeyUsage(digitalSignature: true)
                },
                issuerPrivateKey: Certificate.PrivateKey(key))
            return SigningIdentity(privateKey: key, certificate: certificate)
        } catch {
            throw SAMLError(.badKey, "cannot generate signing identity: \(error)")
        }
    }

    /// The private key as PEM.
    package var privateKeyPEM: String { privateKey.pemRepresentation }

    /// The certificate as PEM (`-----BEGIN CERTIFICATE-----`).
    package var certificatePEM: String { (try? certificate.serializeAsPEM().pemString) ?? "" }

    /// Base64 DER of the certificate without line breaks, for `<ds:X509Certificate>` and metadata.
    package var certificateBase64DER: String { certificateBase64(certificate) }
}

/// Base64 DER of a certificate (no line breaks).
func certificateBase64(_ certificate: Certificate) -> String {
    guard let der = try? certificate.serializeAsPEM().derBytes else { return "" }
    return Data(der).base64EncodedString()
}

/// Parses a certificate given as PEM or as bare base64 DER (as found in `<ds:X509Certificate>`).
package func parseCertificatePEMOrBase64DER(_ text: String) throws -> Certificate {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    do {
        if trimmed.hasPrefix("-----BEGIN") {
            return try Certificate(pemEncoded: trimmed)
        }
        guard let der = Data(base64IgnoringWhitespace: trimmed), !der.isEmpty else {
            throw SAMLError(.badKey, "certificate is neither PEM nor base64 DER")
        }
        return try Certificate(derEncoded: [UInt8](der))
    } catch let error as SAMLError {
        throw error
    } catch {
        throw SAMLError(.badKey, "certificate cannot be parsed")
    }
}

/// The RSA public key of a certificate; throws `badKey` for other key types.
package func rsaPublicKey(of certificate: Certificate) throws -> _RSA.Signing.PublicKey {
    guard let key = _RSA.Signing.PublicKey(certificate.publicKey) else {
        throw SAMLError(.badKey, "certificate key is not RSA")
    }
    return key
}
