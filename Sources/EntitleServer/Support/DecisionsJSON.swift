import EntitleCore
import Foundation
import NIOCore

/// The decisions endpoints' JSON on the hot path, written and read by hand: byte-for-byte what `JSONCoding.encode`
/// writes (sorted keys, slashes unescaped), and the same resources `JSONDecoder` reads from the usual body. Anything
/// unusual (an error in a decision, escapes or extra keys in the body) takes the general coders.
enum DecisionsJSON {
    /// The answer's JSON text.
    static func encode(_ response: DecisionsResponse) -> Data {
        guard let body = fastBody(response) else { return JSONCoding.encode(response) }
        return Data(body.readableBytesView)
    }

    /// The answer's JSON as the response body, written straight into the buffer: no intermediate `String` grown by
    /// concatenation, no `Data`.
    static func body(_ response: DecisionsResponse) -> ByteBuffer {
        fastBody(response) ?? ByteBuffer(data: JSONCoding.encode(response))
    }

    /// The hand-written JSON; nil when a decision carries an error (the general encoder writes those).
    private static func fastBody(_ response: DecisionsResponse) -> ByteBuffer? {
        guard response.decisions.allSatisfy({ $0.error == nil }) else { return nil }
        let tokenBytes = response.decisions.reduce(0) { $0 + ($1.token?.serializedToken.utf8.count ?? 0) }
        var out = ByteBufferAllocator().buffer(capacity: 32 + 256 * response.decisions.count + tokenBytes)
        out.writeStaticString("{\"decisions\":[")
        for (index, decision) in response.decisions.enumerated() {
            if index > 0 { out.writeStaticString(",") }
            out.writeStaticString(decision.authorized ? "{\"authorized\":true" : "{\"authorized\":false")
            out.writeStaticString(",\"mvpd\":")
            writeString(decision.mvpd, to: &out)
            if let notAfter = decision.notAfter {
                out.writeStaticString(",\"notAfter\":")
                out.writeString(String(notAfter))
            }
            if let notBefore = decision.notBefore {
                out.writeStaticString(",\"notBefore\":")
                out.writeString(String(notBefore))
            }
            out.writeStaticString(",\"resource\":")
            writeString(decision.resource, to: &out)
            out.writeStaticString(",\"serviceProvider\":")
            writeString(decision.serviceProvider, to: &out)
            out.writeStaticString(",\"source\":")
            writeString(decision.source.rawValue, to: &out)
            if let token = decision.token {
                out.writeStaticString(",\"token\":{")
                if let issuedAt = token.issuedAt {
                    out.writeStaticString("\"issuedAt\":")
                    out.writeString(String(issuedAt))
                    out.writeStaticString(",")
                }
                out.writeStaticString("\"notAfter\":")
                out.writeString(String(token.notAfter))
                out.writeStaticString(",\"notBefore\":")
                out.writeString(String(token.notBefore))
                out.writeStaticString(",\"serializedToken\":")
                writeString(token.serializedToken, to: &out)
                out.writeStaticString("}")
            }
            out.writeStaticString("}")
        }
        out.writeStaticString("]}")
        return out
    }

    /// `value` as a JSON string literal (``FastJSON/string(_:)``), written without a copy when it needs no escaping.
    private static func writeString(_ value: String, to out: inout ByteBuffer) {
        if FastJSON.needsEscaping(value) {
            out.writeString(FastJSON.string(value))
        } else {
            out.writeStaticString("\"")
            out.writeString(value)
            out.writeStaticString("\"")
        }
    }

    /// The resources of `{"resources": ["…", …]}` without escapes; nil for anything else (use `JSONDecoder`).
    static func resources(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { resources(bytes: $0) }
    }

    private static func resources(bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        var index = 0
        func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }
        func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                // Escapes and control characters: the general decoder says what they mean (or refuses them).
                guard bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 else { return nil }
                index += 1
            }
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }
        guard take(UInt8(ascii: "{")), string() == "resources", take(UInt8(ascii: ":")), take(UInt8(ascii: "[")) else { return nil }
        var resources: [String] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
        } else {
            while true {
                guard let resource = string() else { return nil }
                resources.append(resource)
                if take(UInt8(ascii: "]")) { break }
                guard take(UInt8(ascii: ",")) else { return nil }
            }
        }
        guard take(UInt8(ascii: "}")) else { return nil }
        skipSpace()
        return index == bytes.count ? resources : nil
    }
}
