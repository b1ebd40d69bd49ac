import Crypto
import _CryptoExtras
import EntitleCore
import Foundation

/// An SSO token issuer made by a test: a key pair it generates (RSA-2048 for RS256, P-256 for ES256) and compact JWS
/// tokens signed with it, as a network's identity service, Fire TV or Roku would make them.
struct SSOTestIssuer: Sendable {
    enum Key: Sendable {
        case rsa(_RSA.Signing.PrivateKey)
        case p256(P256.Signing.PrivateKey)
    }

    let key: Key
    let kid: String?

    static func rsa(kid: String? = nil) throws -> SSOTestIssuer {
        SSOTestIssuer(key: .rsa(try _RSA.Signing.PrivateKey(keySize: .bits2048)), kid: kid)
    }
    static func p256(kid: String? = nil) -> SSOTestIssuer { SSOTestIssuer(key: .p256(P256.Signing.PrivateKey()), kid: kid) }

    /// The public key as PEM (what the operator registers).
    var publicKeyPEM: String {
        switch key {
        case .rsa(let key): key.publicKey.pemRepresentation
        case .p256(let key): key.publicKey.pemRepresentation
        }
    }

    /// The public key as a JWKS document.
    var jwks: Data {
        var jwk: [String: String] = [:]
        switch key {
        case .rsa(let key):
            let numbers = try! key.publicKey.getKeyPrimitives()
            jwk = [
                "kty": "RSA", "alg": "RS256", "use": "sig", "n": numbers.modulus.base64URLEncodedString(),
                "e": numbers.publicExponent.base64URLEncodedString(),
            ]
        case .p256(let key):
            let raw = key.publicKey.x963Representation
            jwk = [
                "kty": "EC", "crv": "P-256", "alg": "ES256", "x": Data(raw[1..<33]).base64URLEncodedString(),
                "y": Data(raw[33..<65]).base64URLEncodedString(),
            ]
        }
        if let kid { jwk["kid"] = kid }
        return try! JSONSerialization.data(withJSONObject: ["keys": [jwk]])
    }

    /// A signed token with `claims`; `header` adds to or replaces the header's fields.
    func token(_ claims: [String: Any], header extra: [String: Any] = [:]) throws -> String {
        var header: [String: Any] = ["typ": "JWT"]
        switch key {
        case .rsa: header["alg"] = "RS256"
        case .p256: header["alg"] = "ES256"
        }
        if let kid { header["kid"] = kid }
        header.merge(extra) { $1 }
        let input =
            (try JSONSerialization.data(withJSONObject: header, options: .sortedKeys)).base64URLEncodedString() + "."
            + (try JSONSerialization.data(withJSONObject: claims, options: .sortedKeys)).base64URLEncodedString()
        let signature: Data
        switch key {
        case .rsa(let key): signature = try key.signature(for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5).rawRepresentation
        case .p256(let key): signature = try key.signature(for: SHA256.hash(data: Data(input.utf8))).rawRepresentation
        }
        return input + "." + signature.base64URLEncodedString()
    }

    /// The usual claims of a token for `subject`, valid for an hour from `now` (ms).
    static func claims(iss: String, sub: String, aud: String? = "adobe", now: Int64, lifetime: Int64 = 3600) -> [String: Any] {
        let seconds = now / 1000
        var claims: [String: Any] = ["iss": iss, "sub": sub, "iat": seconds, "exp": seconds + lifetime, "jti": UUID().uuidString]
        if let aud { claims["aud"] = aud }
        return claims
    }
}
