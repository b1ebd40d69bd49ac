import _CryptoExtras
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import X509

/// Turns a stored profile into its wire form, encrypting the user metadata the MVPD marks as encrypted
/// with the programmer's certificate (RSA-OAEP with SHA-256, Base64), `state: enc`.
///
/// A stored profile keeps metadata as name → [text]; a value that is a JSON object (such as `maxRating`
/// `{"MPAA":"PG-13","VCHIP":"TV-Y"}`) is kept as its JSON text and its name listed under ``jsonValuedKey``, and goes to
/// clients as the object.
package struct UserMetadataEncoder {
    /// The stored attribute that lists the names whose single value is JSON text (never sent itself).
    package static let jsonValuedKey = "@json"

    /// Stored metadata for `values`: plain texts as they are, objects as JSON text listed under ``jsonValuedKey``.
    package static func stored(_ values: [String: JSONValue]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        var json: [String] = []
        for (name, value) in values where name != jsonValuedKey {
            switch value {
            case .string(let text): result[name] = [text]
            case .bool(let flag): result[name] = [String(flag)]
            case .number(let number):
                result[name] = [number.rounded() == number && abs(number) < 9e15 ? String(Int64(number)) : String(number)]
            case .array(let items) where items.allSatisfy({ $0.stringValue != nil }):
                result[name] = items.compactMap(\.stringValue)
            case .array, .object:
                result[name] = [JSONText.encode(value)]
                json.append(name)
            }
        }
        if !json.isEmpty { result[jsonValuedKey] = json.sorted() }
        return result
    }

    package let requestor: RequestorRecord
    package let mvpd: MVPDRecord?
    /// The programmer's public key, parsed once (see ``EntitleService/metadataKey(requestor:)``).
    package var key: _RSA.Encryption.PublicKey?

    package func profile(_ record: ProfileRecord) -> Profile {
        var attributes: [String: ProfileAttribute] = [:]
        let encrypted = Set(mvpd?.encryptedAttributes ?? [])
        var stored = record.attributeMap
        let jsonValued = Set(stored.removeValue(forKey: Self.jsonValuedKey) ?? [])
        for (name, values) in stored {
            var plain: JSONValue = values.count == 1 ? .string(values[0]) : .array(values.map(JSONValue.string))
            if jsonValued.contains(name), values.count == 1, let value = try? JSONDecoder().decode(JSONValue.self, from: Data(values[0].utf8)) {
                plain = value
            }
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

    package static func publicKey(pem: String) -> _RSA.Encryption.PublicKey? {
        if pem.contains("BEGIN CERTIFICATE"), let certificate = try? Certificate(pemEncoded: pem),
            let der = try? certificate.publicKey.serializeAsPEM().derBytes
        {
            return try? _RSA.Encryption.PublicKey(derRepresentation: der)
        }
        return try? _RSA.Encryption.PublicKey(pemRepresentation: pem)
    }

    /// Creates the value from each of its stored properties.
    package init(requestor: RequestorRecord, mvpd: MVPDRecord?, key: _RSA.Encryption.PublicKey? = nil) {
        self.requestor = requestor
        self.mvpd = mvpd
        self.key = key
    }
}
