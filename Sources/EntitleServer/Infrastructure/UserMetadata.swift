import _CryptoExtras
import EntitleCore
import Foundation
import X509

/// Turns a stored profile into its wire form, encrypting the user metadata the MVPD marks as encrypted
/// with the programmer's certificate (RSA-OAEP with SHA-256, Base64), `state: enc`.
struct UserMetadataEncoder {
    let requestor: RequestorRecord
    let mvpd: MVPDRecord?
    /// The programmer's public key, parsed once (see ``EntitleService/metadataKey(requestor:)``).
    var key: _RSA.Encryption.PublicKey?

    func profile(_ record: ProfileRecord) -> Profile {
        var attributes: [String: ProfileAttribute] = [:]
        let encrypted = Set(mvpd?.encryptedAttributes ?? [])
        for (name, values) in record.attributeMap {
            let plain: JSONValue = values.count == 1 ? .string(values[0]) : .array(values.map(JSONValue.string))
            if encrypted.contains(name) {
                guard let key, let cipher = try? key.encrypt(Data(values.joined(separator: ",").utf8), padding: .PKCS1_OAEP_SHA256) else {
                    continue  // never leak a value that must be encrypted
                }
                attributes[name] = ProfileAttribute(value: .string(Data(cipher).base64EncodedString()), state: .encrypted)
            } else if name == "expiration_date", let number = Double(values[0]) {
                attributes[name] = ProfileAttribute(value: .number(number))
            } else {
                attributes[name] = ProfileAttribute(value: plain)
            }
        }
        return Profile(notBefore: record.notBefore, notAfter: record.notAfter, issuer: record.issuer, type: record.type, attributes: attributes)
    }

    static func publicKey(pem: String) -> _RSA.Encryption.PublicKey? {
        if pem.contains("BEGIN CERTIFICATE"), let certificate = try? Certificate(pemEncoded: pem),
            let der = try? certificate.publicKey.serializeAsPEM().derBytes
        {
            return try? _RSA.Encryption.PublicKey(derRepresentation: der)
        }
        return try? _RSA.Encryption.PublicKey(pemRepresentation: pem)
    }
}
