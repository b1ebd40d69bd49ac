import EntitleCore
import Foundation
import SAML  // re-exports Crypto (HMAC, HKDF)

/// Stateless HMAC-SHA256 tokens: the IdP session cookie and the login form's CSRF token. The key is derived
/// (HKDF) from the IdP's private key, so every instance with the same identity accepts the same tokens.
struct TokenSigner: Sendable {
    private let key: SymmetricKey

    /// Derives the HMAC key from the identity's private key.
    init(identity: SigningIdentity) {
        let material = SymmetricKey(data: Data(identity.privateKeyPEM.utf8))
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: material, salt: Data("entitle-demo-mvpd".utf8),
            info: Data("browser-tokens-v1".utf8), outputByteCount: 32)
    }

    /// `base64url(payload) "." base64url(HMAC(payload))`.
    func seal(_ payload: Data) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: payload, using: key)
        return payload.base64URLEncodedString() + "." + Data(mac).base64URLEncodedString()
    }

    /// The payload of a token made by ``seal(_:)``, or nil when it is malformed or the MAC does not match.
    func open(_ token: String) -> Data? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = Data(base64URLEncoded: String(parts[0])),
            let mac = Data(base64URLEncoded: String(parts[1])),
            HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: payload, using: key)
        else { return nil }
        return payload
    }

    /// The MAC of a list of fields (length-prefixed, so field boundaries cannot be shifted).
    func mac(fields: [String]) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Self.encode(fields), using: key)).base64URLEncodedString()
    }

    /// Whether `mac` is the MAC of `fields` (constant-time comparison).
    func verify(mac: String, fields: [String]) -> Bool {
        guard let code = Data(base64URLEncoded: mac) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: Self.encode(fields), using: key)
    }

    /// A fresh random value for the CSRF cookie.
    static func randomToken() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64URLEncodedString()
    }

    private static func encode(_ fields: [String]) -> Data {
        var data = Data()
        for field in fields {
            data.append(contentsOf: "\(field.utf8.count):".utf8)
            data.append(contentsOf: field.utf8)
        }
        return data
    }
}
