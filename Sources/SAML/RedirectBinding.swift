import CZlib
import Crypto
import _CryptoExtras
import EntitleCore
import Foundation
import X509

/// SAML HTTP-Redirect binding (DEFLATE encoding, query-string signature with RSA-SHA256).
enum RedirectBinding {
    /// Largest encoded message parameter accepted (characters).
    static let maxEncodedLength = 512 * 1024
    /// Largest inflated message accepted (bytes).
    static let maxInflatedSize = 256 * 1024

    /// `destination?SAMLRequest=…&RelayState=…&SigAlg=…&Signature=…` (SigAlg/Signature only with a signer).
    static func url(
        destination: String, parameter: String, xml: String, relayState: String?,
        signer: SigningIdentity?
    ) throws -> String {
        let encoded = Data(try deflate(Array(xml.utf8))).base64EncodedString()
        var query = "\(parameter)=\(FormURLEncoding.escape(encoded))"
        if let relayState { query += "&RelayState=\(FormURLEncoding.escape(relayState))" }
        if let signer {
            query += "&SigAlg=\(FormURLEncoding.escape(DSAlgorithm.rsaSHA256))"
            let signature = try signer.privateKey.signature(for: Array(query.utf8), padding: .insecurePKCS1v1_5)
            query += "&Signature=\(FormURLEncoding.escape(signature.rawRepresentation.base64EncodedString()))"
        }
        return destination + (destination.contains("?") ? "&" : "?") + query
    }

    /// Decodes the message from already URL-decoded query items; verifies the signature when `verifyWith` is
    /// non-empty by re-encoding the values (upper- then lower-case percent escapes). Prefer `decode(rawQuery:)`.
    /// RSA-SHA1 signatures count only with `allowSHA1` (a legacy IdP the operator enabled).
    static func decode(query: [String: String], parameter: String, verifyWith: [Certificate], allowSHA1: Bool = false) throws -> XMLDoc {
        guard let message = query[parameter] else { throw SAMLError.missing("query has no \(parameter)") }
        if !verifyWith.isEmpty {
            guard let sigAlg = query["SigAlg"], let signature = query["Signature"] else {
                throw SAMLError(.unsigned, "redirect binding message is not signed")
            }
            let candidates = [false, true].map { lower in
                var signed = "\(parameter)=\(FormURLEncoding.escape(message, lowercaseHex: lower))"
                if let relay = query["RelayState"] { signed += "&RelayState=\(FormURLEncoding.escape(relay, lowercaseHex: lower))" }
                return signed + "&SigAlg=\(FormURLEncoding.escape(sigAlg, lowercaseHex: lower))"
            }
            try verify(signedStrings: candidates, sigAlg: sigAlg, signature: signature, certificates: verifyWith, allowSHA1: allowSHA1)
        }
        return try XMLDoc(bytes: try inflatedMessage(message))
    }

