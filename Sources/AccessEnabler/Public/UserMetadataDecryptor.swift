import EntitleCore
import Foundation
#if canImport(_CryptoExtras)
import _CryptoExtras
#endif

/// Decrypts user metadata delivered with `encrypted: true` (`state: enc`): Base64 RSA ciphertext made with the
/// programmer's certificate, opened with the programmer's private key (RSA-OAEP with SHA-256, or SHA-1 as fallback).
public struct UserMetadataDecryptor: Sendable {
    private let decrypt: @Sendable (Data) throws -> Data

    /// Creates a decryptor from a closure that turns ciphertext into plaintext (for keys held in secure hardware).
    public init(decrypt: @escaping @Sendable (Data) throws -> Data) { self.decrypt = decrypt }

    #if canImport(_CryptoExtras)
    /// Creates a decryptor from the programmer's RSA private key in PEM (`-----BEGIN PRIVATE KEY-----` or
    /// `-----BEGIN RSA PRIVATE KEY-----`).
    public init(privateKeyPEM: String) throws {
        _ = try _RSA.Encryption.PrivateKey(pemRepresentation: privateKeyPEM)
        self.decrypt = { ciphertext in
            let key = try _RSA.Encryption.PrivateKey(pemRepresentation: privateKeyPEM)
            if let plain = try? key.decrypt(ciphertext, padding: .PKCS1_OAEP_SHA256) { return plain }
            return try key.decrypt(ciphertext, padding: .PKCS1_OAEP)
        }
    }
    #endif

    /// Decrypts one value: the plaintext parsed as JSON when it is a JSON object, array or quoted string, else the
    /// text itself (so `10001` stays the string the MVPD sent, like unencrypted values).
    public func decrypt(_ value: JSONValue) throws -> JSONValue {
        switch value {
        case .string(let text):
            guard let ciphertext = Data(base64Lenient: text) else {
                throw AccessEnablerError(code: .invalidArgument, message: "The value is not Base64.")
            }
            let plain = try decrypt(ciphertext)
            if let first = plain.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
                [UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\"")].contains(first),
                let json = try? JSONDecoder().decode(JSONValue.self, from: plain)
            {
                return json
            }
            guard let string = String(data: plain, encoding: .utf8) else {
                throw AccessEnablerError(code: .invalidArgument, message: "The decrypted value is not text.")
            }
            return .string(string)
        case .array(let values):
            return .array(try values.map(decrypt))
        default:
            return value
        }
    }
}
