import Crypto
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// Encrypts secrets kept at rest — an OAuth 2.0 MVPD's refresh tokens and Entitle's client secret there — with
/// AES-256-GCM under a service key of purpose ``KeyPurpose/tokenEncryption`` (created on first use, shared by every
/// instance on the database). The text is `v1.{kid}.{base64 nonce‖ciphertext‖tag}`; the associated data binds it to
/// where it is stored (a profile, an MVPD), so a value copied to another row does not decrypt. Keys are found by id, so
/// a rotated key still decrypts what it encrypted.
package struct TokenCipher: Sendable {
    /// Service keys.
    package let keyStore: KeyStore
    package let keys: ServiceKeys

    /// Why a stored secret could not be decrypted.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String

        /// Creates the value from each of its stored properties.
        package init(description: String) {
            self.description = description
        }
    }

    /// The stored form of a new key: 32 random bytes, Base64.
    package static func newKeyText() -> String { SymmetricKey(size: .bits256).withUnsafeBytes { Data($0).base64EncodedString() } }

    /// Encrypts `plaintext` bound to `context`.
    package func seal(_ plaintext: String, context: String) async throws -> String {
        let (kid, key) = try await currentKey()
        let box = try AES.GCM.seal(Data(plaintext.utf8), using: key, authenticating: Data(context.utf8))
        guard let combined = box.combined else { throw Failure(description: "AES-GCM gave no combined form") }
        return "v1.\(kid).\(combined.base64EncodedString())"
    }

    /// Decrypts a value made by ``seal(_:context:)`` with the same `context`.
    package func open(_ text: String, context: String) async throws -> String {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", let combined = Data(base64Encoded: String(parts[2])) else {
            throw Failure(description: "not an encrypted value")
        }
        let key = try await key(kid: String(parts[1]))
        let plain = try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: key, authenticating: Data(context.utf8))
        return String(decoding: plain, as: UTF8.self)
    }

    /// The key that encrypts now, created when there is none.
    private func currentKey() async throws -> (String, SymmetricKey) {
        if let record = try await keyStore.activeKey(purpose: .tokenEncryption) { return (record.kid, try Self.key(record)) }
        try await keyStore.insertKey(try keys.makeKey(purpose: .tokenEncryption))
        // Another instance may have created one at the same moment: the newest wins, both decrypt.
        guard let record = try await keyStore.activeKey(purpose: .tokenEncryption) else {
            throw Failure(description: "no token-encryption key")
        }
        return (record.kid, try Self.key(record))
    }

    private func key(kid: String) async throws -> SymmetricKey {
        guard let record = try await keyStore.serviceKey(kid: kid), record.purpose == .tokenEncryption else {
            throw Failure(description: "unknown token-encryption key")
        }
        return try Self.key(record)
    }

    private static func key(_ record: ServiceKeyRecord) throws -> SymmetricKey {
        guard let bytes = Data(base64Encoded: record.privatePem), bytes.count == 32 else {
            throw Failure(description: "malformed token-encryption key")
        }
        return SymmetricKey(data: bytes)
    }

    /// Creates the value from each of its stored properties.
    package init(keyStore: KeyStore, keys: ServiceKeys) {
        self.keyStore = keyStore
        self.keys = keys
    }
}