    /// Decodes the message from the raw (still percent-encoded) query string, verifying the signature over the
    /// exact bytes the sender signed when `verifyWith` is non-empty.
    static func decode(rawQuery: String, parameter: String, verifyWith: [Certificate], allowSHA1: Bool = false) throws -> XMLDoc {
        guard rawQuery.utf8.count <= maxEncodedLength * 2 else {
            throw SAMLError(.tooLarge, "query string too large")
        }
        var raw: [String: Substring] = [:]
        for pair in rawQuery.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            if raw[name] == nil { raw[name] = parts.count > 1 ? parts[1] : "" }
        }
        guard let rawMessage = raw[parameter], let message = FormURLEncoding.decode(rawMessage) else {
            throw SAMLError.missing("query has no \(parameter)")
        }
        if !verifyWith.isEmpty {
            guard let rawSigAlg = raw["SigAlg"], let sigAlg = FormURLEncoding.decode(rawSigAlg),
                let rawSignature = raw["Signature"], let signature = FormURLEncoding.decode(rawSignature)
            else {
                throw SAMLError(.unsigned, "redirect binding message is not signed")
            }
            var signed = "\(parameter)=\(rawMessage)"
            if let relay = raw["RelayState"] { signed += "&RelayState=\(relay)" }
            signed += "&SigAlg=\(rawSigAlg)"
            try verify(signedStrings: [signed], sigAlg: sigAlg, signature: signature, certificates: verifyWith, allowSHA1: allowSHA1)
        }
        return try XMLDoc(bytes: try inflatedMessage(message))
    }

    /// The URL-decoded value of `name` in a raw query string.
    static func queryValue(_ name: String, rawQuery: String) -> String? {
        for pair in rawQuery.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts[0] == name { return FormURLEncoding.decode(parts.count > 1 ? parts[1] : "") }
        }
        return nil
    }

    private static func verify(
        signedStrings: [String], sigAlg: String, signature: String,
        certificates: [Certificate], allowSHA1: Bool
    ) throws {
        let sha1 = allowSHA1 && sigAlg == DSAlgorithm.rsaSHA1
        guard sigAlg == DSAlgorithm.rsaSHA256 || sha1 else {
            throw SAMLError(.unsupportedAlgorithm, "unsupported SigAlg \(sigAlg)")
        }
        guard let signatureBytes = Data(base64IgnoringWhitespace: signature.replacingOccurrences(of: " ", with: "+")),
            !signatureBytes.isEmpty
        else {
            throw SAMLError(.badEncoding, "Signature is not base64")
        }
        let value = _RSA.Signing.RSASignature(rawRepresentation: signatureBytes)
        let keys = certificates.compactMap { try? rsaPublicKey(of: $0) }
        for signed in signedStrings {
            let bytes = Array(signed.utf8)
            let valid = keys.contains { key in
                sha1
                    ? key.isValidSignature(value, for: Insecure.SHA1.hash(data: bytes), padding: .insecurePKCS1v1_5)
                    : key.isValidSignature(value, for: bytes, padding: .insecurePKCS1v1_5)
            }
            if valid { return }
        }
        throw SAMLError(.badSignature, "redirect binding signature does not verify")
    }

    private static func inflatedMessage(_ base64: String) throws -> [UInt8] {
        guard base64.utf8.count <= maxEncodedLength else {
            throw SAMLError(.tooLarge, "encoded message exceeds \(maxEncodedLength) characters")
        }
        // A '+' the sender left unescaped arrives as a space after form decoding; base64 has no spaces.
        guard let compressed = Data(base64IgnoringWhitespace: base64.replacingOccurrences(of: " ", with: "+")) else {
            throw SAMLError(.badEncoding, "message is not base64")
        }
        return try inflate([UInt8](compressed), limit: maxInflatedSize)
    }

    // MARK: - Raw DEFLATE (RFC 1951)

    static func deflate(_ input: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY,
                zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else {
            throw SAMLError(.badEncoding, "deflate init failed")
        }
        defer { deflateEnd(&stream) }
        var source = input
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 16)
        let status: Int32 = source.withUnsafeMutableBufferPointer { src in
            output.withUnsafeMutableBufferPointer { dst in
                stream.next_in = src.baseAddress
                stream.avail_in = uInt(src.count)
                stream.next_out = dst.baseAddress
                stream.avail_out = uInt(dst.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw SAMLError(.badEncoding, "deflate failed") }
        return Array(output[0..<Int(stream.total_out)])
    }

    static func inflate(_ input: [UInt8], limit: Int) throws -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw SAMLError(.badEncoding, "inflate init failed")
        }
        defer { inflateEnd(&stream) }
        var source = input
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        try source.withUnsafeMutableBufferPointer { src in
            stream.next_in = src.baseAddress
            stream.avail_in = uInt(src.count)
            while true {
                let (status, produced): (Int32, Int) = chunk.withUnsafeMutableBufferPointer { dst in
                    stream.next_out = dst.baseAddress
                    stream.avail_out = uInt(dst.count)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (status, dst.count - Int(stream.avail_out))
                }
                result += chunk[0..<produced]
                if result.count > limit {
                    throw SAMLError(.tooLarge, "inflated message exceeds \(limit) bytes")
                }
                if status == Z_STREAM_END { return }
                guard status == Z_OK else {
                    throw SAMLError(.badEncoding, "message is not raw DEFLATE data")
                }
                if stream.avail_in == 0 && produced == 0 {
                    throw SAMLError(.badEncoding, "DEFLATE data is truncated")
                }
            }
        }
        return result
    }
}
