import Crypto
import _CryptoExtras
import EntitleCore
import Foundation
import X509

/// A public key that verifies SSO tokens: RSA (RS256, at least 2048 bits) or EC P-256 (ES256), with the `kid` a JWKS
/// gave it.
package struct SSOVerificationKey: Sendable {
    package enum Material: Sendable {
        case rsa(_RSA.Signing.PublicKey)
        case p256(P256.Signing.PublicKey)
    }

    /// The key.
    package let material: Material
    /// Its id in a JWKS (nil for a PEM key).
    package let kid: String?

    /// The JWS algorithm the key verifies.
    package var algorithm: String {
        switch material {
        case .rsa: "RS256"
        case .p256: "ES256"
        }
    }

    package init(_ material: Material, kid: String? = nil) {
        self.material = material
        self.kid = kid
    }

    /// Whether `signature` signs `input` under `algorithm` with this key.
    package func verifies(_ signature: Data, input: Data, algorithm: String) -> Bool {
        switch (material, algorithm) {
        case (.rsa(let key), "RS256"):
            return key.isValidSignature(.init(rawRepresentation: signature), for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5)
        case (.p256(let key), "ES256"):
            guard signature.count == 64, let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: SHA256.hash(data: input))
        default:
            return false
        }
    }

    /// A refused key, with the operator's reason.
    package struct Invalid: Error, CustomStringConvertible, Sendable {
        package let description: String
        package init(_ description: String) { self.description = description }
    }

    /// The keys of PEM text: `PUBLIC KEY` blocks (RSA or P-256) and `CERTIFICATE` blocks (their public key).
    package static func keys(pem text: String) throws(Invalid) -> [SSOVerificationKey] {
        guard text.utf8.count <= 64 * 1024 else { throw Invalid("the PEM text is larger than 64 KiB") }
        var keys: [SSOVerificationKey] = []
        var rest = Substring(text)
        while let begin = rest.range(of: "-----BEGIN ") {
            guard let labelEnd = rest[begin.upperBound...].range(of: "-----") else { break }
            let label = String(rest[begin.upperBound..<labelEnd.lowerBound])
            guard let end = rest[labelEnd.upperBound...].range(of: "-----END \(label)-----") else {
                throw Invalid("the PEM block \(label) has no end line")
            }
            let block = String(rest[begin.lowerBound..<end.upperBound])
            rest = rest[end.upperBound...]
            switch label {
            case "PUBLIC KEY":
                if let ec = try? P256.Signing.PublicKey(pemRepresentation: block) {
                    keys.append(SSOVerificationKey(.p256(ec)))
                } else if let rsa = try? _RSA.Signing.PublicKey(unsafePEMRepresentation: block) {
                    keys.append(try checked(.rsa(rsa)))
                } else {
                    throw Invalid("a PUBLIC KEY block is neither RSA nor EC P-256")
                }
            case "CERTIFICATE":
                let certificate: Certificate
                do { certificate = try Certificate(pemEncoded: block) } catch { throw Invalid("a CERTIFICATE block cannot be read") }
                if let rsa = _RSA.Signing.PublicKey(certificate.publicKey) {
                    keys.append(try checked(.rsa(rsa)))
                } else if let ec = P256.Signing.PublicKey(certificate.publicKey) {
                    keys.append(SSOVerificationKey(.p256(ec)))
                } else {
                    throw Invalid("a certificate's key is neither RSA nor EC P-256")
                }
            default:
                throw Invalid("the PEM block \(label) is not a public key or certificate (never give a private key)")
            }
        }
        guard !keys.isEmpty else { throw Invalid("no PEM public key or certificate found") }
        return keys
    }

    /// The keys of a JWKS document (`{"keys": [...]}`): RSA and EC P-256 keys meant for signatures; others are skipped.
    package static func keys(jwks data: Data) throws(Invalid) -> [SSOVerificationKey] {
        struct JWK: Decodable {
            var kty: String
            var kid: String?
            var use: String?
            var alg: String?
            var n: String?
            var e: String?
            var crv: String?
            var x: String?
            var y: String?
        }
        struct JWKS: Decodable { var keys: [JWK] }
        guard let document = try? JSONDecoder().decode(JWKS.self, from: data) else {
            throw Invalid("the JWKS is not a JSON {\"keys\": [...]} document")
        }
        var keys: [SSOVerificationKey] = []
        for jwk in document.keys.prefix(100) where jwk.use == nil || jwk.use == "sig" {
            switch jwk.kty {
            case "RSA" where jwk.alg == nil || jwk.alg == "RS256":
                guard let n = jwk.n.flatMap(Data.init(base64URLEncoded:)), let e = jwk.e.flatMap(Data.init(base64URLEncoded:)),
                    let key = try? _RSA.Signing.PublicKey(n: n, e: e), key.keySizeInBits >= 2048
                else { continue }
                keys.append(SSOVerificationKey(.rsa(key), kid: jwk.kid))
            case "EC" where jwk.crv == "P-256" && (jwk.alg == nil || jwk.alg == "ES256"):
                guard let x = jwk.x.flatMap(Data.init(base64URLEncoded:)), let y = jwk.y.flatMap(Data.init(base64URLEncoded:)),
                    x.count == 32, y.count == 32, let key = try? P256.Signing.PublicKey(x963Representation: Data([4]) + x + y)
                else { continue }
                keys.append(SSOVerificationKey(.p256(key), kid: jwk.kid))
            default:
                continue
            }
        }
        return keys
    }

    private static func checked(_ material: Material) throws(Invalid) -> SSOVerificationKey {
        if case .rsa(let key) = material, key.keySizeInBits < 2048 { throw Invalid("an RSA key has fewer than 2048 bits") }
        return SSOVerificationKey(material)
    }
}
