import Crypto
import EntitleDomain
import EntitleModel
import Foundation

/// The legacy clientless `Authorization` header (protocol notes §2.3):
/// `POST requestor_id=REF, nonce=…, signature_method=HMAC-SHA1, request_time=<ms>, request_uri=/regcode, public_key=…, signature=…`
/// where `signature` is Base64 of HMAC-SHA1 keyed with the private key over the header text up to and including `request_uri=…`.
package struct HMACAuthorization: Sendable, Equatable {
    /// The HTTP method named at the start of the header.
    package var method: String
    /// `requestor_id`.
    package var requestorID: String
    /// `nonce`.
    package var nonce: String
    /// `signature_method` (only `HMAC-SHA1` is accepted).
    package var signatureMethod: String
    /// `request_time`, epoch ms.
    package var requestTime: Int64
    /// `request_uri`: the request path or a suffix of it.
    package var requestURI: String
    /// `public_key`: identifies the key pair.
    package var publicKey: String
    /// `signature`, Base64.
    package var signature: String
    /// The signed text: the header up to and including `request_uri=…`.
    package var signedText: String

    /// Parses a header; nil when it is not in this format.
    package static func parse(_ header: String) -> HMACAuthorization? {
        guard header.utf8.count <= 4096, let space = header.firstIndex(of: " ") else { return nil }
        let method = String(header[..<space])
        guard ["GET", "POST", "DELETE", "PUT"].contains(method), let keyRange = header.range(of: ", public_key=") else { return nil }
        let signedText = String(header[..<keyRange.lowerBound])
        var fields: [String: String] = [:]
        for part in header[header.index(after: space)...].components(separatedBy: ", ") {
            guard let equals = part.firstIndex(of: "=") else { return nil }
            fields[String(part[..<equals]).trimmingCharacters(in: .whitespaces)] = String(part[part.index(after: equals)...])
        }
        guard let requestor = fields["requestor_id"], let nonce = fields["nonce"], let method2 = fields["signature_method"],
            let time = fields["request_time"].flatMap({ Int64($0) }), time >= 0, time < 100_000_000_000_000, let uri = fields["request_uri"],
            let key = fields["public_key"],
            let signature = fields["signature"], !requestor.isEmpty, !nonce.isEmpty, nonce.count <= 128, !key.isEmpty,
            signedText.hasSuffix("request_uri=" + uri)
        else { return nil }
        return HMACAuthorization(
            method: method, requestorID: requestor, nonce: nonce, signatureMethod: method2, requestTime: time,
            requestURI: uri, publicKey: key, signature: signature, signedText: signedText)
    }

    /// Base64 HMAC-SHA1 of `text` keyed with the UTF-8 bytes of `privateKey`.
    package static func sign(_ text: String, privateKey: String) -> String {
        let code = HMAC<Insecure.SHA1>.authenticationCode(for: Data(text.utf8), using: SymmetricKey(data: Data(privateKey.utf8)))
        return Data(code).base64EncodedString()
    }

    /// Whether the signature is right for `privateKey` (constant-time comparison).
    package func hasValidSignature(privateKey: String) -> Bool {
        Secrets.constantTimeEqual(Self.sign(signedText, privateKey: privateKey), signature)
    }

    /// Whether `request_uri` names this request: the full path, or a suffix of it starting at a `/` with at least one segment.
    package func matches(path: String) -> Bool {
        guard requestURI.hasPrefix("/"), requestURI.count > 1 else { return false }
        let bare = requestURI.split(separator: "?", maxSplits: 1).first.map(String.init) ?? requestURI
        return path == bare || path.hasSuffix(bare)
    }

    /// Creates the value from each of its stored properties.
    package init(
        method: String, requestorID: String, nonce: String, signatureMethod: String, requestTime: Int64, requestURI: String, publicKey: String,
        signature: String, signedText: String
    ) {
        self.method = method
        self.requestorID = requestorID
        self.nonce = nonce
        self.signatureMethod = signatureMethod
        self.requestTime = requestTime
        self.requestURI = requestURI
        self.publicKey = publicKey
        self.signature = signature
        self.signedText = signedText
    }
}
